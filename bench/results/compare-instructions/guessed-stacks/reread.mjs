import { readFileSync } from 'node:fs';
import { callGraphOfFile } from '/work/main/packages/analysis/dist/instructions/call-graph.js';
import { instructionProfileOfCallGraph, instructionBreakdown, instructionMoves } from '/work/main/packages/analysis/dist/instructions/instruction-profile.js';
import { PerfMap } from '/work/main/packages/analysis/dist/instructions/perf-map.js';
import { DEFAULT_BUCKET_RULES } from '/work/main/packages/analysis/dist/profiles/rules.js';
const dir = process.argv[2];
const res = {};
for (const side of ['baseline','candidate']) {
  const dump = process.argv[side==='baseline'?3:4];
  let t = Date.now();
  const g = await callGraphOfFile(`${dir}/${dump}`);
  const t1 = Date.now()-t;
  const p = instructionProfileOfCallGraph(g, new PerfMap(readFileSync(`${dir}/${side}-e4.perf.map`,'utf8')));
  console.log(side, 'read', t1, 'ms; guess', Date.now()-t-t1, 'ms; nodes', p.profile.nodes.length, 'samples', p.profile.samples.length, 'trunc', (p.truncated/p.total).toFixed(3));
  res[side] = { breakdown: instructionBreakdown(p, DEFAULT_BUCKET_RULES), ok: 30, requests: 30 };
}
const m = instructionMoves(res.baseline, res.candidate, 160);
console.log(JSON.stringify({truncated: m.truncatedShare, guessed: m.guessedShare}));
for (const b of m.buckets.slice(0,12)) console.log(b.bucket, (b.baselinePerOkRequest/1e6).toFixed(2), (b.deltaPerOkRequest/1e3).toFixed(1)+'k');
for (const f of m.functions.slice(0,10)) console.log((f.deltaPerOkRequest/1e3).toFixed(1)+'k', f.bucket, f.functionName, f.url.slice(-60), f.line);
