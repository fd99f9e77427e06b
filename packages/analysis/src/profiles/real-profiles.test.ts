/**
 * The bucket rules against real gateway profiles (fixtures/profiles/README.md says where each
 * comes from): trimmed windows of `gwprof sweep` steps at c=10, and the GC timelines of one Mesh
 * workload profiled at 1, 2 and 4 ms.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeProfile, attributeNodes } from './buckets.js';
import { parseCpuProfile, sampleDurationsUs, type CpuProfile, type CpuProfileCallFrame } from './cpuprofile.js';
import { explainFrames } from './explain.js';
import { DEFAULT_BUCKET_RULES } from './rules.js';

function fixture(name: string): CpuProfile {
  const url = new URL(`../../fixtures/profiles/${name}.cpuprofile`, import.meta.url);
  return parseCpuProfile(readFileSync(url, 'utf8'), name);
}

const gateways = ['mesh', 'hive', 'apollo'] as const;
const profiles = Object.fromEntries(gateways.map((name) => [name, fixture(`${name}-c10`)])) as Record<(typeof gateways)[number], CpuProfile>;
const atC300 = Object.fromEntries(gateways.map((name) => [name, fixture(`${name}-c300`)])) as Record<(typeof gateways)[number], CpuProfile>;

/** The event loop's runners: what they run was queued by code the stack does not show, so it is not "under" the frames above them. */
const isQueueRunner = (frame: CpuProfileCallFrame) =>
  /^(?:processTicksAndRejections|runMicrotasks|runNextTicks|processPromiseRejections|processTimers|listOnTimeout|processImmediate)$/.test(frame.functionName);

/** ms per bucket of the samples whose stack holds a selected frame with no event-loop runner between it and the leaf. */
function bucketsOfSamplesUnder(profile: CpuProfile, select: (frame: CpuProfileCallFrame) => boolean): Record<string, number> {
  const attribution = attributeNodes(profile, DEFAULT_BUCKET_RULES);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const under = new Map<number, boolean>();
  const isUnder = (id: number): boolean => {
    const path: number[] = [];
    let found = false;
    for (let node: number | undefined = id; node !== undefined; node = parent.get(node)) {
      if (under.has(node)) {
        found = under.get(node)!;
        break;
      }
      path.push(node);
      const frame = byId.get(node)!.callFrame;
      if (select(frame)) {
        found = true;
        break;
      }
      if (isQueueRunner(frame)) break;
    }
    for (const node of path) under.set(node, found);
    return found;
  };
  const durations = sampleDurationsUs(profile);
  const ms: Record<string, number> = {};
  profile.samples!.forEach((id, i) => {
    if (!isUnder(id)) return;
    const bucket = attribution.get(id)!.bucket;
    ms[bucket] = (ms[bucket] ?? 0) + durations[i]! / 1000;
  });
  return ms;
}

const httpClientUrl =
  /^node:_http_(?:client|agent)$|^node:internal\/deps\/undici\/|[/\\]node_modules[/\\](?:agent-base|minipass-fetch|make-fetch-happen|@npmcli[/\\]agent|undici|node-fetch|@whatwg-node[/\\]fetch)[/\\]|[/\\]@whatwg-node[/\\]node-fetch[/\\](?:[^/\\]+[/\\])*fetch(?:NodeHttp|Curl)?\.[cm]?js$/;
const isHttpClient = (frame: CpuProfileCallFrame) => httpClientUrl.test(frame.url);

// The planner proper: Apollo's query planner, and Mesh/Hive building delegation plans and requests.
const planningFunctions =
  /^(?:createRequest|prepareGatewayDocument|finalizeGatewayRequest|finalizeGatewayDocument|finalizeSelectionSet|filterSelectionSet|wrapConcreteTypes|delegationPlanBuilder|calculateDelegationStage|getDelegationContext)$/;
const isPlanning = (frame: CpuProfileCallFrame) =>
  /[/\\]@apollo[/\\]query-planner[/\\]/.test(frame.url) ||
  (/[/\\]@graphql-tools[/\\](?:delegate|stitch)[/\\]/.test(frame.url) && planningFunctions.test(frame.functionName));

describe.each(gateways)('real %s profile (c=10)', (gateway) => {
  const profile = profiles[gateway];
  const analysis = analyzeProfile(profile);

  it('has enough samples to mean something', () => {
    expect(analysis.samples).toBeGreaterThanOrEqual(2000);
    expect(analysis.busyMs).toBeGreaterThan(2000);
  });

  it('leaves at most 5% in other', () => {
    expect(analysis.buckets.other).toBeLessThanOrEqual(0.05);
  });

  it('has no code of its own outside node_modules: the built-in gateways run their packages alone', () => {
    expect(analysis.buckets.ownCode).toBe(0);
  });

  it('puts every sample under an HTTP-client frame in fetch', () => {
    const ms = bucketsOfSamplesUnder(profile, isHttpClient);
    expect(ms.fetch ?? 0).toBeGreaterThan(50);
    expect(Object.keys(ms)).toEqual(['fetch']);
  });
});

/**
 * Shares of the profile's time no rule places: `unplaced`, `other`, and time in `ticks` whose own
 * frame is not one a ticks rule names (code that only inherited ticks from the event loop).
 */
function unattributedShares(profile: CpuProfile): { unplaced: number; other: number; inheritedTicks: number; ticks: number } {
  const attribution = attributeNodes(profile, DEFAULT_BUCKET_RULES);
  const durations = sampleDurationsUs(profile);
  const total = durations.reduce((sum, us) => sum + us, 0);
  const shares = { unplaced: 0, other: 0, inheritedTicks: 0, ticks: 0 };
  profile.samples!.forEach((id, i) => {
    const { bucket, ownRule } = attribution.get(id)!;
    const share = durations[i]! / total;
    if (bucket === 'unplaced' || bucket === 'other') shares[bucket] += share;
    if (bucket !== 'ticks') return;
    shares.ticks += share;
    if (ownRule === undefined || DEFAULT_BUCKET_RULES[ownRule]!.bucket !== 'ticks') shares.inheritedTicks += share;
  });
  return shares;
}

describe.each(
  gateways.flatMap(
    (gateway) =>
      [
        [gateway, 'c10'],
        [gateway, 'c300'],
      ] as const,
  ),
)('real %s profile (%s): what stays unattributed', (gateway, level) => {
  const profile = level === 'c10' ? profiles[gateway] : atC300[gateway];
  const shares = unattributedShares(profile);

  it('leaves at most 5% unattributed: other, unplaced and code inside ticks that is not the event loop', () => {
    expect(shares.other + shares.unplaced + shares.inheritedTicks).toBeLessThanOrEqual(0.05);
  });

  it("keeps ticks to the event loop's own functions, and has some", () => {
    expect(shares.ticks).toBeGreaterThan(0.01);
    expect(shares.inheritedTicks).toBeLessThan(0.002);
    // Native frames (runMicrotasks, getLibuvNow) and Node's queue, timer and hook internals only.
    const ticksFiles = analyzeProfile(profile, { topPerBucket: 100 }).bucketFunctions.ticks!.map((f) => f.url);
    for (const url of ticksFiles)
      expect(url).toMatch(
        /^(?:|node:internal\/(?:process\/task_queues|process\/promises|async_hooks|promise_hooks|timers|priority_queue|linkedlist)|node:timers)$/,
      );
  });
});

// Apollo's planner runs only on a plan-cache miss, so its steady-state window has no planning to
// check (see the Apollo test below); Mesh and Hive build delegation plans on every request.
describe.each(['mesh', 'hive'] as const)('real %s profile (c=10): planning', (gateway) => {
  it('puts every sample under the planner proper in plan', () => {
    const ms = bucketsOfSamplesUnder(profiles[gateway], isPlanning);
    expect(Object.keys(ms)).toEqual(['plan']);
    expect(ms.plan).toBeGreaterThan(100);
  });
});

describe('real profiles: what each gateway spends', () => {
  it('shows Apollo Gateway’s HTTP client as fetch, well above 10%, and no query planning (its plans are cached)', () => {
    const analysis = analyzeProfile(profiles.apollo);
    expect(analysis.buckets.fetch).toBeGreaterThan(0.1);
    expect(analysis.buckets.plan).toBeLessThan(0.05);
    // Under @apollo/query-planner: one sample of 3,000 (an export getter reached from execution),
    // in plan like the rest of the package. A plan-cache miss would put the whole planner run there.
    const ms = bucketsOfSamplesUnder(profiles.apollo, isPlanning);
    expect(Object.keys(ms)).toEqual(['plan']);
    expect(ms.plan).toBeLessThan(5);
  });

  it('splits Mesh and Hive delegation into plan (requests) and execute (merging results)', () => {
    for (const gateway of ['mesh', 'hive'] as const) {
      const { bucketFunctions, buckets } = analyzeProfile(profiles[gateway], { topPerBucket: 40 });
      expect(buckets.plan).toBeGreaterThan(0.1);
      expect(buckets.execute).toBeGreaterThan(0.03);
      const names = (bucket: string) => new Set(bucketFunctions[bucket]!.map((fn) => fn.functionName));
      expect(names('execute')).toContain('resolveExternalValue');
      expect(names('plan')).toContain('createRequest');
    }
  });

  it('explains agent-base’s isSecureEndpoint by its own rule, and visit by its callers', () => {
    const [secure] = explainFrames(profiles.apollo, { pattern: /^isSecureEndpoint$/ });
    expect(secure!.ownRule?.bucket).toBe('fetch');
    expect(secure!.outcomes.map((o) => [o.bucket, o.how])).toEqual([['fetch', 'own rule']]);

    const [visit] = explainFrames(profiles.mesh, { pattern: /^visit$/ }).filter((e) => /graphql[/\\]language[/\\]visitor/.test(e.frame.url));
    expect(visit!.ownRule).toBeUndefined();
    expect(new Set(visit!.outcomes.map((o) => o.how))).toEqual(new Set(['ancestor']));
    expect(new Set(visit!.outcomes.map((o) => o.bucket))).toEqual(new Set(['plan', 'fetch']));
  });
});

describe('real profile of a gateway with a plugin of its own (the sample gateway, pr, c=10)', () => {
  // Apollo Gateway on Apollo Server with an audit plugin whose willSendResponse prints each operation
  // with graphql's printer and copies, walks (countFields) and hashes each response.
  const profile = fixture('sample-gateway-pr-c10');
  const isOwnFile = (frame: { url: string }) => /examples\/sample-gateway\/pr\/server\.js$/.test(frame.url);
  const { buckets, bucketFunctions } = analyzeProfile(profile, { topPerBucket: 100 });

  it("puts the plugin and what it calls that no rule claims in ownCode, not the server framework's httpParser", () => {
    const ms = bucketsOfSamplesUnder(profile, (frame) => isOwnFile(frame) && frame.functionName === 'willSendResponse');
    expect(Object.keys(ms)).toEqual(['ownCode']);
    expect(ms.ownCode).toBeGreaterThan(100);
    const own = new Set(bucketFunctions.ownCode!.map((fn) => fn.functionName));
    for (const name of ['willSendResponse', 'countFields', 'print', 'visit']) expect(own).toContain(name);
    // Apollo Server prints operations too (its request pipeline): those stay httpParser.
    expect(bucketFunctions.httpParser!.filter(isOwnFile)).toEqual([]);
  });

  it("leaves the gateway's packages where they were: fetch first, the framework's own frames in httpParser", () => {
    expect(buckets.fetch).toBeGreaterThan(0.4);
    expect(buckets.ownCode).toBeGreaterThan(0.03);
    expect(buckets.httpParser).toBeGreaterThan(0.03);
    expect(bucketFunctions.ownCode!.every((fn) => isOwnFile(fn) || !/[/\\]node_modules[/\\]@apollo[/\\]/.test(fn.url))).toBe(true);
  });
});

describe('real profiles: gc against the sampling interval', () => {
  // The same Mesh workload, two captures per interval, reduced to their GC timelines.
  const runs = [
    [1000, 'mesh-gc-iv1000-12535'],
    [1000, 'mesh-gc-iv1000-2332'],
    [2000, 'mesh-gc-iv2000-30208'],
    [2000, 'mesh-gc-iv2000-4616'],
    [4000, 'mesh-gc-iv4000-19415'],
    [4000, 'mesh-gc-iv4000-31401'],
  ] as const;
  const shares = runs.map(([intervalUs, name]) => {
    const analysis = analyzeProfile(fixture(name));
    return { intervalUs, byTime: analysis.buckets.gc!, byCount: analysis.counts.gc! / analysis.samples };
  });
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  const at = (intervalUs: number, pick: (s: (typeof shares)[number]) => number) => mean(shares.filter((s) => s.intervalUs === intervalUs).map(pick));

  it('gives the same gc share at 1, 2 and 4 ms when samples are weighed by time', () => {
    const byTime = shares.map((s) => s.byTime);
    expect(Math.max(...byTime) - Math.min(...byTime)).toBeLessThan(0.03);
    expect(Math.abs(at(4000, (s) => s.byTime) - at(1000, (s) => s.byTime))).toBeLessThan(0.015);
  });

  it('would grow the gc share with the interval if samples were counted', () => {
    // Why counts fail: V8's sampler is late in GC pauses (drops ticks at 1 ms, takes them at the
    // pause's end at 4 ms), so a GC sample stands for more time than the others.
    expect(at(4000, (s) => s.byCount) - at(1000, (s) => s.byCount)).toBeGreaterThan(0.05);
  });
});
