#!/usr/bin/env node
// Reduces a dump left by callgrind-depth.mjs as the profile pair does (analysis's
// instructionProfileOfFile, frames named through the perf map), then prints the share of its
// instructions whose chain filled every kept caller place, the share placed by a guess (cut off
// before any frame that decides a bucket), the buckets, and the sample gateway's plugin functions.
//
//   node bench/results/buckets-own-code/reduce-dump.mjs /tmp/depth/v2 160
import { readFileSync, readdirSync } from 'node:fs';
import { DEFAULT_BUCKET_RULES, PerfMap, instructionBreakdown, instructionProfileOfFile } from '@gwprof/analysis';

const [dir, callers] = [process.argv[2], Number(process.argv[3])];
const dump = readdirSync(dir).find((f) => /^callgrind\.out\.\d+\.\d+$/.test(f));
const profile = await instructionProfileOfFile(`${dir}/${dump}`, new PerfMap(readFileSync(`${dir}/perf.map`, 'utf8')), callers);
const b = instructionBreakdown(profile, DEFAULT_BUCKET_RULES);
const pct = (x) => `${((x / b.total) * 100).toFixed(1)}%`;
const buckets = Object.entries(b.byBucket)
  .sort((x, y) => y[1] - x[1])
  .map(([k, v]) => `${k} ${pct(v)}`)
  .join(', ');
const plugin = [...b.byFunction.values()]
  .filter((f) => /examples\/sample-gateway/.test(f.url))
  .map((f) => `${f.functionName} ${f.bucket} ${pct(f.self)}`);
console.log(JSON.stringify({ dir, callers, total: b.total, truncated: pct(b.truncated), guessed: pct(b.guessed), buckets, plugin }));
