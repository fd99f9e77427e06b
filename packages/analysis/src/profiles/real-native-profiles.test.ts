/**
 * The bucket rules against real native gateway profiles (fixtures/profiles/README.md says where each
 * comes from): perf's samples of Grafbase, Hive Router and Apollo Router in `gwprof sweep` steps at
 * c=10 and c=50 over the demo's varied stream, trimmed.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeProfile, attributeNodes } from './buckets.js';
import { parseCpuProfile, sampleDurationsUs, type CpuProfile, type CpuProfileCallFrame } from './cpuprofile.js';
import { explainFrames } from './explain.js';
import { DEFAULT_BUCKET_RULES } from './rules.js';

const gateways = ['grafbase', 'hive-router', 'apollo-router'] as const;
const levels = [10, 50] as const;
const cases = gateways.flatMap((gateway) => levels.map((level) => [gateway, level] as const));

function fixture(name: string): CpuProfile {
  const url = new URL(`../../fixtures/profiles/${name}.cpuprofile`, import.meta.url);
  return parseCpuProfile(readFileSync(url, 'utf8'), name);
}

/** ms per bucket of the samples whose stack holds a selected frame. */
function bucketsOfSamplesUnder(profile: CpuProfile, select: (frame: CpuProfileCallFrame) => boolean): Record<string, number> {
  const attribution = attributeNodes(profile, DEFAULT_BUCKET_RULES);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const durations = sampleDurationsUs(profile);
  const ms: Record<string, number> = {};
  profile.samples!.forEach((id, i) => {
    let under = false;
    for (let node: number | undefined = id; node !== undefined && !under; node = parent.get(node)) under = select(byId.get(node)!.callFrame);
    if (!under) return;
    const bucket = attribution.get(id)!.bucket;
    ms[bucket] = (ms[bucket] ?? 0) + durations[i]! / 1000;
  });
  return ms;
}

/** What the CPU did whoever asked: these buckets win under any stage. */
const generic = new Set(['kernel', 'allocator', 'memcpy', 'runtime', 'telemetry']);
const httpClient = /^(?:<(?:&(?:mut )?)?)?(?:reqwest::|hyper_util::client::legacy::|hyper::client::)/;

describe.each(cases)('real %s profile (c=%i)', (gateway, level) => {
  const profile = fixture(`${gateway}-c${level}`);
  const analysis = analyzeProfile(profile);
  const share = (bucket: string) => analysis.buckets[bucket] ?? 0;

  it('has enough samples to mean something', () => {
    expect(analysis.samples).toBeGreaterThanOrEqual(1000);
  });

  it('leaves at most 5% unattributed (other and unplaced)', () => {
    expect(share('other') + share('unplaced')).toBeLessThanOrEqual(0.05);
  });

  it("has none of V8's buckets or the JavaScript gateway's own code", () => {
    for (const bucket of ['gc', 'idle', 'program', 'ticks', 'ownCode', 'onconnection', 'pubsub']) expect([bucket, share(bucket)]).toEqual([bucket, 0]);
  });

  it('finds the work every gateway does: the subgraph client, the server, execution, the kernel, the allocator and the runtime', () => {
    expect(share('fetch')).toBeGreaterThan(0.1);
    expect(share('httpParser')).toBeGreaterThan(0.03);
    expect(share('execute') + share('serialize')).toBeGreaterThan(0.03);
    expect(share('kernel')).toBeGreaterThan(0.08);
    expect(share('allocator')).toBeGreaterThan(0.03);
    expect(share('runtime')).toBeGreaterThan(0.02);
  });

  it('puts every sample under an HTTP-client frame in fetch, unless the CPU was in the kernel, the allocator, a copy, the runtime or telemetry', () => {
    const ms = bucketsOfSamplesUnder(profile, (frame) => httpClient.test(frame.functionName));
    expect(ms.fetch ?? 0).toBeGreaterThan(20);
    expect(Object.keys(ms).filter((bucket) => bucket !== 'fetch' && !generic.has(bucket))).toEqual([]);
  });

  it('explains a kernel frame under the subgraph client by its own rule', () => {
    const explanations = explainFrames(profile, { pattern: /^tcp_sendmsg_locked$/ });
    expect(explanations.length).toBe(1);
    expect(explanations[0]!.outcomes.every((o) => o.bucket === 'kernel' && o.how === 'own rule')).toBe(true);
  });
});

describe('what sets the three apart', () => {
  const at = (gateway: (typeof gateways)[number]) => analyzeProfile(fixture(`${gateway}-c50`)).buckets;

  it("shows Apollo Router's tracing and metrics as its own bucket, a fifth of its CPU or more", () => {
    expect(at('apollo-router').telemetry).toBeGreaterThan(0.15);
    expect(at('grafbase').telemetry).toBeLessThan(0.05);
  });

  it('shows that the routers cache their plans: parse, validate and plan are small on a steady stream', () => {
    for (const gateway of gateways) {
      const buckets = at(gateway);
      expect((buckets.parse ?? 0) + (buckets.validate ?? 0) + (buckets.plan ?? 0)).toBeLessThan(0.05);
    }
  });
});
