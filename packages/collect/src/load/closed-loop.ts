/**
 * Closed-loop load: N connections, each sending its next request as soon as the previous response
 * has arrived, for as long as the step runs. Every response is validated and recorded by the
 * second it completed in.
 */
import type { Client } from 'undici';
import { InFlight, exchange, openConnection } from './exchange.js';
import type { Completion, LoadRecorder } from './recorder.js';
import type { RequestStream } from './request-stream.js';

export interface LoadEngine {
  /** Stops sending, abandons what is in flight and closes every connection. */
  stop(): Promise<void>;
  /** Closed loop: connections that have had a first response (or failure); null for open loop. */
  answered(): number | null;
}

export interface ClosedLoopOptions {
  url: string;
  connections: number;
  timeoutMs: number;
  stream: RequestStream;
  recorder: LoadRecorder;
}

/** After a connection-level failure, wait this long before the next request so a dead server is not hammered in a tight loop. */
const SOCKET_ERROR_PAUSE_MS = 10;

export function startClosedLoop(options: ClosedLoopOptions): LoadEngine {
  const { origin, pathname } = new URL(options.url);
  const inFlight = new InFlight(options.timeoutMs);
  const clients: Client[] = Array.from({ length: options.connections }, () => openConnection(origin));
  const { recorder, stream } = options;
  let stopped = false;
  let answered = 0;

  const run = async (client: Client): Promise<void> => {
    let first = true;
    while (!stopped) {
      const request = stream.take();
      recorder.onSend(performance.now());
      const onTimeout = (at: number, timeout: Completion) => !stopped && recorder.onTimedOut(at, timeout);
      const { completion, at } = await exchange(client, pathname, request, stream, inFlight, performance.now(), onTimeout);
      if (stopped) return;
      if (first) answered++;
      first = false;
      if (completion) recorder.onComplete(at, completion);
      else recorder.onSettled();
      if (completion && !completion.ok && completion.kind === 'socketErrors') await new Promise((r) => setTimeout(r, SOCKET_ERROR_PAUSE_MS));
    }
  };
  const loops = clients.map((client) => run(client));

  return {
    answered: () => answered,
    async stop() {
      stopped = true;
      inFlight.abortAll();
      await Promise.all(clients.map((client) => client.destroy().catch(() => undefined)));
      await Promise.all(loops);
    },
  };
}
