// The record of how this study's raw data was made, at commit 22eb301 (2026-11-22): it imports that
// build's collect package and scripts/wrk/graphql.lua, both since moved (bench/wrk/graphql.lua).
// Start race at c=300: gwprof's engine vs wrk, alternating, gateway settled before each run.
// Samples the gateway's accept queue (ss) every 100 ms and traces accept4 (perf trace).
import { spawn, execFileSync } from 'node:child_process';
import { writeFileSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os'; import path from 'node:path';
import { acceptQueueLength, DEFAULTS, SCENARIOS, LoadRecorder, RequestStream, bringUp, loadScenario, requestBodies, settleGateway, startClosedLoop } from '../../../packages/collect/dist/index.js';
const C = Number(process.env.C ?? 300), SECS = Number(process.env.SECS ?? 20), RUNS = Number(process.env.RUNS ?? 3);
const tools = (process.env.TOOLS ?? 'gwprof,wrk').split(',');
const out = process.env.OUT ?? 'docs/bench/start-race/out'; execFileSync('mkdir', ['-p', out]);
const scenario = loadScenario(SCENARIOS.varied.files);
const work = mkdtempSync(path.join(os.tmpdir(), 'sr-'));
const bodies = path.join(work, 'bodies.jsonl'); writeFileSync(bodies, requestBodies(scenario).join('\n') + '\n');
const log = (l) => process.stderr.write(l + '\n');
const bed = await bringUp({ gateway: 'mesh', gatewayEnv: {}, subgraphDelayMs: 0, subgraphPorts: DEFAULTS.subgraphPorts, gatewayPort: DEFAULTS.gatewayPort, outDir: work, commandLine: [], onProgress: log });
const url = bed.gateway.url; const port = Number(new URL(url).port); const gwpid = bed.gateway.pid;
const others = execFileSync('taskset', ['-p', '-c', String(process.pid)], { encoding: 'utf8' }).split(':').pop().trim();
const acceptQ = () => Number(execFileSync('ss', ['-ltnH', `( sport = :${port} )`], { encoding: 'utf8' }).trim().split(/\s+/)[1] ?? -1);
async function sample(tag, answered) {
  const t0 = performance.now(); const rows = [];
  const perf = spawn('perf', ['trace', '-e', 'accept4', '-p', String(bed.gateway.serverPid ?? gwpid), '-o', path.join(out, `${tag}.perf.txt`)], { stdio: 'ignore' });
  const timer = setInterval(() => rows.push([Math.round(performance.now() - t0), acceptQ(), answered ? answered() : null]), 100);
  return { t0, stop: () => { clearInterval(timer); perf.kill('SIGINT'); return rows; } };
}
async function gwprofRun(tag) {
  const recorder = new LoadRecorder(performance.now());
  const s = await sample(tag, () => load.answered());
  const load = startClosedLoop({ url, connections: C, timeoutMs: 10000, stream: new RequestStream(scenario), recorder, acceptQueue: process.env.NOQ ? undefined : () => acceptQueueLength(port) });
  await new Promise((r) => setTimeout(r, SECS * 1000 + 20));
  await load.stop(); const rows = s.stop();
  const w = recorder.window(0, SECS);
  return { rows, ok: w.requests.ok, rps: w.requests.ok / SECS, p50: w.latencyMs?.p50, p99: w.latencyMs?.p99, timeouts: w.failureCounts.timeouts, perSec: recorder.okPerSecond(0, SECS) };
}
function wrkRun(tag) {
  return new Promise(async (resolve) => {
    const s = await sample(tag, null);
    const child = spawn('taskset', ['-c', others, 'wrk', '-t1', `-c${C}`, `-d${SECS}s`, '--timeout', '10s', '-s', 'scripts/wrk/graphql.lua', url, '--', bodies], { stdio: ['ignore', 'pipe', 'pipe'] });
    let o = ''; child.stdout.on('data', (d) => (o += d));
    child.on('exit', () => { const rows = s.stop(); const r = JSON.parse(o.split('\n').find((l) => l.startsWith('{"ok"'))); resolve({ rows, ok: r.ok, rps: r.ok / (r.duration_us / 1e6), p50: r.p50_us / 1000, p99: r.p99_us / 1000, timeouts: r.timeouts, max: r.max_us / 1000 }); });
  });
}
const results = [];
const rotate = (xs, k) => xs.map((_, i) => xs[(i + k) % xs.length]);
import http from 'node:http';
async function nodeHttpRun(tag) {
  const s = await sample(tag, null);
  const agent = new http.Agent({ keepAlive: true, maxSockets: C });
  const list = requestBodies(scenario); let next = 0, ok = 0, bad = 0, stop = false; const lat = []; const t0 = performance.now(); const perSec = [];
  const { hostname, port: p, pathname } = new URL(url);
  const one = () => new Promise((resolve) => {
    const body = list[next++ % list.length]; const st = performance.now();
    const req = http.request({ agent, host: hostname, port: p, path: pathname, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let t = ''; res.setEncoding('utf8'); res.on('data', (d) => (t += d)); res.on('end', () => { const at = performance.now(); if (at - t0 <= SECS * 1000) { if (res.statusCode === 200 && t.includes('"data"') && !t.includes('"errors"')) { ok++; lat.push(at - st); const sec = Math.floor((at - t0) / 1000); perSec[sec] = (perSec[sec] ?? 0) + 1; } else bad++; } resolve(); });
    });
    req.on('error', () => { bad++; resolve(); }); req.end(body);
  });
  const loop = async () => { while (!stop) await one(); };
  const loops = Array.from({ length: C }, loop);
  await new Promise((r) => setTimeout(r, SECS * 1000)); stop = true; agent.destroy(); const rows = s.stop();
  lat.sort((a, b) => a - b);
  return { rows, ok, rps: ok / SECS, p50: lat[lat.length >> 1], p99: lat[Math.floor(lat.length * 0.99)], timeouts: null, perSec: Array.from(perSec, (x) => x ?? 0) };
}
const counts = async () => { let n = 0; for (const p of [4001, 4002, 4003, 4004]) n += (await (await fetch(`http://127.0.0.1:${p}/__gwprof/stats`)).json()).requests; return n; };
const cpuTicks = () => { const f = readFileSync(`/proc/${gwpid}/stat`, 'utf8').split(') ')[1].split(' '); return Number(f[11]) + Number(f[12]); };
try {
  log(`gateway ${gwpid} server ${bed.gateway.serverPid} on ${bed.gateway.cpus}, load on ${others}`);
  // warm the gateway like bench-fidelity does
  { const recorder = new LoadRecorder(performance.now()); const l = startClosedLoop({ url, connections: 10, timeoutMs: 10000, stream: new RequestStream(scenario), recorder }); await new Promise((r) => setTimeout(r, 20000)); await l.stop(); }
  for (let run = 1; run <= RUNS; run++) {
    for (const tool of rotate(tools, run)) {
      const st = await settleGateway(gwpid, 60, new AbortController().signal, [port]);
      const tag = `${tool}-${run}`;
      const c0 = await counts(), t0 = cpuTicks();
      const r = tool === 'gwprof' ? await gwprofRun(tag) : tool === 'nodehttp' ? await nodeHttpRun(tag) : await wrkRun(tag);
      const c1 = await counts(), t1 = cpuTicks();
      r.fanout = +((c1 - c0) / r.ok).toFixed(2); r.cpuMsPerOk = +(((t1 - t0) * 10) / r.ok).toFixed(2);
      await new Promise((res) => setTimeout(res, 300));
      const perfTxt = readFileSync(path.join(out, `${tag}.perf.txt`), 'utf8');
      const times = perfTxt.split('\n').filter((l) => l.includes('accept4') && !l.includes('EAGAIN')).map((l) => parseFloat(l));
      const first = times[0] ?? 0; const per = []; for (const t of times) { const s = Math.floor((t - first) / 1000); per[s] = (per[s] ?? 0) + 1; }
      const maxQ = Math.max(...r.rows.map((x) => x[1]));
      const qAt = (ms) => (r.rows.find((x) => x[0] >= ms) ?? [0, -1])[1];
      const line = { tag, settle: st.seconds, ok: r.ok, rps: +r.rps.toFixed(1), p50: r.p50, p99: r.p99, timeouts: r.timeouts, fanout: r.fanout, cpuMsPerOk: r.cpuMsPerOk, perSec: r.perSec, accepts: times.length, acceptsPerSec: Array.from(per.slice(0, 12), (x) => x ?? 0), maxQ, q: [500, 1000, 2000, 5000, 10000].map(qAt), answered: r.rows.filter((x, i) => i % 10 === 9).slice(0, 12).map((x) => x[2]) };
      results.push(line); log(JSON.stringify(line));
      writeFileSync(path.join(out, `${tag}.rows.json`), JSON.stringify(r.rows));
    }
  }
} finally { writeFileSync(path.join(out, 'summary.json'), JSON.stringify(results, null, 1)); await bed.close?.(); }
