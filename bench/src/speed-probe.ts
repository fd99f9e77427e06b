#!/usr/bin/env node
// A reading of the machine's speed from outside the processes under test (backs "Other figures than
// CPU per request" in docs/validation/compare-error-rates.md): every --interval-ms it does a fixed
// piece of arithmetic and appends its CPU time and wall time, µs, as a JSON line. Run it beside a
// comparison; `figure-noise.js --probe FILE` then divides each window's CPU per request by the
// probe's median CPU time in that window. It takes about 1.3% of a core at the defaults.
//
//   node bench/dist/speed-probe.js --out probe.jsonl [--interval-ms 150] [--rounds 300]
import { appendFileSync } from 'node:fs';
import { benchArgs } from './args.js';

const { values: args } = benchArgs({
  options: { out: { type: 'string' }, 'interval-ms': { type: 'string', default: '150' }, rounds: { type: 'string', default: '300' } },
});
if (!args.out) {
  console.error('usage: node bench/dist/speed-probe.js --out FILE [--interval-ms 150] [--rounds 300]');
  process.exit(2);
}
const rounds = Number(args.rounds);
const buffer = new Float64Array(4096);

/** The fixed work: reads and writes that stay in a 32 kB buffer, so it measures the core, not memory size. */
function work(): number {
  let sum = 0;
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < buffer.length; i++) {
      buffer[i] = buffer[(i * 7) & 4095]! * 0.5 + i + r;
      sum += buffer[i]!;
    }
  }
  return sum;
}

// Warm: the readings should time optimised code from the first line on.
for (let i = 0; i < 50; i++) work();
let _sink = 0; // keeps the work observable, so that it is not optimised away
setInterval(() => {
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  _sink += work();
  const cpu = process.cpuUsage(cpu0);
  const wallUs = Math.round((performance.now() - wall0) * 1000);
  appendFileSync(args.out!, `${JSON.stringify({ t: Date.now(), cpuUs: cpu.user + cpu.system, wallUs })}\n`);
}, Number(args['interval-ms']));
