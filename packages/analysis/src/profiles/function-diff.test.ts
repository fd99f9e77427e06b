import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseCpuProfile, sampleDurationsUs, type CpuProfile } from './cpuprofile.js';
import { diffFunctions, type FunctionDelta, type SideProfiles } from './function-diff.js';
import { frame, profileOf, type Frame } from '../testing/profiles.js';

const graphqlFile = (file: string) => `file:///srv/gw/node_modules/graphql/${file}`;
const root = frame('', 'node:internal/main/run_main_module');
const handler = frame('handle', '/srv/gw/server.js', 10);
const execute = frame('executeFields', graphqlFile('execution/execute.js'), 100);
const validate = frame('validate', graphqlFile('validation/validate.js'), 20);
const visit = frame('visit', graphqlFile('language/visitor.js'), 5);
const burn = frame('burn', '/srv/gw/burn.js', 3);
const idle = frame('(idle)');
const gc = frame('(garbage collector)');

/**
 * `profileOf` with every sample worth exactly 1 ms: samples 1 ms apart and the profile ending 1 ms
 * after the last one, so a sample weighs 1 ms whether it is read as lasting until the next sample
 * or as covering the time since the previous one.
 */
function ms(stacks: Array<{ stack: Frame[]; count: number }>): CpuProfile {
  const profile = profileOf(stacks);
  return { ...profile, endTime: (profile.samples!.length + 1) * 1000 };
}

function side(okRequests: number, ...profiles: CpuProfile[]): SideProfiles {
  return { profiles, okRequests };
}

function named(functions: FunctionDelta[], name: string): FunctionDelta {
  const found = functions.find((fn) => fn.functionName === name);
  if (!found) throw new Error(`no function ${name} in ${functions.map((fn) => fn.functionName).join(', ')}`);
  return found;
}

const baseStacks = [
  { stack: [root, handler, execute], count: 40 },
  { stack: [root, handler, validate, visit], count: 20 },
  { stack: [gc], count: 10 },
  { stack: [idle], count: 30 },
];

describe('diffFunctions', () => {
  it('lines up the same function of two installs or checkouts, and keeps apart functions that differ', () => {
    // The base branch checked out in baseline/ with npm, the PR in candidate/ with pnpm.
    const at = (root: string) => ({
      handler: frame('handle', `file:///ws/${root}/dist/server.js`, 10),
      request: frame(
        'Request',
        `file:///ws/${root}/node_modules/${root === 'candidate' ? '.pnpm/minipass-fetch@3.0.5/node_modules/' : ''}minipass-fetch/lib/request.js`,
        28,
      ),
    });
    const stacks = (f: ReturnType<typeof at>, extra: number) => [
      { stack: [root, f.handler, f.request], count: 30 + extra },
      { stack: [root, f.handler], count: 10 },
    ];
    const diff = diffFunctions(side(10, ms(stacks(at('baseline'), 0))), side(10, ms(stacks(at('candidate'), 20))));
    expect(diff.functions.filter((fn) => fn.functionName === 'Request')).toHaveLength(1);
    expect(named(diff.functions, 'Request').self).toEqual({ baseline: 3, candidate: 5, delta: 2 });
    expect(named(diff.functions, 'handle').self).toEqual({ baseline: 1, candidate: 1, delta: 0 });
    const elsewhere = frame('Request', 'file:///ws/candidate/node_modules/node-fetch/lib/request.js', 28);
    const apart = diffFunctions(side(10, ms(stacks(at('baseline'), 0))), side(10, ms([{ stack: [root, elsewhere], count: 30 }])));
    expect(apart.functions.filter((fn) => fn.functionName === 'Request')).toHaveLength(2);
  });

  it('puts a function added to the candidate first, at its exact cost per request', () => {
    const candidate = ms([...baseStacks, { stack: [root, handler, burn], count: 20 }]);
    const diff = diffFunctions(side(10, ms(baseStacks)), side(10, candidate));

    expect(diff.functions[0]).toMatchObject({
      functionName: 'burn',
      url: '/srv/gw/burn.js',
      line: 4,
      column: 1,
      bucket: 'ownCode',
      self: { baseline: 0, candidate: 2, delta: 2 },
      total: { baseline: 0, candidate: 2, delta: 2 },
    });
    for (const fn of diff.functions.slice(1)) expect(fn.self.delta).toBe(0);
    expect(named(diff.functions, 'executeFields').self).toEqual({ baseline: 4, candidate: 4, delta: 0 });
    expect(diff.baseline).toEqual({ okRequests: 10, profiles: 1, cpuMs: 70, cpuMsPerRequest: 7 });
    expect(diff.candidate.cpuMsPerRequest).toBe(9);
    expect(diff.buckets).toEqual([
      { bucket: 'gc', baseline: 1, candidate: 1, delta: 0 },
      { bucket: 'validate', baseline: 2, candidate: 2, delta: 0 },
      { bucket: 'execute', baseline: 4, candidate: 4, delta: 0 },
      { bucket: 'ownCode', baseline: 0, candidate: 2, delta: 2 },
    ]);
  });

  it('reports no change when only idle and the request count moved (shares would say otherwise)', () => {
    // Twice the requests, twice the work, and far more idle: execute's share of samples drops
    // from 40% to 16%, but its cost per request is the same.
    const candidate = ms([
      { stack: [root, handler, execute], count: 80 },
      { stack: [root, handler, validate, visit], count: 40 },
      { stack: [gc], count: 20 },
      { stack: [idle], count: 360 },
    ]);
    const diff = diffFunctions(side(10, ms(baseStacks)), side(20, candidate));
    expect(diff.functions.map((fn) => fn.self.delta)).toEqual([0, 0, 0]);
    expect(diff.functions.map((fn) => fn.functionName)).not.toContain('(idle)');
    expect(diff.buckets.map((b) => b.bucket)).not.toContain('idle');
    expect(diff.candidate.cpuMsPerRequest).toBe(7);
  });

  it('merges a function across callers and profiles, and keeps other lines of the same name apart', () => {
    const otherVisit = frame('visit', graphqlFile('language/visitor.js'), 50);
    const first = ms([
      { stack: [root, handler, visit], count: 6 },
      { stack: [root, handler, validate, visit], count: 4 },
    ]);
    const second = ms([
      { stack: [root, visit], count: 10 },
      { stack: [root, otherVisit], count: 5 },
    ]);
    const diff = diffFunctions(side(4, first, second), side(4, first, second), { top: 10 });
    const visits = diff.functions.filter((fn) => fn.functionName === 'visit');
    expect(visits.map((fn) => [fn.line, fn.self.baseline])).toEqual([
      [6, 5],
      [51, 1.25],
    ]);
    expect(diff.baseline).toMatchObject({ profiles: 2, cpuMs: 25 });
  });

  it('gives a shared helper the bucket where most of its self time went', () => {
    const profile = ms([
      { stack: [root, handler, validate, visit], count: 30 },
      { stack: [root, handler, execute, visit], count: 10 },
    ]);
    const diff = diffFunctions(side(1, profile), side(1, profile));
    expect(named(diff.functions, 'visit').bucket).toBe('validate');
  });

  it('counts inclusive time once per sample under recursion', () => {
    const profile = ms([
      { stack: [root, handler, execute, handler, execute], count: 10 },
      { stack: [root, handler], count: 5 },
    ]);
    const diff = diffFunctions(side(5, profile), side(5, profile));
    expect(named(diff.functions, 'handle').total.baseline).toBe(3);
    expect(named(diff.functions, 'handle').self.baseline).toBe(1);
    expect(named(diff.functions, 'executeFields').total.baseline).toBe(2);
  });

  it('ranks by absolute change, improvements included, and cuts at top', () => {
    const baseline = ms([
      { stack: [root, execute], count: 50 },
      { stack: [root, validate], count: 10 },
      { stack: [root, visit], count: 10 },
    ]);
    const candidate = ms([
      { stack: [root, execute], count: 20 },
      { stack: [root, validate], count: 30 },
      { stack: [root, visit], count: 11 },
    ]);
    const diff = diffFunctions(side(10, baseline), side(10, candidate), { top: 2 });
    expect(diff.functions.map((fn) => [fn.functionName, fn.self.delta])).toEqual([
      ['executeFields', -3],
      ['validate', 2],
    ]);
    expect(diff.functionCount).toBe(3);
  });

  it('reads profiles that have hit counts instead of samples', () => {
    const { samples: _s, timeDeltas: _t, ...rest } = ms([{ stack: [root, execute], count: 1 }]);
    // 30 ms span shared by 3 hits of executeFields.
    const nodes = rest.nodes.map((n) => ({ ...n, hitCount: n.callFrame.functionName === 'executeFields' ? 3 : 0 }));
    const hits: CpuProfile = { ...rest, startTime: 0, endTime: 30_000, nodes };
    const diff = diffFunctions(side(3, hits), side(3, hits));
    expect(named(diff.functions, 'executeFields').self.baseline).toBe(10);
  });

  it('refuses a side without successful requests', () => {
    expect(() => diffFunctions(side(0, ms(baseStacks)), side(10, ms(baseStacks)))).toThrow(/baseline.*okRequests = 0/);
  });

  describe('on a real capture (legacy Mesh, varied user-reviews, c=10: 1,266 ok requests)', () => {
    const url = new URL('../testing/mesh-varied-step-10.cpuprofile.gz', import.meta.url);
    const profile = parseCpuProfile(gunzipSync(readFileSync(url)).toString('utf8'), url.pathname);
    const okRequests = 1266;

    it('adds every function and every bucket up to the non-idle CPU per request', () => {
      const byId = new Map(profile.nodes.map((node) => [node.id, node]));
      const durations = sampleDurationsUs(profile);
      const busyUs = profile.samples!.reduce((sum, id, i) => (byId.get(id)!.callFrame.functionName === '(idle)' ? sum : sum + durations[i]!), 0);
      const expected = busyUs / 1000 / okRequests;
      expect(expected).toBeGreaterThan(1);

      const diff = diffFunctions(side(okRequests, profile), side(okRequests * 2, profile), { top: Infinity });
      expect(diff.functions.length).toBe(diff.functionCount);
      expect(diff.functionCount).toBeGreaterThan(100);
      const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
      expect(diff.baseline.cpuMsPerRequest).toBeCloseTo(expected, 9);
      expect(sum(diff.functions.map((fn) => fn.self.baseline))).toBeCloseTo(expected, 6);
      expect(sum(diff.buckets.map((b) => b.baseline))).toBeCloseTo(expected, 6);
      // The same work over twice the requests: every figure halves.
      expect(sum(diff.functions.map((fn) => fn.self.candidate))).toBeCloseTo(expected / 2, 6);
      expect(sum(diff.functions.map((fn) => fn.self.delta))).toBeCloseTo(-expected / 2, 6);
      // No function costs more inclusive than self, and none more inclusive than the whole.
      for (const fn of diff.functions) {
        expect(fn.total.baseline).toBeGreaterThanOrEqual(fn.self.baseline - 1e-9);
        expect(fn.total.baseline).toBeLessThanOrEqual(expected + 1e-9);
      }
    });
  });
});
