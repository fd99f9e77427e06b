/**
 * Fan-out when requests come one at a time: how many subgraph requests one gateway request costs
 * when there is nothing in flight to share with. A step's fan-out below this means the gateway
 * merged subgraph calls under load (batching or sharing).
 */
import { Client } from 'undici';
import { hardCapMs } from './exchange.js';
import { REQUEST_HEADERS } from './http1-request.js';
import type { RunningSubgraphs } from '../services/subgraphs.js';
import type { Scenario } from '../scenario/scenario.js';
import { requestBodies } from './request-stream.js';

export interface FanoutAlone {
  requests: number;
  /** Subgraph requests per gateway request; null when the counts could not be read. */
  fanout: number | null;
}

/**
 * The scenario's requests in turn (5 to 20 of them), off the hot path: undici sends them, each
 * awaited (a late one as long as the load engine awaits it) before the next.
 */
export async function measureFanoutAlone(url: string, scenario: Scenario, subgraphs: RunningSubgraphs, timeoutMs: number): Promise<FanoutAlone> {
  const counts = subgraphs.requestCounts;
  if (!counts) return { requests: 0, fanout: null };
  const bodies = requestBodies(scenario);
  const requests = Math.min(20, Math.max(5, scenario.requests.length));
  const target = new URL(url);
  const waitMs = hardCapMs(timeoutMs);
  const client = new Client(target.origin, { pipelining: 1, headersTimeout: waitMs, bodyTimeout: waitMs });
  try {
    const before = await counts();
    for (let i = 0; i < requests; i++) await send(client, `${target.pathname}${target.search}`, bodies[i % bodies.length]!);
    const after = await counts();
    const served = Object.keys(after).reduce((sum, name) => sum + after[name]! - (before[name] ?? 0), 0);
    return { requests, fanout: Math.round((served / requests) * 1000) / 1000 };
  } catch {
    return { requests, fanout: null };
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** One request, its response read whole; what it answered does not matter here, only that it ended. */
async function send(client: Client, path: string, body: string): Promise<void> {
  try {
    const response = await client.request({ path, method: 'POST', headers: REQUEST_HEADERS, body });
    await response.body.arrayBuffer();
  } catch {
    // A failed request still counts as sent: the subgraph counts say what it cost.
  }
}
