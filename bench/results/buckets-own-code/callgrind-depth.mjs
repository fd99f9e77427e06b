#!/usr/bin/env node
// The profile pair's capture, by hand, for one side and one set of valgrind options: how deep
// callgrind's caller chains reach, what the options cost in time and dump size, and whether the
// count changes. It starts the four demo subgraphs, one gateway under callgrind as
// `gwprof compare --measure instructions` starts the profile pair (the design's V8 flags, the perf
// map, gwprof's preload for the GC before the batch), warms it up with requests one at a time, then
// counts one batch and dumps it. Run under the heavy lock:
//
//   flock /tmp/gwprof-heavy.lock node bench/results/buckets-own-code/callgrind-depth.mjs \
//     --out /tmp/depth/v0 (--gateway examples/sample-gateway/pr/server.js | --mesh) [--requests 10] [--warmup 200] \
//     -- --separate-callers=80 [--fn-skip=PATTERN …]
//
// Writes OUT/summary.json (options, batch seconds, dump bytes, callgrind's total) and leaves the
// dump (OUT/callgrind.out.<pid>.1) and the perf map (OUT/perf.map) for reading afterwards.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, fstatSync, openSync, readSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const argv = process.argv.slice(2);
const dash = argv.indexOf('--');
const valgrindExtra = dash >= 0 ? argv.slice(dash + 1) : [];
const opts = dash >= 0 ? argv.slice(0, dash) : argv;
const opt = (name, fallback) => {
  const i = opts.indexOf(name);
  return i >= 0 ? opts[i + 1] : fallback;
};
const out = path.resolve(opt('--out', '/tmp/depth/run'));
const mesh = opts.includes('--mesh');
const gatewayScript = path.resolve(root, opt('--gateway', 'examples/sample-gateway/pr/server.js'));
const meshDir = path.join(root, 'gateways', 'mesh');
const meshWork = path.join(meshDir, '.work', `depth-${process.pid}`);
const meshBin = path.join(meshDir, 'node_modules', '@graphql-mesh', 'cli', 'cjs', 'bin.js');
const requests = Number(opt('--requests', 10));
const warmup = Number(opt('--warmup', 200));
const BASE = 4700;
const V8_FLAGS = ['--no-opt', '--predictable', '--predictable-gc-schedule', '--hash-seed=1', '--random-seed=1', '--no-concurrent-sweeping', '--expose-gc'];
const PROFILE_V8_FLAGS = ['--perf-basic-prof', '--interpreted-frames-native-stack'];
const CALLGRIND_ARGS = ['--tool=callgrind', '--instr-atstart=no', '--smc-check=all-non-file', '--vgdb=yes'];

mkdirSync(out, { recursive: true });
const children = [];
const stopAll = () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  if (mesh) rmSync(meshWork, { recursive: true, force: true });
};
process.on('exit', stopAll);

const names = ['accounts', 'reviews', 'products', 'inventory'];
const subgraphUrls = {};
for (const [i, name] of names.entries()) {
  const port = BASE + 1 + i;
  const child = spawn(process.execPath, [path.join(root, 'subgraphs', name, 'dist', 'main.js')], { env: { ...process.env, PORT: String(port) }, stdio: 'ignore' });
  children.push(child);
  subgraphUrls[`SUBGRAPH_${name.toUpperCase()}_URL`] = `http://127.0.0.1:${port}/graphql`;
}

const query = readFileSync(path.join(root, 'fixtures', 'user-reviews.graphql'), 'utf8');
const variables = JSON.parse(readFileSync(path.join(root, 'fixtures', 'user-reviews.variables.json'), 'utf8'));
const gatewayUrl = `http://127.0.0.1:${BASE + 10}${mesh ? '/graphql' : '/'}`;

async function post(body, timeoutMs = 600_000) {
  const response = await fetch(gatewayUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const json = await response.json();
  return response.status === 200 && json.data && !json.errors;
}

async function sequential(count) {
  let ok = 0;
  for (let i = 0; i < count; i++) if (await post({ query, variables: variables[i % variables.length], operationName: 'UserReviews' })) ok++;
  return ok;
}

function gcThroughPreload(pid) {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(path.join(out, `profiler-${pid}.sock`));
    let text = '';
    socket.on('connect', () => socket.write(`${JSON.stringify({ op: 'gc' })}\n`));
    socket.on('data', (chunk) => {
      text += chunk;
      if (text.includes('\n')) {
        socket.end();
        resolve(JSON.parse(text.split('\n')[0]));
      }
    });
    socket.on('error', reject);
  });
}

/** The last 64 kB of a file: callgrind writes `totals:` at the end of a dump that may hold more than a string can. */
function tail(file) {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const buffer = Buffer.alloc(Math.min(size, 65536));
    readSync(fd, buffer, 0, buffer.length, size - buffer.length);
    return buffer.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

const control = (args, pid) => execFileSync('callgrind_control', [...args, String(pid)], { stdio: 'ignore', timeout: 600_000 });

await new Promise((r) => setTimeout(r, 1500));
// Legacy Mesh: `mesh build` introspects the running subgraphs into its .mesh artifacts, as gwprof's adapter does.
if (mesh) {
  mkdirSync(meshWork, { recursive: true });
  copyFileSync(path.join(meshDir, '.meshrc.yaml'), path.join(meshWork, '.meshrc.yaml'));
  execFileSync(process.execPath, [meshBin, 'build', '--fileType', 'js', '--dir', meshWork], { cwd: meshWork, env: { ...process.env, ...subgraphUrls }, stdio: 'ignore' });
}
const valgrindArgs = [...CALLGRIND_ARGS, ...valgrindExtra, `--callgrind-out-file=${path.join(out, 'callgrind.out.%p')}`];
const program = mesh ? [meshBin, 'start', '--dir', meshWork] : [gatewayScript];
const nodeArgs = [...V8_FLAGS, ...PROFILE_V8_FLAGS, '--no-logfile-per-isolate', `--logfile=${path.join(out, 'v8.log')}`, ...program];
const gateway = spawn('valgrind', [...valgrindArgs, process.execPath, ...nodeArgs], {
  cwd: mesh ? meshWork : path.dirname(gatewayScript),
  env: {
    ...process.env,
    ...subgraphUrls,
    PORT: String(BASE + 10),
    NODE_OPTIONS: `--require ${path.join(root, 'packages/collect/dist/profiler/preload.cjs')}`,
    GWPROF_PROFILER_DIR: out,
  },
  stdio: ['ignore', 'ignore', 'pipe'],
});
children.push(gateway);
let stderr = '';
gateway.stderr.on('data', (d) => {
  stderr = (stderr + d).slice(-4000);
});
const t0 = Date.now();
for (;;) {
  if (gateway.exitCode !== null) throw new Error(`gateway exited: ${stderr}`);
  try {
    if (await post({ query: '{ __typename }' }, 5000)) break;
  } catch {}
  await new Promise((r) => setTimeout(r, 1000));
}
const startSec = (Date.now() - t0) / 1000;
const t1 = Date.now();
const warmOk = await sequential(warmup);
const warmupSec = (Date.now() - t1) / 1000;
await gcThroughPreload(gateway.pid);
control(['-z'], gateway.pid);
control(['-i', 'on'], gateway.pid);
const t2 = Date.now();
const ok = await sequential(requests);
const batchSec = (Date.now() - t2) / 1000;
control(['-i', 'off'], gateway.pid);
const t3 = Date.now();
control(['--dump=batch'], gateway.pid);
const prefix = `callgrind.out.${gateway.pid}.`;
let dump = null;
let total = null;
while (Date.now() - t3 < 600_000) {
  dump = readdirSync(out).find((f) => f.startsWith(prefix));
  if (dump) {
    const text = tail(path.join(out, dump));
    const match = /^totals:\s+(\d+)/m.exec(text);
    if (match) {
      total = Number(match[1]);
      break;
    }
  }
  await new Promise((r) => setTimeout(r, 200));
}
const dumpSec = (Date.now() - t3) / 1000;
const perfMap = `/tmp/perf-${gateway.pid}.map`;
if (existsSync(perfMap)) {
  copyFileSync(perfMap, path.join(out, 'perf.map'));
  rmSync(perfMap, { force: true });
}
const summary = {
  gateway: mesh ? 'legacy Mesh (mesh start)' : path.relative(root, gatewayScript),
  valgrindExtra,
  requests,
  ok,
  warmup,
  warmOk,
  startSec,
  warmupSec,
  batchSec,
  dumpSec,
  dumpFile: dump,
  dumpBytes: dump ? statSync(path.join(out, dump)).size : null,
  total,
  totalPerRequest: total === null ? null : total / Math.max(1, ok),
};
writeFileSync(path.join(out, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
console.log(JSON.stringify(summary));
stopAll();
process.exit(0);
