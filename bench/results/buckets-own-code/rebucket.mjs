#!/usr/bin/env node
// The same CPU (and allocation) profiles bucketed twice: by the rules before the ownCode rule (the committed
// bucket-rules.json, read with git) and by the working tree's. Prints, per profile, each bucket's ms
// under both and the functions whose bucket changed, with their self ms. Nothing correctly placed
// may move: the only moves should be into ownCode, of the gateway's own code.
//
//   node bench/results/buckets-own-code/rebucket.mjs RUN/step-10.cpuprofile [RUN/step-10.attribution.heapprofile …]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_BUCKET_RULES, analyzeAllocations, analyzeProfile, attributeNodes, parseCpuProfile, parseHeapProfile, selfWeights } from '@gwprof/analysis';

const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
// The rules as committed, read whole: they name no bucket outside the catalog.
const before = JSON.parse(execFileSync('git', ['show', 'HEAD:packages/analysis/src/profiles/bucket-rules.json'], { cwd: root, encoding: 'utf8' }));

for (const file of process.argv.slice(2)) {
  if (file.endsWith('.heapprofile')) {
    allocations(file);
    continue;
  }
  const profile = parseCpuProfile(readFileSync(file, 'utf8'), file);
  const old = analyzeProfile(profile, { rules: before });
  const now = analyzeProfile(profile, { rules: DEFAULT_BUCKET_RULES });
  console.log(`\n${file}: ${old.samples} samples, ${old.busyMs.toFixed(1)} busy ms`);
  console.log('bucket        before ms   after ms');
  for (const bucket of Object.keys(now.msByBucket)) {
    const a = old.msByBucket[bucket] ?? 0;
    const b = now.msByBucket[bucket] ?? 0;
    if (a === 0 && b === 0) continue;
    console.log(`${bucket.padEnd(12)} ${a.toFixed(1).padStart(10)} ${b.toFixed(1).padStart(10)}${Math.abs(a - b) > 0.05 ? '   moved' : ''}`);
  }
  const moved = movedFunctions(profile, before, DEFAULT_BUCKET_RULES);
  console.log(moved.length === 0 ? 'no function changed bucket' : 'functions that changed bucket (self ms):');
  for (const m of moved.slice(0, 25)) console.log(`  ${m.ms.toFixed(1).padStart(8)}  ${m.from} → ${m.to}  ${m.name}  ${m.url}`);
}

/** Self time of every (function, old bucket, new bucket) whose bucket differs, largest first. */
function movedFunctions(profile, oldRules, newRules) {
  const a = attributeNodes(profile, oldRules);
  const b = attributeNodes(profile, newRules);
  const { selfUs } = selfWeights(profile);
  const moves = new Map();
  for (const node of profile.nodes) {
    const from = a.get(node.id).bucket;
    const to = b.get(node.id).bucket;
    const us = selfUs.get(node.id) ?? 0;
    if (from === to || us === 0) continue;
    const key = `${node.callFrame.functionName}|${node.callFrame.url}|${from}|${to}`;
    const entry = moves.get(key) ?? { name: node.callFrame.functionName || '(anonymous)', url: node.callFrame.url, from, to, ms: 0 };
    entry.ms += us / 1000;
    moves.set(key, entry);
  }
  return [...moves.values()].sort((x, y) => y.ms - x.ms);
}


/** An allocation profile's bytes by bucket under both rule sets, and its largest allocators' buckets. */
function allocations(file) {
  const profile = parseHeapProfile(readFileSync(file, 'utf8'), file);
  const old = analyzeAllocations(profile, { rules: before });
  const now = analyzeAllocations(profile, { rules: DEFAULT_BUCKET_RULES });
  console.log(`\n${file}: ${(now.bytes / 1e6).toFixed(2)} MB sampled`);
  console.log('bucket        before MB   after MB');
  for (const bucket of Object.keys(now.bytesByBucket)) {
    const a = old.bytesByBucket[bucket] ?? 0;
    const b = now.bytesByBucket[bucket] ?? 0;
    if (a === 0 && b === 0) continue;
    console.log(`${bucket.padEnd(12)} ${(a / 1e6).toFixed(2).padStart(10)} ${(b / 1e6).toFixed(2).padStart(10)}${Math.abs(a - b) > 1000 ? '   moved' : ''}`);
  }
  const was = new Map(old.topAllocators.map((f) => [`${f.functionName}|${f.url}|${f.line}`, f.bucket]));
  console.log('largest allocators (MB, bucket before → after):');
  for (const f of now.topAllocators.slice(0, 6))
    console.log(`  ${(f.bytes / 1e6).toFixed(2).padStart(7)}  ${was.get(`${f.functionName}|${f.url}|${f.line}`)} → ${f.bucket}  ${f.functionName}  ${f.url}`);
}
