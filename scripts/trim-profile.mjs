#!/usr/bin/env node
// Trims a V8 .cpuprofile to a small, still-real fixture: keeps a contiguous run of samples (so the
// time structure, GC pauses and gaps included, stays as V8 recorded it), drops every node no kept
// sample reaches, recomputes hitCount and drops positionTicks (line-level ticks, unused here).
//
//   node scripts/trim-profile.mjs IN.cpuprofile OUT.cpuprofile [--samples 3000] [--from middle|start|<index>] [--collapse-js]
//
// --collapse-js keeps V8's pseudo-frames ((garbage collector), (idle), (program)) and folds every
// other stack into one "(js)" node: a tiny fixture that keeps the whole timeline, for tests about
// sample timing (GC against the sampling interval) rather than about frames.
//
// startTime and endTime become the timestamps of the samples just outside the kept run (or the
// original ones at the profile's edges), so the first kept sample keeps its own gap.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    samples: { type: 'string', default: '3000' },
    from: { type: 'string', default: 'middle' },
    'collapse-js': { type: 'boolean', default: false },
  },
});
if (positionals.length !== 2) {
  console.error('usage: node scripts/trim-profile.mjs IN.cpuprofile OUT.cpuprofile [--samples 3000] [--from middle|start|<index>]');
  process.exit(2);
}
const [input, output] = positionals;
const profile = JSON.parse(readFileSync(input, 'utf8'));
const window = trimProfile(profile, Number(values.samples), values.from);
const trimmed = values['collapse-js'] ? collapseJs(window) : window;
const text = JSON.stringify(trimmed);
writeFileSync(output, text);
console.log(
  `${output}: ${trimmed.samples.length} of ${profile.samples.length} samples, ${trimmed.nodes.length} of ${profile.nodes.length} nodes, ` +
    `${((trimmed.endTime - trimmed.startTime) / 1e6).toFixed(2)} s, ${(text.length / 1024).toFixed(0)} KiB`,
);

function trimProfile(profile, count, from) {
  const { samples, timeDeltas } = profile;
  if (!Array.isArray(samples) || !Array.isArray(timeDeltas)) throw new Error('needs a profile with samples and timeDeltas');
  const keep = Math.min(count, samples.length);
  const first = from === 'start' ? 0 : from === 'middle' ? Math.floor((samples.length - keep) / 2) : Number(from);
  if (!Number.isInteger(first) || first < 0 || first + keep > samples.length) throw new Error(`--from ${from} is outside the profile`);
  const last = first + keep - 1;

  const stamps = [];
  let time = profile.startTime;
  for (const delta of timeDeltas) stamps.push((time += delta));
  const startTime = first === 0 ? profile.startTime : stamps[first - 1];
  const endTime = last === samples.length - 1 ? profile.endTime : stamps[last + 1];

  const keptSamples = samples.slice(first, last + 1);
  const keptDeltas = timeDeltas.slice(first, last + 1);
  keptDeltas[0] = stamps[first] - startTime;

  // Keep every node on a kept sample's stack.
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const reached = new Set();
  for (const id of new Set(keptSamples)) {
    for (let node = id; node !== undefined && !reached.has(node); node = parent.get(node)) reached.add(node);
  }
  const hits = new Map();
  for (const id of keptSamples) hits.set(id, (hits.get(id) ?? 0) + 1);
  const nodes = profile.nodes
    .filter((node) => reached.has(node.id))
    .map((node) => {
      const children = (node.children ?? []).filter((child) => reached.has(child));
      return { id: node.id, callFrame: node.callFrame, hitCount: hits.get(node.id) ?? 0, ...(children.length > 0 ? { children } : {}) };
    });
  return { nodes, startTime, endTime, samples: keptSamples, timeDeltas: keptDeltas };
}

function collapseJs(profile) {
  const pseudo = new Set(['(garbage collector)', '(idle)', '(program)']);
  const root = profile.nodes.find((node) => node.callFrame.functionName === '(root)');
  if (!root) throw new Error('--collapse-js needs a (root) node');
  const frame = (functionName) => ({ functionName, scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 });
  const names = ['(js)', ...pseudo];
  const nodes = [{ id: 1, callFrame: frame('(root)'), hitCount: 0, children: names.map((_, i) => i + 2) }];
  for (const [i, name] of names.entries()) nodes.push({ id: i + 2, callFrame: frame(name), hitCount: 0 });
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const samples = profile.samples.map((id) => {
    const name = byId.get(id).callFrame.functionName;
    return pseudo.has(name) ? names.indexOf(name) + 2 : 2;
  });
  for (const id of samples) nodes[id - 1].hitCount += 1;
  return { ...profile, nodes, samples };
}
