/**
 * Closed-loop load: N connections, each sending its next request as soon as the previous response
 * has arrived, for as long as the step runs. Every response is validated and recorded by the
 * second it completed in.
 */
import type { Client } from 'undici';
import { acceptQueueLength } from '../listening-pid.js';
import { openConnections } from './connections.js';
import { InFlight, exchange } from './exchange.js';
import type { Completion, LoadRecorder } from './recorder.js';
import type { RequestStream } from './request-stream.js';
import type { LoadEngine } from './load-engine.js';

export interface ClosedLoopOptions {
  url: string;
  connections: number;
  timeoutMs: number;
  stream: RequestStream;
  recorder: LoadRecorder;
  /**
   * Connections waiting in the gateway's accept queue: sending starts once it has accepted every
   * connection. Default: the listening socket on the URL's port (load goes to loopback only).
   */
  acceptQueue?: () => number;
}

/** After a connection-level failure, wait this long before the next request so a dead server is not hammered in a tight loop. */
const SOCKET_ERROR_PAUSE_MS = 10;

export function startClosedLoop(options: ClosedLoopOptions): LoadEngine {
  const { origin, pathname } = new URL(options.url);
  const inFlight = new InFlight(options.timeoutMs);
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
  const port = Number(new URL(options.url).port);
  const opening = openConnections(origin, options.connections, options.acceptQueue ?? (() => acceptQueueLength(port)));
  const loops = opening.then((opened) => Promise.all(opened.clients.map((client) => run(client))));

  return {
    answered: () => answered,
    async stop() {
      stopped = true;
      inFlight.abortAll();
      // If it stops while connections are still opening, they are closed as soon as they are open.
      await (await opening).close();
      await loops;
    },
  };
}
