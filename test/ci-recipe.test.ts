/**
 * The CI recipes (examples/gwprof-compare.yml for a Node gateway, gwprof-compare-rust.yml for a
 * Rust one) are YAML GitHub must be able to read, and every shell step is shell bash can parse: a
 * recipe that has never run must at least be well-formed. Running their steps for real is
 * test/recipe/*.slow.ts (`pnpm test:recipe`).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
interface Step {
  name?: string;
  id?: string;
  if?: string;
  run?: string;
  uses?: string;
}
const PIN_EXPRESSION = ['$', '{{ env.GWPROF_REF }}'].join('');

/** The gwprof commit a recipe pins (its job's GWPROF_REF): a full SHA. */
function pinOf(file: string): string {
  const recipe = parse(readFileSync(path.join(root, 'examples', file), 'utf8')) as { jobs: { compare: { env: { GWPROF_REF: string } } } };
  const ref = recipe.jobs.compare.env.GWPROF_REF;
  if (!/^[0-9a-f]{40}$/.test(ref)) throw new Error(`${file} pins gwprof at "${ref}": give a full commit SHA`);
  return ref;
}
const stepsOf = (file: string) =>
  (parse(readFileSync(path.join(root, 'examples', file), 'utf8'), { strict: true }) as { jobs: { compare: { steps: Step[] } } }).jobs.compare.steps;

describe.each(['gwprof-compare.yml', 'gwprof-compare-rust.yml'])('the CI recipe %s', (file) => {
  const steps = stepsOf(file);

  it('parses as YAML, and each run step as bash', () => {
    expect(steps.length).toBeGreaterThan(5);
    for (const step of steps.filter((s) => s.run)) {
      const check = spawnSync('bash', ['-n'], { input: step.run, encoding: 'utf8' });
      expect(check.status, `${step.name}: ${check.stderr}`).toBe(0);
    }
  });

  it('fails the job on every exit code but 0 and 3, warns on 3, and posts one comment found by its marker', () => {
    const fail = steps.find((s) => s.if?.includes('exit_code') && s.run?.includes('exit 1'))!;
    const fails = (code: string) => failsOn(fail.if!, code);
    for (const code of ['1', '2', '4', '130', '134', '137', '']) expect(fails(code), `exit code "${code}"`).toBe(true);
    for (const code of ['0', '3']) expect(fails(code), `exit code ${code}`).toBe(false);
    expect(steps.find((s) => s.if?.includes("== '3'"))!.run).toContain('::warning::');
    const post = steps.find((s) => s.run?.includes('gh api'))!;
    expect(post.run).toContain('<!-- gwprof-compare -->');
    expect(post.run).toContain('PATCH');
    expect(post.run).toContain('GITHUB_STEP_SUMMARY');
    // gwprof is pinned by a commit that exists, packed once per pin (cached), installed as a package.
    expect(execFileSync('git', ['-C', root, 'cat-file', '-t', pinOf(file)], { encoding: 'utf8' }).trim()).toBe('commit');
    const checkout = steps.find((s) => s.uses?.startsWith('actions/checkout') && s.name?.includes('gwprof')) as Step & { with: { ref?: string } };
    // GitHub's expression for the job's pin (a const, so it reads as GitHub's, not a template).
    expect(checkout.with.ref).toBe(PIN_EXPRESSION);
    const cache = steps.find((s) => s.id === 'gwprof-pack') as Step & { with: { key: string } };
    expect(cache.with.key).toContain(PIN_EXPRESSION);
    expect(checkout.if).toBe("steps.gwprof-pack.outputs.cache-hit != 'true'");
    expect(steps.find((s) => s.id === 'gwprof')!.run).toMatch(/npm install .*\.\/gwprof-pack\/gwprof-\*\.tgz/);
    // The artifact is uploaded before the comment that links it.
    expect(steps.findIndex((s) => s.id === 'artifact')).toBeLessThan(steps.indexOf(post));
  });
});

/** The fail step's `if:`, `exit_code != 'A' && exit_code != 'B'`, evaluated as GitHub would for one exit code. */
function failsOn(condition: string, exitCode: string): boolean {
  const clauses = condition.split('&&').map((c) => /steps\.compare\.outputs\.exit_code != '(\d+)'/.exec(c.trim()));
  if (clauses.some((c) => c === null)) throw new Error(`the fail step's condition is not of the form exit_code != 'N' && …: ${condition}`);
  return clauses.every((c) => c![1] !== exitCode);
}

describe('the Rust CI recipe', () => {
  const steps = stepsOf('gwprof-compare-rust.yml');
  it('builds both sides into one cached target folder with symbols, and copies each binary out before the next build', () => {
    const cache = steps.find((s) => s.uses?.startsWith('actions/cache') && s.id !== 'gwprof-pack') as Step & { with: { path: string; key: string } };
    expect(cache.with.path).toContain('target-shared');
    expect(cache.with.key).toContain("hashFiles('baseline/Cargo.lock', 'candidate/Cargo.lock')");
    const build = steps.find((s) => s.id === 'build')!.run!;
    expect(build).toMatch(/CARGO_TARGET_DIR="\$PWD\/target-shared"/);
    expect(build).toMatch(/CARGO_PROFILE_RELEASE_STRIP=false/);
    expect(build.indexOf('cargo build')).toBeLessThan(build.indexOf('cp "$CARGO_TARGET_DIR/release/$GATEWAY_BIN"'));
    expect(steps.findIndex((s) => s.id === 'build')).toBeLessThan(steps.findIndex((s) => s.id === 'compare'));
  });
});
