import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProfileFormatError, parseCpuProfile, readCpuProfile } from './cpuprofile.js';
import { frame, profileOf } from './testing/profiles.js';

const valid = profileOf([{ stack: [frame('main', '/app/main.js')], count: 3 }]);

function parseError(text: string): ProfileFormatError {
  try {
    parseCpuProfile(text, 'step-10.cpuprofile');
  } catch (error) {
    expect(error).toBeInstanceOf(ProfileFormatError);
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    expect(message.startsWith('step-10.cpuprofile: ')).toBe(true);
    return error as ProfileFormatError;
  }
  throw new Error('expected a ProfileFormatError');
}

describe('parseCpuProfile', () => {
  it('accepts a V8 profile and keeps its content', () => {
    expect(parseCpuProfile(JSON.stringify(valid), 'x')).toEqual(valid);
  });

  it('accepts a profile that has hit counts instead of samples', () => {
    const { samples: _s, timeDeltas: _t, ...rest } = valid;
    const withHits = { ...rest, nodes: rest.nodes.map((n) => ({ ...n, hitCount: 1 })) };
    expect(parseCpuProfile(JSON.stringify(withHits), 'x').samples).toBeUndefined();
  });

  it('names the file and the problem in one line', () => {
    const text = JSON.stringify(valid);
    expect(parseError(text.slice(0, text.length / 2)).message).toMatch(/truncated or invalid JSON/);
    expect(parseError('').message).toMatch(/empty file/);
    expect(parseError('[1, 2]').message).toMatch(/not a V8 CPU profile: top level is not a JSON object/);
    expect(parseError('{"traceEvents": []}').message).toMatch(/missing "nodes" array/);
    expect(parseError(JSON.stringify({ ...valid, samples: [2, 99] })).message).toMatch(/samples\[1\] = 99 names no node/);
    expect(parseError(JSON.stringify({ ...valid, samples: undefined, timeDeltas: undefined })).message).toMatch(
      /no "samples" array and no node "hitCount"/,
    );
    expect(parseError(JSON.stringify({ ...valid, timeDeltas: [1] })).message).toMatch(/"timeDeltas" has 1 entries but "samples" has 3/);
    expect(parseError(JSON.stringify({ ...valid, startTime: 'soon' })).message).toMatch(/startTime/);
    const orphanChild = { ...valid, nodes: [{ ...valid.nodes[0]!, children: [42] }, ...valid.nodes.slice(1)] };
    expect(parseError(JSON.stringify(orphanChild)).message).toMatch(/lists child 42, which names no node/);
    const noFrame = { ...valid, nodes: [{ id: 1 }] };
    expect(parseError(JSON.stringify(noFrame)).message).toMatch(/nodes\[0\] has no "callFrame"/);
  });
});

describe('readCpuProfile', () => {
  it('reads a file and names it when it is missing or broken', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gwprof-analysis-'));
    const good = join(dir, 'good.cpuprofile');
    const broken = join(dir, 'broken.cpuprofile');
    await writeFile(good, JSON.stringify(valid));
    await writeFile(broken, '{"nodes": [');
    expect((await readCpuProfile(good)).samples).toEqual(valid.samples);
    await expect(readCpuProfile(broken)).rejects.toThrow(`${broken}: truncated or invalid JSON`);
    await expect(readCpuProfile(join(dir, 'missing.cpuprofile'))).rejects.toThrow(
      `${join(dir, 'missing.cpuprofile')}: cannot read CPU profile (ENOENT)`,
    );
  });
});
