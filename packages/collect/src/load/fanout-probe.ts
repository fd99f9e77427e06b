/**
 * Fan-out when requests come one at a time: how many subgraph requests one gateway request costs
 * when there is nothing in flight to share with. A step's fan-out below this means the gateway
 * merged subgraph calls under load (batching or sharing).
 */
import { keepAliveClient } from './connections.js';
import { InFlight, exchange } from './exchange.js';
import type { RequestStream } from './request-stream.js';
import type { RunningSubgraphs } from '../subgraphs.js';

export interface FanoutAlone {
  requests: number;
  /** Subgraph requests per gateway request; null when the counts could not be read. */
  fanout: number | null;
}

export async function measureFanoutAlone(
  url: string,
  stream: RequestStream,
  subgraphs: RunningSubgraphs,
  requests: number,
  timeoutMs: number,
): Promise<FanoutAlone> {
  const counts = subgraphs.requestCounts;
  if (!counts) return { requests: 0, fanout: null };
  const { origin, pathname } = new URL(url);
  const client = keepAliveClient(origin);
  const inFlight = new InFlight(timeoutMs);
  try {
    const before = await counts();
    for (let i = 0; i < requests; i++) await exchange(client, pathname, stream.take(), stream, inFlight, performance.now(), () => undefined);
    const after = await counts();
    const served = Object.keys(after).reduce((sum, name) => sum + after[name]! - (before[name] ?? 0), 0);
    return { requests, fanout: Math.round((served / requests) * 1000) / 1000 };
  } catch {
    return { requests, fanout: null };
  } finally {
    inFlight.abortAll();
    await client.close().catch(() => undefined);
  }
}
