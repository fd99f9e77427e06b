import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUCKET_ORDER, analyzeProfile } from './buckets.js';
import { GwprofError } from '@gwprof/results';
import { DEFAULT_BUCKET_RULES, loadBucketRules } from './rules.js';
import { frame, profileOf } from '../testing/profiles.js';

async function rulesFile(content: string): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'gwprof-rules-')), 'rules.json');
  await writeFile(path, content);
  return path;
}

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('bucket rules', () => {
  it('ships default rules for every built-in bucket except the unattributed ones', () => {
    const used = new Set(DEFAULT_BUCKET_RULES.map((rule) => rule.bucket));
    expect([...BUCKET_ORDER].filter((bucket) => !used.has(bucket))).toEqual(['unplaced', 'other']);
  });

  it('says in every default rule why it exists', () => {
    expect(DEFAULT_BUCKET_RULES.filter((rule) => !rule.comment?.trim())).toEqual([]);
  });

  it('lets a weak rule decide only when no ordinary rule matches on the stack', async () => {
    const path = await rulesFile(
      JSON.stringify([
        { bucket: 'myServer', url: 'my-server\\.js$', weak: true, new: true },
        { bucket: 'myPlanner', url: 'my-planner\\.js$', new: true },
      ]),
    );
    const server = frame('handle', '/srv/my-server.js');
    const helper = frame('helper', '/srv/node_modules/util-lib/index.js');
    const result = analyzeProfile(
      profileOf([
        { stack: [frame('plan', '/srv/my-planner.js'), server, helper], count: 2 },
        { stack: [server, helper], count: 1 },
      ]),
      { rules: loadBucketRules(path) },
    );
    expect(result.counts).toMatchObject({ myPlanner: 2, myServer: 1 });
  });

  it('puts a maintainer’s rules before the defaults, with custom buckets before other', async () => {
    const path = await rulesFile(
      JSON.stringify([
        { bucket: 'myPlanner', url: 'my-gateway[/\\\\]planner', comment: 'our planner', new: true },
        { bucket: 'ticks', functionName: '^executeFields$' },
      ]),
    );
    const rules = loadBucketRules(path);
    expect(rules.length).toBe(DEFAULT_BUCKET_RULES.length + 2);
    const result = analyzeProfile(
      profileOf([
        { stack: [frame('plan', 'C:\\srv\\my-gateway\\planner\\index.js')], count: 2 },
        // Same frame as the default execute rule: the extra rule wins.
        { stack: [frame('executeFields', '/gw/node_modules/graphql/execution/execute.js')], count: 1 },
      ]),
      { rules },
    );
    expect(Object.keys(result.buckets)).toEqual([...BUCKET_ORDER.slice(0, -1), 'myPlanner', 'other']);
    expect(result.counts).toMatchObject({ myPlanner: 2, ticks: 1, execute: 0 });
  });

  it('rejects a bad rules file with one line naming it', async () => {
    const cases: Array<[string, RegExp]> = [
      ['{"bucket": "x"}', /expected a JSON array/],
      ['[{"bucket": "x", "url": "a", "file": "b"}]', /rule 0 has unknown field "file"/],
      ['[{"bucket": "x", "url": "("}]', /rule 0: "url" is not a valid regex/],
      ['[{"bucket": "x"}]', /rule 0 needs "functionName" or "url"/],
      ['[{"url": "a"}]', /rule 0 needs a non-empty string "bucket"/],
      ['[{"bucket": "x", "functionName": 3}]', /rule 0: "functionName" must be a string/],
      ['[{"bucket": "x", "url": "a", "weak": "yes"}]', /rule 0: "weak" must be true or false/],
      ['[{"bucket": ', /invalid JSON/],
      // A typo would make a bucket of its own: refused with the names, unless marked as new.
      [
        '[{"bucket": "plna", "url": "a"}]',
        /rule 0 names bucket "plna", which is not one of gc, idle, .*: fix the name, or mark a bucket of your own with "new": true/,
      ],
    ];
    for (const [content, pattern] of cases) {
      const path = await rulesFile(content);
      const error = catchError(() => loadBucketRules(path));
      expect(error).toBeInstanceOf(GwprofError);
      expect((error as Error).message).toMatch(pattern);
      expect((error as Error).message.startsWith(`${path}: `)).toBe(true);
      expect((error as Error).message).not.toContain('\n');
    }
    expect(() => loadBucketRules('/nonexistent/rules.json')).toThrow('/nonexistent/rules.json: cannot read bucket rules (ENOENT)');
  });
});
