import { describe, expect, it } from 'vitest';
import type { CompareDesign, GatewayBuild, InstructionEpoch } from '@gwprof/results';
import { buildsBySide } from '@gwprof/results';
import { instructionMeasure } from './measure-statement.js';

const design = { instructions: { batchRequests: 200, v8Flags: ['--no-opt', '--max-lazy'] } } as unknown as CompareDesign;
const side = (node: boolean) => ({ pid: 1, node, startup: { prepareMs: 0, listenMs: 0, readyMs: 0 }, warmupSec: 1, warmupFailures: 0 });
const epochs = (node: boolean): InstructionEpoch[] => [{ epoch: 1, startedAt: '', finishedAt: '', sides: { baseline: side(node), candidate: side(node) } }];
const build: GatewayBuild = {
  name: 'hive-router',
  version: '0.2.14',
  source: 'crates.io',
  profile: 'release, frame pointers',
  binary: '/cache/hive_router',
  sha256: 'ab',
  licence: 'MIT',
};
const goldens = { expect: 'goldens.json' };

describe('what an instruction count measured', () => {
  it("speaks of V8's tiers for Node gateways", () => {
    const statement = instructionMeasure(design, goldens, epochs(true));
    expect(statement.measured).toContain("V8's baseline tiers (--no-opt --max-lazy)");
    expect(statement.cannotSee.join(' ')).toContain('TurboFan');
    expect(statement.notes).toEqual([]);
  });

  it('has no V8, JIT or GC words for two native gateways, and names their builds', () => {
    const native = buildsBySide({
      config: { baseline: 'hive-router', candidate: 'cmd:./target/release/router' },
      environment: { gatewayBuilds: { 'baseline:hive-router': build, 'candidate:cmd:./target/release/router': { ...build, version: 'PR' } } },
    });
    const statement = instructionMeasure(design, goldens, epochs(false), undefined, native, 'allocator calls');
    const text = [statement.measured, ...statement.cannotSee, ...statement.notes].join(' ');
    expect(text).not.toMatch(/V8|TurboFan|JIT|JavaScript|baseline tier/);
    expect(text).toContain('one thread at a time');
    expect(statement.notes).toEqual([
      'the baseline is a native gateway (hive-router 0.2.14, release, frame pointers): counted as built, with nothing added to its process',
      'the candidate is a native gateway (hive-router PR, release, frame pointers): counted as built, with nothing added to its process',
      expect.stringMatching(/^a native gateway's allocations per request are the calls into its allocator .*: not bytes, not frees/),
    ]);
    // Without an allocation row, nothing is said of allocations.
    expect(instructionMeasure(design, goldens, epochs(false), undefined, native).notes.join(' ')).not.toMatch(/allocat/);
  });

  it('says so of a side that is not native and that the preload did not reach', () => {
    const statement = instructionMeasure(design, goldens, epochs(false));
    expect(statement.notes).toHaveLength(2);
    expect(statement.notes[0]).toMatch(/^the baseline is not a Node process that gwprof's preload reached/);
  });
});
