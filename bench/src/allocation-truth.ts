#!/usr/bin/env node
// Allocation profiles against a ground truth (backs docs/allocations.md): the stub gateway
// (fixtures/stub-gateway.mjs) allocates a known amount per request in one named function
// (fixtures/known-allocation.mjs), and Node's own heap accounting, in a process whose young
// generation never collects between two readings, says how many bytes that really is. Each case is
// a real profiled `gwprof sweep` of the stub; the figure of merit is the step's bytes per
// successful request charged to the top allocator, divided by the truth.
//
//   node bench/dist/allocation-truth.js [--bytes 50000,200000,1000000] [--repeats 3] [--heap-sampling 131072]
// Prints a markdown table on stdout and one JSON object per case on stderr.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs } from './args.js';
import { median } from '@gwprof/analysis';
import type { RunResult } from '@gwprof/results';

const { values } = benchArgs({
  options: {
    bytes: { type: 'string', default: '50000,200000,1000000' },
    repeats: { type: 'string', default: '3' },
    'heap-sampling': { type: 'string', default: '131072' },
  },
});
const repoRoot = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const cli = path.join(repoRoot, 'packages/cli/dist/bin.js');
const fixture = (name: string) => path.join(repoRoot, 'fixtures', name);

/** Bytes per call by heapUsed growth, with no GC between the readings. */
function truthOf(bytes: number, inlinable: boolean): number {
  const args = ['--min-semi-space-size=256', '--max-semi-space-size=256', fixture('known-allocation.mjs'), String(bytes)];
  const out = execFileSync(process.execPath, inlinable ? [...args, 'inlinable'] : args, { encoding: 'utf8' });
  return (JSON.parse(out) as { bytesPerCall: number }).bytesPerCall;
}

interface Measured {
  total: number;
  topName: string;
  topBytes: number;
}

function profiledSweep(bytes: number, inlinable: boolean): Measured {
  const out = mkdtempSync(path.join(os.tmpdir(), 'gwprof-alloc-truth-'));
  const env = ['STUB_SERVICE_MS=0', `STUB_ALLOC_BYTES=${bytes}`, `STUB_ALLOC_INLINABLE=${inlinable ? 1 : 0}`];
  const run = spawnSync(
    process.execPath,
    [
      cli,
      'sweep',
      '--gateway',
      `cmd:node ${fixture('stub-gateway.mjs')}`,
      '--query',
      fixture('stub.graphql'),
      '--expect',
      fixture('stub.expected.json'),
      ...env.flatMap((e) => ['--gateway-env', e]),
      '--heap-sampling',
      values['heap-sampling'],
      '-c',
      '4',
      '-d',
      '6',
      '-w',
      '2',
      '--out',
      out,
      '--run-id',
      'a',
      '--no-color',
      '--gateway-port',
      '4890',
      '--subgraph-ports',
      '4891,4892,4893,4894',
    ],
    { encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(`sweep exited ${run.status}: ${run.stderr}`);
  const result = JSON.parse(readFileSync(path.join(out, 'a', 'results.json'), 'utf8')) as RunResult;
  const allocation = result.analysis?.steps[0]?.allocation;
  const top = allocation?.topAllocators[0];
  if (!allocation?.bytesPerOkRequest || !top) throw new Error(`no allocation profile in ${out}`);
  return { total: allocation.bytesPerOkRequest, topName: top.functionName, topBytes: top.bytesPerOkRequest };
}

const rows: string[] = [];
for (const bytes of values.bytes.split(',').map(Number)) {
  for (const inlinable of [false, true]) {
    const truth = truthOf(bytes, inlinable);
    const measured = Array.from({ length: Number(values.repeats) }, () => profiledSweep(bytes, inlinable));
    const ratios = measured.map((m) => m.topBytes / truth);
    const record = { bytes, inlinable, truth, measured, ratios, medianRatio: median(ratios) };
    process.stderr.write(`${JSON.stringify(record)}\n`);
    const names = [...new Set(measured.map((m) => m.topName))].join(', ');
    const fmt = (r: number) => r.toFixed(3);
    rows.push(
      `| ${bytes.toLocaleString('en-US')} | ${inlinable ? 'inlinable' : 'generator'} | ${Math.round(truth).toLocaleString('en-US')} | ${names} | ${fmt(median(ratios))} | ${ratios.map(fmt).join(', ')} | ${Math.round(median(measured.map((m) => m.total))).toLocaleString('en-US')} |`,
    );
  }
}
console.log('| requested B/req | function | truth B/call (heapUsed) | top allocator | median top/truth | runs | total B/req |');
console.log('| ---: | --- | ---: | --- | ---: | --- | ---: |');
for (const row of rows) console.log(row);
