/**
 * A table of bad inputs, each run through the CLI as a user would type it: one line on stderr that
 * names the fix, exit 2, no stack trace, nothing on stdout and no run folder, since every input is
 * refused before anything starts. The ports are the kernel's free ones (one held busy by the test),
 * so nothing here competes for gwprof's fixed ports.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli } from './e2e/cli.js';
import { freePort } from '../packages/collect/src/processes/ports.js';

interface Ports {
  gateway: number;
  subgraphs: number[];
  candidate: number;
  candidateSubgraphs: number[];
  /** Nothing listens here. */
  silent: number;
  /** The test listens here. */
  busy: number;
}

interface BadInput {
  name: string;
  args: (p: Ports, dir: string) => string[];
  line: RegExp;
}

const scenarioFile = path.join(repoRoot, 'fixtures/own-scenario/scenario.yaml');
const profile = path.join(repoRoot, 'packages/analysis/fixtures/profiles/mesh-c10.cpuprofile');
const auditRun = path.join(repoRoot, 'bench/results/buckets-own-code/compare-audit');

const services = (p: Ports) => ['--gateway-port', String(p.gateway), '--subgraph-ports', p.subgraphs.join(',')];
const sides = (p: Ports) => [...services(p), '--candidate-port', String(p.candidate), '--candidate-subgraph-ports', p.candidateSubgraphs.join(',')];
const url = (port: number) => `url:http://127.0.0.1:${port}/graphql`;

const TABLE: BadInput[] = [
  // Paths a command writes, checked before it starts anything.
  {
    name: 'sweep --out under a file',
    args: (p) => ['sweep', ...services(p), '--out', 'a-file/runs'],
    line: /^--out a-file\/runs: .*a-file is a file, not a folder: give a folder/,
  },
  {
    name: 'sweep --json in a missing folder',
    args: (p) => ['sweep', ...services(p), '--json', 'nowhere/run.json'],
    line: /^--json nowhere\/run\.json: the folder .*nowhere does not exist: create it first/,
  },
  {
    name: 'compare --markdown in a missing folder',
    args: (p) => ['compare', ...sides(p), '--baseline', 'mesh', '--candidate', 'mesh', '--markdown', 'nowhere/comment.md'],
    line: /^--markdown nowhere\/comment\.md: the folder .* does not exist/,
  },
  {
    name: 'goldens --goldens in a missing folder',
    args: () => ['goldens', '--scenario', scenarioFile, '--goldens', 'nowhere/goldens.json'],
    line: /^--goldens nowhere\/goldens\.json: the folder .* does not exist/,
  },
  {
    name: 'buckets --json under a file',
    args: () => ['buckets', profile, '--json', 'a-file/buckets.json'],
    line: /^--json a-file\/buckets\.json: .*a-file is a file, not a folder/,
  },
  { name: 'report --json as a folder', args: (_p, dir) => ['report', dir, '--json', '.'], line: /^--json \. is a folder: give a file name/ },
  { name: 'soak --out under a file', args: (p) => ['soak', ...services(p), '--out', 'a-file/x'], line: /^--out a-file\/x: .* is a file, not a folder/ },
  // The gateway kinds a command takes, before any build.
  {
    name: 'soak of a gateway gwprof does not know',
    args: (p) => ['soak', ...services(p), '--gateway', 'envoy'],
    line: /^unknown gateway "envoy": use one of mesh, .*cmd:<shell command>/,
  },
  {
    name: 'soak of a url: gateway',
    args: (p) => ['soak', ...services(p), '--gateway', url(p.silent)],
    line: /^soak --gateway url:.*: soak reads the memory of a gateway it starts itself.*; give a built-in Node gateway .* or cmd:/,
  },
  {
    name: 'compare of a url: gateway',
    args: (p) => ['compare', ...sides(p), '--baseline', url(p.silent), '--candidate', 'mesh'],
    line: /^compare --baseline url:.*cannot measure one already running; give /,
  },
  { name: 'up of a url: gateway', args: (p) => ['up', ...services(p), '--gateway', url(p.silent)], line: /^up --gateway url:.*: up starts the gateway; give / },
  { name: 'an unknown gateway', args: (p) => ['sweep', ...services(p), '--gateway', 'nosuch'], line: /^unknown gateway "nosuch": use one of mesh, / },
  {
    name: 'a router at something that is no version',
    args: (p) => ['sweep', ...services(p), '--gateway', 'hive-router@banana'],
    line: /^hive-router@banana: "banana" is not a version: give one version \(hive-router@0\.2\.14\), the newest of a line \(hive-router@0\.2\.x\) or hive-router@latest$/,
  },
  {
    name: 'a candidate router at something that is no version',
    args: (p) => ['compare', ...sides(p), '--baseline', 'hive-router', '--candidate', 'apollo-router@2.x.1'],
    line: /^apollo-router@2\.x\.1: "2\.x\.1" is not a version: give one version \(apollo-router@2\.17\.0\)/,
  },
  { name: 'mesh at another version', args: (p) => ['soak', ...services(p), '--gateway', 'mesh@1.0.0'], line: /^mesh@1\.0\.0: .*mesh runs at its pin only/ },
  { name: 'cmd: without a command', args: (p) => ['sweep', ...services(p), '--gateway', 'cmd:'], line: /^gateway spec cmd: needs a command/ },
  {
    name: 'a url: gateway off loopback',
    args: (p) => ['sweep', ...services(p), '--gateway', 'url:http://example.com/graphql'],
    line: /sends load to loopback only/,
  },
  // A url: gateway must answer before any warm-up.
  {
    name: 'sweep of a url: where nothing listens',
    args: (p) => ['sweep', ...services(p), '--gateway', url(p.silent)],
    line: /^--gateway url:.*: nothing listens at 127\.0\.0\.1:\d+: start the gateway first/,
  },
  {
    name: 'goldens from a url: where nothing listens',
    args: (p) => ['goldens', '--scenario', scenarioFile, '--reference', url(p.silent)],
    line: /^--reference url:.*: nothing listens at/,
  },
  // Ports, both sides, before anything starts.
  {
    name: 'a busy --candidate-port',
    args: (p) => ['compare', ...sides(p), '--candidate-port', String(p.busy), '--baseline', 'mesh', '--candidate', 'mesh'],
    line: /^port \d+ \(candidate gateway\) is already in use: stop what listens there, or give --candidate-port another port$/,
  },
  {
    name: "a busy candidate's subgraph port",
    args: (p) => [
      'compare',
      ...sides(p),
      '--candidate-subgraph-ports',
      [p.busy, ...p.candidateSubgraphs.slice(1)].join(','),
      '--baseline',
      'mesh',
      '--candidate',
      'mesh',
    ],
    line: /^port \d+ \(candidate's subgraph accounts\) is already in use: .*--candidate-subgraph-ports/,
  },
  {
    name: 'a busy --gateway-port',
    args: (p) => ['sweep', ...services(p), '--gateway-port', String(p.busy)],
    line: /^port \d+ \(gateway\) is already in use: .* give --gateway-port another port$/,
  },
  { name: 'a busy port under up', args: (p) => ['up', ...services(p), '--gateway-port', String(p.busy)], line: /^port \d+ \(gateway\) is already in use/ },
  {
    name: 'one port for both sides',
    args: (p) => ['compare', ...sides(p), '--candidate-port', String(p.gateway), '--baseline', 'mesh', '--candidate', 'mesh'],
    line: /^port \d+ is given twice \(gateway by --gateway-port, candidate gateway by --candidate-port\): give each service its own port$/,
  },
  // Flags.
  { name: 'an empty concurrency entry', args: () => ['sweep', '-c', '10,,100'], line: /--concurrency has an empty entry in "10,,100": write 10,100/ },
  { name: 'a concurrency of 0', args: () => ['sweep', '-c', '0'], line: /--concurrency must be a comma-separated list of whole numbers ≥ 1/ },
  {
    name: '--slo in a closed loop',
    args: (p) => ['sweep', ...services(p), '-c', '10', '--slo', 'p99=1s'],
    line: /^--slo shapes an open loop \(--rate\).*leave it out, or give --rate instead$/,
  },
  {
    name: '--arrivals in a closed loop',
    args: (p) => ['compare', ...sides(p), '--baseline', 'mesh', '--candidate', 'mesh', '--arrivals', 'uniform'],
    line: /^--arrivals shapes an open loop/,
  },
  {
    name: '--concurrency and --rate',
    args: (p) => ['sweep', ...services(p), '-c', '10', '-r', '100'],
    line: /^give --concurrency \(closed loop\) or --rate \(open loop\), not both$/,
  },
  { name: 'a timeout without a unit it knows', args: () => ['sweep', '--timeout', '10x'], line: /--timeout must be a duration like 90s/ },
  { name: 'export k6 --timeout of 10 lightyears', args: () => ['export', 'k6', '--timeout', '10ly'], line: /--timeout must be a duration like 90s/ },
  { name: 'a warm-up without a unit it knows', args: () => ['compare', '-w', 'soon'], line: /--warmup must be a duration/ },
  {
    name: 'soak --allocator-metric without a metric',
    args: (p) => ['soak', ...services(p), '--gateway', 'cmd:./my-router', '--allocator-metric', `http://127.0.0.1:${p.silent}/metrics`],
    line: /^--allocator-metric takes http:\/\/127\.0\.0\.1:PORT\/PATH#METRIC .*: ".*\/metrics" names no metric after #$/,
  },
  {
    name: 'soak --allocator-metric of a built-in gateway',
    args: (p) => ['soak', ...services(p), '--gateway', 'grafbase', '--allocator-metric', `http://127.0.0.1:${p.silent}/metrics#allocated_bytes`],
    line: /^--allocator-metric is for a cmd: gateway \(apollo-router's jemalloc statistics are read without it; gwprof reads no allocator statistics of grafbase\): leave it out$/,
  },
  {
    name: 'a soak warm-up without a unit it knows',
    args: () => ['soak', '-w', 'soon'],
    line: /^option '-w, --warmup <time>' argument 'soon' is invalid\. --warmup must be a duration/,
  },
  {
    name: 'a budget without a unit it knows',
    args: () => ['compare', '--budget', 'soon'],
    line: /--budget must be a duration like 90s, .* or a number of minutes/,
  },
  {
    name: 'a sampling interval without a unit it knows',
    args: () => ['sweep', '--sampling-interval', '4xs'],
    line: /--sampling-interval must be a duration like 90s, .* or a number of microseconds \(got "4xs"\)$/,
  },
  { name: 'an import of k6 output that does not exist', args: () => ['import', 'k6', 'missing.json', '-g', 'mesh'], line: /missing\.json does not exist$/ },
  {
    name: 'three subgraph ports',
    args: (p) => ['sweep', '--gateway-port', String(p.gateway), '--subgraph-ports', p.subgraphs.slice(0, 3).join(',')],
    line: /^--subgraph-ports needs 4 ports/,
  },
  {
    name: 'a scenario that does not exist',
    args: (p) => ['sweep', ...services(p), '--scenario', 'nosuch'],
    line: /^--scenario: "nosuch" is neither a built-in scenario/,
  },
  {
    name: 'a scenario file that does not exist',
    args: (p) => ['sweep', ...services(p), '--scenario', 'missing.yaml'],
    line: /^scenario file .*missing\.yaml does not exist$/,
  },
  {
    name: 'a query file that does not exist',
    args: (p) => ['sweep', ...services(p), '--query', 'missing.graphql'],
    line: /^query file .*missing\.graphql does not exist$/,
  },
  { name: 'compare without gateways', args: (p) => ['compare', ...sides(p)], line: /^compare needs --baseline and --candidate gateways/ },
  {
    name: 'compare --rate auto',
    args: (p) => ['compare', ...sides(p), '--baseline', 'mesh', '--candidate', 'mesh', '--rate', 'auto'],
    line: /^compare --rate takes a list of rates/,
  },
  {
    name: 'counting at a concurrency',
    args: (p) => ['compare', ...sides(p), '--baseline', 'mesh', '--candidate', 'mesh', '--measure', 'instructions', '-c', '10'],
    line: /^--measure instructions sends requests one at a time: leave out --concurrency and --rate$/,
  },
  { name: 'bisect without ends', args: () => ['bisect'], line: /^bisect needs --good and --bad/ },
  {
    name: 'report of a folder that is no run',
    args: (_p, dir) => ['report', dir],
    line: /holds neither results\.json nor compare\.json: is this a gwprof run folder\?$/,
  },
  { name: 'buckets of a missing profile', args: () => ['buckets', 'missing.cpuprofile'], line: /missing\.cpuprofile: cannot read CPU profile \(ENOENT\)$/ },
  { name: 'help for a typo', args: () => ['help', 'sweepp'], line: /^no command named 'sweepp': did you mean sweep\?/ },
];

describe('bad inputs: one line naming the fix, exit 2, nothing started', () => {
  let ports: Ports;
  let busy: net.Server;
  let dir: string;

  beforeAll(async () => {
    const free: number[] = [];
    for (let i = 0; i < 11; i++) free.push(await freePort());
    busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    ports = {
      gateway: free[0]!,
      subgraphs: free.slice(1, 5),
      candidate: free[5]!,
      candidateSubgraphs: free.slice(6, 10),
      silent: free[10]!,
      busy: (busy.address() as net.AddressInfo).port,
    };
    dir = mkdtempSync(path.join(os.tmpdir(), 'gwprof-bad-inputs-'));
    writeFileSync(path.join(dir, 'a-file'), '');
    mkdirSync(path.join(dir, 'runs'));
  });

  afterAll(() => busy?.close());

  it(`has at least 25 rows (${TABLE.length})`, () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(25);
  });

  it('reports a comparison kept without its profile pair: the verdict, with no stack', async () => {
    // The repository's own evidence folder keeps compare.json and comment.md, not the callgrind profiles.
    const copy = path.join(dir, 'compare-audit');
    cpSync(auditRun, copy, { recursive: true });
    const result = await runCli(['report', copy, '--no-color'], {}, dir);
    expect(result.stderr).not.toMatch(/unexpected error|\n\s+at /);
    expect(result.stdout).toMatch(/Verdict: REGRESSION \(exit 1\)/);
    expect(result.code).toBe(1);
  });

  it.each(TABLE)('$name', async ({ args, line }) => {
    // Every command that takes --out writes under runs/, which must stay empty: no run folder, nothing started.
    const given = args(ports, dir);
    const out = ['sweep', 'compare', 'soak', 'up', 'goldens'].includes(given[0]!) && !given.includes('--out') ? ['--out', 'runs'] : [];
    const result = await runCli([...given, ...out], {}, dir);
    const lines = result.stderr.trim().split('\n');
    expect(lines[0]).toMatch(/^gwprof: /);
    expect(lines[0]!.replace(/^gwprof: /, '')).toMatch(line);
    expect(result.stderr).not.toMatch(/unexpected error|\n\s+at /);
    // commander's own refusals add its usage hint; gwprof's are the line alone.
    expect(lines.slice(1).every((l) => l === '(run with --help for usage)')).toBe(true);
    expect(result.stdout).toBe('');
    expect(result.code).toBe(2);
    expect(readdirSync(path.join(dir, 'runs'))).toEqual([]);
  });
});
