/**
 * Fan-out when requests come one at a time: how many subgraph requests one gateway request costs
 * when there is nothing in flight to share with. A step's fan-out below this means the gateway
 * merged subgraph calls under load (batching or sharing).
 */
import { InFlight, exchangeOnce } from './exchange.js';
import { Http1Connection } from './http1-connection.js';
import { encodeRequests, requestTarget } from './http1-request.js';
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
  const target = requestTarget(url);
  const messages = encodeRequests(target, stream.bodies);
  const connection = new Http1Connection(target.host, target.port);
  const inFlight = new InFlight(timeoutMs);
  try {
    const before = await counts();
    for (let i = 0; i < requests; i++) {
      const request = stream.take();
      await exchangeOnce(connection, messages[request.index]!, request, stream, inFlight);
    }
    const after = await counts();
    const served = Object.keys(after).reduce((sum, name) => sum + after[name]! - (before[name] ?? 0), 0);
    return { requests, fanout: Math.round((served / requests) * 1000) / 1000 };
  } catch {
    return { requests, fanout: null };
  } finally {
    inFlight.abortAll();
    connection.close();
  }
}
