/**
 * The exported k6 script, run in Node with stand-ins for k6's modules: it validates responses as
 * gwprof does (same verdict on every case), counts ok and failed apart, takes request i on
 * iteration i, and sets the executor the load asks for.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { VARIED_QUERY } from '../defaults.js';
import { loadScenario } from '../scenario/fixtures.js';
import { validateResponse } from '../scenario/validate-response.js';
import { k6Data, k6Script } from './k6-script.js';

const STUBS = `
const __k6 = globalThis.__k6;
const http = { post: (url, body, params) => { __k6.posts.push({ url, body, params }); return __k6.respond(body); } };
const exec = { scenario: { get iterationInTest() { return __k6.iteration; } } };
const check = (value, checks) => { for (const f of Object.values(checks)) __k6.checks.push(f(value)); };
class SharedArray { constructor(name, make) { return make(); } }
class Counter { constructor(name) { this.name = name; } add(n, tags) { if (this.name === 'gwprof_ok') __k6.ok += n; else __k6.failed.push(tags.kind); } }
class Trend { add(ms) { __k6.durations.push(ms); } }
const __ENV = {};
const open = () => __k6.data;
`;

interface K6Module {
  default: () => void;
  gwprofVerdict: (status: number, body: string, expected: unknown) => { ok: boolean; kind?: string };
  options: { scenarios: { gwprof: Record<string, unknown> } };
}

const scenario = loadScenario(VARIED_QUERY);
const data = k6Data(scenario);
const requests = (JSON.parse(data) as { requests: Array<{ body: string; expected: unknown }> }).requests;
const state = {
  data,
  iteration: 0,
  posts: [] as Array<{ body: string }>,
  checks: [] as boolean[],
  ok: 0,
  failed: [] as string[],
  durations: [] as number[],
  respond: (_body: string): unknown => null,
};
(globalThis as Record<string, unknown>).__k6 = state;

async function load(script: string): Promise<K6Module> {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'gwprof-k6-')), 'script.mjs');
  writeFileSync(file, STUBS + script.replace(/^import .*$/gm, ''));
  return (await import(pathToFileURL(file).href)) as K6Module;
}

const base = { url: 'http://127.0.0.1:4000/graphql', durationSec: 30, timeoutSec: 10, dataFile: 'data.json', source: 'varied' };

describe('gwprof export k6', () => {
  it('gives the same verdict as gwprof on every kind of response', async () => {
    const k6 = await load(k6Script({ ...base, load: { kind: 'closed', concurrency: 10 } }));
    const golden = requests[3]!.expected as Record<string, unknown>;
    const reordered = Object.fromEntries(Object.entries(golden).reverse());
    const cases: Array<[number, string, unknown]> = [
      [200, JSON.stringify({ data: golden }), golden],
      [200, JSON.stringify({ data: reordered }), golden],
      [200, JSON.stringify({ data: { ...golden, extra: 1 } }), golden],
      [200, JSON.stringify({ data: { me: null } }), golden],
      [200, JSON.stringify({ data: golden, errors: [{ message: 'boom' }] }), golden],
      [200, JSON.stringify({ errors: { message: 'not a list' } }), golden],
      [200, JSON.stringify({ data: null }), golden],
      [200, '<html>', golden],
      [200, '42', golden],
      [500, JSON.stringify({ data: golden }), golden],
      [204, '', null],
      [200, JSON.stringify({ data: { anything: [1, 2] } }), null],
    ];
    for (const [status, body, expected] of cases) {
      const ours = validateResponse(status, body, { order: null, expected });
      const theirs = k6.gwprofVerdict(status, body, expected);
      expect({ body, ok: theirs.ok, kind: theirs.kind }).toEqual({ body, ok: ours.ok, kind: ours.ok ? undefined : ours.kind });
    }
  });

  it('sends request i on iteration i, and counts only validated responses as ok', async () => {
    const k6 = await load(k6Script({ ...base, load: { kind: 'closed', concurrency: 10 } }));
    const byBody = new Map(requests.map((r) => [r.body, r.expected]));
    state.respond = (body) => ({ status: 200, body: JSON.stringify({ data: byBody.get(body) }), timings: { duration: 12.5 } });
    for (const iteration of [0, 1, 1999, 2000, 2003]) {
      state.iteration = iteration;
      k6.default();
    }
    expect(state.posts.map((p) => p.body)).toEqual([0, 1, 1999, 0, 3].map((i) => requests[i]!.body));
    expect(state.ok).toBe(5);
    expect(state.durations).toEqual([12.5, 12.5, 12.5, 12.5, 12.5]);
    // A rejected query fails its check and is counted as failed, never as ok.
    state.respond = () => ({ status: 400, body: JSON.stringify({ errors: [{ message: 'Cannot query field' }] }), timings: { duration: 1 } });
    k6.default();
    state.respond = () => ({ status: 0, error_code: 1050, error: 'request timeout', body: null, timings: { duration: 10000 } });
    k6.default();
    expect(state.ok).toBe(5);
    expect(state.failed).toEqual(['non2xx', 'timeouts']);
    expect(state.checks.slice(-2)).toEqual([false, false]);
  });

  it('holds connections with constant VUs, or a rate with arrivals dropped beyond the in-flight cap', async () => {
    const closed = await load(k6Script({ ...base, load: { kind: 'closed', concurrency: 100 } }));
    expect(closed.options.scenarios.gwprof).toEqual({ executor: 'constant-vus', vus: 100, duration: '30s' });
    const open = await load(k6Script({ ...base, load: { kind: 'open', targetRps: 150, arrivals: 'uniform', maxInFlight: 500 } }));
    expect(open.options.scenarios.gwprof).toMatchObject({ executor: 'constant-arrival-rate', rate: 150, timeUnit: '1s', maxVUs: 500 });
  });
});
