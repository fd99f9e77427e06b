/**
 * End to end: `gwprof bisect` refuses what it cannot bisect, in one line. Bisecting a Rust gateway's
 * commits, whose work per request doubles at the last one, with a commit between that does not
 * build, is bisect.long.test.ts's (`pnpm test:long`); the planted history of 34 commits and small
 * steps is the slow test's (test/bisect/bisect-planted.slow.ts).
 */
import { describe, expect, it } from 'vitest';
import { runCli } from './cli.js';

describe('gwprof bisect', () => {
  it('refuses a gateway it cannot bisect by versions in one line (exit 2)', async () => {
    const result = await runCli(['bisect', '--gateway', 'mesh', '--good', '1.0.0', '--bad', '1.1.0']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toMatch(
      /^gwprof: bisect --gateway takes a built-in gateway with published versions \(grafbase, hive-router, apollo-router, hive, apollo\); bisect other gateways by commits/,
    );
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  }, 60_000);
});
