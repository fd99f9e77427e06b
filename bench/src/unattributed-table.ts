#!/usr/bin/env node
// How much of a sweep's sampled CPU no rule could place (backs "What stays unattributed" in
// docs/cpu-buckets.md): per step, `ticks` split into the event loop's own functions (frames a ticks
// rule matches) and code that only inherited ticks from such a frame, then `unplaced` and `other`,
// and the functions that hold the most of what is unattributed. Reads the run folders' profiles with
// the built-in rules; drives no load.
//
//   node bench/dist/unattributed-table.js profiles/<run-id> [profiles/<run-id> …]
import path from 'node:path';
import { DEFAULT_BUCKET_RULES, UNATTRIBUTED_BUCKETS, attributeNodes, readCpuProfile, selfWeights, type CpuProfile } from '@gwprof/analysis';
import { loadLevel, readRunResult } from '@gwprof/results';

const pct = (x: number): string => (x * 100).toFixed(1);

interface Split {
  ticksMachinery: number;
  ticksInherited: number;
  byBucket: Map<string, number>;
  byFunction: Map<string, number>;
  total: number;
}

/** Self time per bucket, with ticks split by whether the frame itself is the event loop's. */
function splitProfile(profile: CpuProfile): Split {
  const attribution = attributeNodes(profile, DEFAULT_BUCKET_RULES);
  const { selfUs } = selfWeights(profile);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const split: Split = { ticksMachinery: 0, ticksInherited: 0, byBucket: new Map(), byFunction: new Map(), total: 0 };
  for (const [id, us] of selfUs) {
    const { bucket, ownRule } = attribution.get(id)!;
    split.total += us;
    split.byBucket.set(bucket, (split.byBucket.get(bucket) ?? 0) + us);
    const machinery = bucket === 'ticks' && ownRule !== undefined && DEFAULT_BUCKET_RULES[ownRule]!.bucket === 'ticks';
    if (bucket === 'ticks') split[machinery ? 'ticksMachinery' : 'ticksInherited'] += us;
    if (UNATTRIBUTED_BUCKETS.includes(bucket) || (bucket === 'ticks' && !machinery)) {
      const frame = byId.get(id)!.callFrame;
      const key = `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\//, '') || '(native)'}`;
      split.byFunction.set(key, (split.byFunction.get(key) ?? 0) + us);
    }
  }
  return split;
}

console.log(
  '| gateway | level | samples | ticks: event loop % | ticks: other code % | unplaced % | other % | **unattributed %** | largest unattributed functions (% of all samples) |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
for (const runDir of process.argv.slice(2)) {
  const run = readRunResult(runDir);
  for (const step of run.steps) {
    if (!step.profile) continue;
    const profile = await readCpuProfile(path.join(runDir, step.profile.cpuprofile));
    const s = splitProfile(profile);
    const share = (us: number) => us / s.total;
    const unattributed = UNATTRIBUTED_BUCKETS.reduce((sum, b) => sum + (s.byBucket.get(b) ?? 0), 0) + s.ticksInherited;
    const largest = [...s.byFunction]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([key, us]) => `${key} ${pct(share(us))}`)
      .join('; ');
    const cells = [
      run.config.gateway,
      loadLevel(step.load),
      profile.samples?.length ?? 0,
      pct(share(s.ticksMachinery)),
      pct(share(s.ticksInherited)),
      pct(share(s.byBucket.get('unplaced') ?? 0)),
      pct(share(s.byBucket.get('other') ?? 0)),
      `**${pct(share(unattributed))}**`,
      largest,
    ];
    console.log(`| ${cells.join(' | ')} |`);
  }
}
