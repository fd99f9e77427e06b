/**
 * Every exit code a user reads is EXIT's: the tables in README and the docs are generated from
 * COMMAND_EXITS (scripts/exit-codes.mjs), every command's --help ends with its own, and every other
 * mention of an exit code names one that exists, beside the verdict it belongs to.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { COMMAND_EXITS, EXIT, exitCodeBlocks, exitCodesHelp, exitCodesMarkdown, type CommandName } from '@gwprof/results';
import { repoRoot } from './e2e/cli.js';

const execFileAsync = promisify(execFile);

const CODES = new Set<number>(Object.values(EXIT));
/** What a verdict or state exits with, wherever a page names it beside a code. */
const VERDICT_EXIT: Record<string, number> = {
  'no change': EXIT.ok,
  improvement: EXIT.ok,
  'no leak': EXIT.ok,
  regression: EXIT.failed,
  leak: EXIT.failed,
  error: EXIT.error,
  inconclusive: EXIT.inconclusive,
  invalid: EXIT.invalid,
  interrupted: EXIT.interrupted,
};

const pages = [
  'README.md',
  'CONTRIBUTING.md',
  'examples/gwprof-compare.yml',
  ...readdirSync(path.join(repoRoot, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
  ...readdirSync(path.join(repoRoot, 'docs/validation'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/validation/${f}`),
];
const read = (file: string) => readFileSync(path.join(repoRoot, file), 'utf8');

/** Each "exit N", "exits N", "exited N", "exit code N" in a text, with the words just before it. */
function exitMentions(text: string): Array<{ code: number; before: string; where: string }> {
  return [...text.matchAll(/\bexit(?:s|ed)?(?: code)? (\d+)\b/gi)].map((m) => ({
    code: Number(m[1]),
    before: text.slice(Math.max(0, m.index! - 40), m.index!),
    where: text.slice(Math.max(0, m.index! - 40), m.index! + m[0].length),
  }));
}

/** The verdict named right before "(exit N)" or "… N)": `regression` (exit 1), inconclusive, exit 3. */
function verdictBefore(before: string): string | null {
  const m =
    /`?(no change|improvement|no leak|regression|leak|inconclusive|invalid|interrupted|error)`?,? \($|`?(no change|improvement|no leak|regression|leak|inconclusive|invalid|interrupted|error)`?, $/.exec(
      before,
    );
  return m ? (m[1] ?? m[2])! : null;
}

describe('exit codes', () => {
  it('fills every marked table in README and the docs from COMMAND_EXITS, and README has the sweep and compare tables', () => {
    for (const file of pages.filter((f) => f.endsWith('.md'))) {
      const text = read(file);
      expect(exitCodeBlocks(text, exitCodesMarkdown), `${file}: run node scripts/exit-codes.mjs`).toBe(text);
    }
    expect(read('README.md')).toContain(`<!-- exit-codes:sweep -->\n${exitCodesMarkdown('sweep')}`);
    expect(read('README.md')).toContain(`<!-- exit-codes:compare -->\n${exitCodesMarkdown('compare')}`);
    expect(read('docs/soak.md')).toContain(`<!-- exit-codes:soak -->\n${exitCodesMarkdown('soak')}`);
    expect(read('docs/scenario-file.md')).toContain(`<!-- exit-codes:goldens -->\n${exitCodesMarkdown('goldens')}`);
  });

  it("names only EXIT's codes in the docs, and the right one beside a verdict", () => {
    for (const file of pages) {
      for (const mention of exitMentions(read(file))) {
        expect(CODES.has(mention.code), `${file}: "${mention.where}"`).toBe(true);
        const verdict = verdictBefore(mention.before);
        if (verdict) expect(mention.code, `${file}: "${mention.where}"`).toBe(VERDICT_EXIT[verdict]);
      }
    }
  });

  it("keeps the docs' verdict tables to EXIT: a row's verdict and its exit code agree", () => {
    const rows = read('docs/compare.md')
      .split('\n')
      .filter((line) => /^\| `[a-z ]+` \| \d+ \|/.test(line));
    expect(rows.length).toBeGreaterThanOrEqual(6);
    for (const row of rows) {
      const [, verdict, code] = /^\| `([a-z ]+)` \| (\d+) \|/.exec(row)!;
      expect(Number(code), row).toBe(VERDICT_EXIT[verdict!]);
    }
  });

  // One CLI start per command, all at once: on a loaded 2-core machine a start takes seconds.
  it("ends every command's --help with its exit codes, and names no other code there", { timeout: 180_000 }, async () => {
    const bin = path.join(repoRoot, 'packages/cli/dist/bin.js');
    const commands = Object.keys(COMMAND_EXITS) as CommandName[];
    const helps = await Promise.all(commands.map((command) => execFileAsync(process.execPath, [bin, command, '--help'], { encoding: 'utf8' })));
    commands.forEach((command, i) => {
      const help = helps[i]!.stdout;
      expect(help.trimEnd().endsWith(exitCodesHelp(command)), command).toBe(true);
      const listed = new Set(COMMAND_EXITS[command].map(([code]) => code));
      for (const mention of exitMentions(help)) expect(listed.has(mention.code as never), `${command} --help: "${mention.where}"`).toBe(true);
    });
  });

  it('gives every command the codes it can exit with: bad input everywhere, 130 for what can be interrupted', () => {
    for (const [command, codes] of Object.entries(COMMAND_EXITS)) {
      expect(codes.map(([code]) => code)).toContain(EXIT.error);
      expect(codes.map(([code]) => code)).toContain(EXIT.ok);
      if (['sweep', 'compare', 'soak', 'goldens'].includes(command))
        expect(
          codes.map(([code]) => code),
          command,
        ).toContain(EXIT.interrupted);
    }
  });
});
