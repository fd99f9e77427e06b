import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { mergeStacks, parseCpuProfile, sampleDurationsUs, type CpuProfile, type CpuProfileCallFrame, type CpuProfileNode } from '@gwprof/analysis';
import { PPROF_REQUESTS_PER_VALUE, encodePprofProfile, pprofDiffCommand, type PprofSide } from './pprof-profile.js';
import { decodePprofProfile, type DecodedPprof } from '../test-fixtures/decode-pprof.js';

type Frame = Pick<CpuProfileCallFrame, 'functionName' | 'url' | 'lineNumber'>;
const frame = (functionName: string, url = '', lineNumber = -1): Frame => ({ functionName, url, lineNumber });

const handler = frame('handle', 'file:///srv/gw/server.js', 9);
const execute = frame('executeFields', 'file:///srv/gw/node_modules/graphql/execution/execute.js', 99);
const validate = frame('validate', 'file:///srv/gw/node_modules/graphql/validation/validate.js', 19);
const anonymous = frame('', 'file:///srv/gw/node_modules/@apollo/query-planner/index.js', 41);
const burn = frame('burn', '/srv/gw/burn.js', 2);
const gc = frame('(garbage collector)');
const idle = frame('(idle)');

/**
 * A V8-shaped profile (under `(root)`, shared prefixes share nodes) whose samples are each worth
 * exactly 1 ms: 1 ms apart, and the profile ends 1 ms after the last one.
 */
function profileOf(stacks: Array<{ stack: Frame[]; count: number }>, firstId = 1): CpuProfile {
  const nodes: CpuProfileNode[] = [];
  const add = (f: Frame): CpuProfileNode => {
    const created = { id: firstId + nodes.length, callFrame: { ...f, columnNumber: 0, scriptId: '0' }, children: [] };
    nodes.push(created);
    return created;
  };
  const root = add(frame('(root)'));
  const samples: number[] = [];
  for (const { stack, count } of stacks) {
    let parent = root;
    for (const f of stack) {
      const known = nodes.find((n) => parent.children!.includes(n.id) && n.callFrame.functionName === f.functionName && n.callFrame.url === f.url);
      const child = known ?? add(f);
      if (!known) parent.children!.push(child.id);
      parent = child;
    }
    for (let i = 0; i < count; i++) samples.push(parent.id);
  }
  return { nodes, startTime: 0, endTime: (samples.length + 1) * 1000, samples, timeDeltas: samples.map(() => 1000) };
}

/** Decoded samples as "root;…;leaf" → value, for exact comparison. */
function byStack(decoded: DecodedPprof): Record<string, number> {
  const out: Record<string, number> = {};
  for (const sample of decoded.samples) {
    const key = sample.stack.map((f) => f.name).join(';');
    out[key] = (out[key] ?? 0) + sample.value;
  }
  return out;
}

/** A side of these profiles, their stacks merged as publish merges them. */
const side = (profiles: CpuProfile[], okRequests: number): PprofSide => ({ merged: mergeStacks(profiles), profiles: profiles.length, okRequests });

/** ms per request → the profile's value unit (ns per 1,000 requests). */
const value = (msPerRequest: number) => msPerRequest * 1e6 * PPROF_REQUESTS_PER_VALUE;

const baseStacks = [
  { stack: [handler, execute], count: 40 },
  { stack: [handler, validate], count: 20 },
  { stack: [gc], count: 10 },
  { stack: [idle], count: 30 },
];

describe('pprof profile of a side', () => {
  it('holds every non-idle stack at its CPU per request', () => {
    const decoded = decodePprofProfile(encodePprofProfile(side([profileOf(baseStacks)], 10)));
    expect(decoded.sampleTypes).toEqual([{ type: 'cpu', unit: 'nanoseconds' }]);
    expect(byStack(decoded)).toEqual({
      'handle;executeFields': value(4),
      'handle;validate': value(2),
      '(garbage collector)': value(1),
    });
    expect(decoded.total).toBe(value(7));
    expect(decoded.comments[0]).toMatch(/nanoseconds per 1,000 successful requests/);
    expect(decoded.comments[1]).toContain('CPU per request: 7.000 ms');
  });

  it('merges identical stacks of several profiles and divides by all their requests', () => {
    const first = profileOf(baseStacks);
    const second = profileOf([{ stack: [handler, execute], count: 60 }], 100);
    const decoded = decodePprofProfile(encodePprofProfile(side([first, second], 20)));
    expect(byStack(decoded)).toEqual({
      'handle;executeFields': value(5),
      'handle;validate': value(1),
      '(garbage collector)': value(0.5),
    });
    expect(decoded.samples.filter((s) => s.stack.at(-1)!.name === 'executeFields')).toHaveLength(1);
  });

  it('differs from the baseline by exactly the added function, as pprof -diff_base subtracts', () => {
    const baseline = decodePprofProfile(encodePprofProfile(side([profileOf(baseStacks)], 10)));
    const slower = profileOf([...baseStacks, { stack: [handler, burn], count: 20 }]);
    // Twice the requests and twice the work everywhere else: only burn's cost per request is new.
    const doubled = profileOf([...baseStacks.map((s) => ({ ...s, count: s.count * 2 })), { stack: [handler, burn], count: 40 }]);
    for (const candidate of [side([slower], 10), side([doubled], 20)]) {
      const after = byStack(decodePprofProfile(encodePprofProfile(candidate)));
      const before = byStack(baseline);
      const delta = Object.fromEntries(
        [...new Set([...Object.keys(before), ...Object.keys(after)])].map((key) => [key, (after[key] ?? 0) - (before[key] ?? 0)]).filter(([, d]) => d !== 0),
      );
      expect(delta).toEqual({ 'handle;burn': value(2) });
    }
  });

  it('names files and 1-based lines, anonymous functions by place, and labels each sample with its bucket', () => {
    const profile = profileOf([
      { stack: [handler, anonymous], count: 3 },
      { stack: [handler, validate], count: 1 },
    ]);
    const decoded = decodePprofProfile(encodePprofProfile(side([profile], 1)));
    const leafOf = (name: RegExp) => decoded.samples.find((s) => name.test(s.stack.at(-1)!.name))!;
    expect(leafOf(/anonymous/).stack).toEqual([
      { name: 'handle', file: '/srv/gw/server.js', line: 10 },
      { name: '(anonymous @apollo/query-planner/index.js:42)', file: '/srv/gw/node_modules/@apollo/query-planner/index.js', line: 42 },
    ]);
    expect(leafOf(/anonymous/).labels).toEqual({ bucket: 'plan' });
    expect(leafOf(/^validate$/).labels).toEqual({ bucket: 'validate' });
  });

  it('can store ns per request instead', () => {
    const decoded = decodePprofProfile(encodePprofProfile(side([profileOf(baseStacks)], 10), { requestsPerValue: 1 }));
    expect(decoded.total).toBe(7e6);
    expect(decoded.comments[0]).toMatch(/per 1 successful requests \(pprof's figures are per request\)/);
  });

  it('refuses a side without successful requests', () => {
    expect(() => encodePprofProfile(side([profileOf(baseStacks)], 0))).toThrow(/okRequests = 0/);
  });

  it('encodes gzipped pprof and says how to diff the two sides', () => {
    const bytes = encodePprofProfile(side([profileOf(baseStacks)], 10), { comments: ['side: baseline'] });
    expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
    expect(decodePprofProfile(bytes).comments).toContain('side: baseline');
    expect(decodePprofProfile(gunzipSync(bytes)).total).toBe(value(7));
    expect(pprofDiffCommand({ baseline: 'c20-baseline.pb.gz', candidate: 'c20 candidate.pb.gz' })).toBe(
      "go tool pprof -top -diff_base=c20-baseline.pb.gz 'c20 candidate.pb.gz'",
    );
  });

  describe('on a real capture (legacy Mesh, varied user-reviews, c=10: 1,266 ok requests)', () => {
    const url = new URL('../../../analysis/src/testing/mesh-varied-step-10.cpuprofile.gz', import.meta.url);
    const profile = parseCpuProfile(gunzipSync(readFileSync(url)).toString('utf8'), url.pathname);
    const okRequests = 1266;
    const decoded = decodePprofProfile(encodePprofProfile(side([profile], okRequests)));

    /** Each sample's stack straight from the V8 tree, names root first, with its µs. */
    function sourceStacks(): Map<string, number> {
      const byId = new Map(profile.nodes.map((node) => [node.id, node]));
      const parent = new Map(profile.nodes.flatMap((node) => (node.children ?? []).map((child) => [child, node.id] as const)));
      const durations = sampleDurationsUs(profile);
      const stacks = new Map<string, number>();
      profile.samples!.forEach((leaf, i) => {
        const names: string[] = [];
        for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id)) names.unshift(byId.get(id)!.callFrame.functionName);
        if (names.at(-1) === '(idle)') return;
        const key = names
          .filter((name) => name !== '(root)')
          .map((name) => name || '(anonymous)')
          .join(';');
        stacks.set(key, (stacks.get(key) ?? 0) + durations[i]!);
      });
      return stacks;
    }

    it('adds up to the non-idle CPU per request', () => {
      const busyUs = [...sourceStacks().values()].reduce((a, b) => a + b, 0);
      const expected = (busyUs * 1000 * PPROF_REQUESTS_PER_VALUE) / okRequests;
      expect(decoded.samples.length).toBeGreaterThan(500);
      // Each stored stack is rounded to a whole unit once.
      expect(Math.abs(decoded.total - expected)).toBeLessThanOrEqual(decoded.samples.length * 0.5);
    });

    it('keeps every stack of the source profile, frame by frame', () => {
      const decodedStacks = new Map<string, { value: number; count: number }>();
      for (const sample of decoded.samples) {
        const key = sample.stack.map((f) => f.name.replace(/^\(anonymous .*\)$/, '(anonymous)')).join(';');
        const entry = decodedStacks.get(key) ?? { value: 0, count: 0 };
        decodedStacks.set(key, { value: entry.value + sample.value, count: entry.count + 1 });
      }
      const source = sourceStacks();
      expect([...decodedStacks.keys()].sort()).toEqual([...source.keys()].sort());
      for (const [key, us] of source) {
        const stored = decodedStacks.get(key)!;
        expect(Math.abs(stored.value - (us * 1000 * PPROF_REQUESTS_PER_VALUE) / okRequests)).toBeLessThanOrEqual(stored.count * 0.5);
      }
    });
  });
});
