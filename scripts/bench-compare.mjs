#!/usr/bin/env node
// Quality of `gwprof compare`'s verdict on this machine.
//  - A/A: the same gateway on both sides, repeated: how often does it (wrongly) say "regression"?
//  - A/B: the candidate made slower on purpose by scripts/burn-cpu-per-request.cjs, which burns a
//    fixed CPU time per request: from which slowdown on is it reported reliably, and how fast?
//
//   node scripts/bench-compare.mjs [--aa 10] [--burn-us 250,500,1000] [--repeats 3] [--gateway mesh] -- [extra compare flags]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    aa: { type: 'string', default: '10' },
    'burn-us': { type: 'string', default: '250,500,1000' },
    repeats: { type: 'string', default: '3' },
    gateway: { type: 'string', default: 'mesh' },
  },
});
const out = mkdtempSync(path.join(os.tmpdir(), 'gwprof-bench-compare-'));
const burnPreload = path.join(root, 'scripts', 'burn-cpu-per-request.cjs');
const gateway = values.gateway;

function compare(label, candidateEnv) {
  const started = Date.now();
  const args = [
    path.join(root, 'packages/cli/dist/bin.js'), 'compare', '--baseline', gateway, '--candidate', gateway,
    '--out', out, '--run-id', label, '--json', path.join(out, `${label}.json`), '--no-color', ...positionals,
  ];
  for (const [k, v] of Object.entries(candidateEnv)) args.push('--candidate-env', `${k}=${v}`);
  const child = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const minutes = (Date.now() - started) / 60_000;
  let result = null;
  try {
    result = JSON.parse(readFileSync(path.join(out, `${label}.json`), 'utf8'));
  } catch {
    // reported below
  }
  const cpu = result?.levels?.[0]?.metrics?.find((m) => m.metric === 'cpuMsPerOkRequest');
  const row = {
    label,
    exitCode: child.status,
    verdict: result?.verdict ?? 'no result',
    trialsPerSide: result ? Math.max(0, ...result.trials.map((t) => t.index)) : 0,
    cpuChangePercent: cpu?.relativeChange == null ? null : Number((cpu.relativeChange * 100).toFixed(1)),
    cpuCi: cpu?.ci95 ? cpu.ci95.map((x) => Number((x * 100).toFixed(1))) : null,
    baselineCpuMs: cpu ? Number(cpu.baseline.median.toFixed(3)) : null,
    minutes: Number(minutes.toFixed(1)),
  };
  process.stderr.write(`${JSON.stringify(row)}\n`);
  if (!result) process.stderr.write(child.stderr.slice(-2000));
  return row;
}

const rows = [];
for (let i = 1; i <= Number(values.aa); i++) rows.push({ kind: 'A/A', burnUs: 0, ...compare(`aa-${i}`, {}) });
for (const burnUs of values['burn-us'].split(',').map(Number).filter((n) => n > 0)) {
  for (let i = 1; i <= Number(values.repeats); i++) {
    rows.push({
      kind: 'A/B', burnUs,
      ...compare(`burn${burnUs}-${i}`, { NODE_OPTIONS: `--require ${burnPreload}`, GWPROF_BURN_US: String(burnUs) }),
    });
  }
}
const summary = {};
for (const row of rows) {
  const key = row.kind === 'A/A' ? 'A/A' : `burn ${row.burnUs} µs/req`;
  summary[key] ??= { runs: 0, regression: 0, 'no regression': 0, inconclusive: 0, invalid: 0, medianMinutes: [] };
  summary[key].runs++;
  summary[key][row.verdict] = (summary[key][row.verdict] ?? 0) + 1;
  summary[key].medianMinutes.push(row.minutes);
}
for (const s of Object.values(summary)) {
  const m = [...s.medianMinutes].sort((a, b) => a - b);
  s.medianMinutes = m.length % 2 ? m[m.length >> 1] : (m[m.length / 2 - 1] + m[m.length / 2]) / 2;
}
console.log(JSON.stringify({ gateway, out, summary, rows }, null, 2));
