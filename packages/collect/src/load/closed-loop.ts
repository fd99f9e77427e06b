/**
 * Closed-loop load: N connections, each sending its next request as soon as the previous response
 * has arrived, for as long as the step runs. Every response is validated and recorded by the
 * second it completed in.
 */
import { acceptQueueLength } from '../processes/listening-pid.js';
import { openConnections } from './connections.js';
import { InFlight, exchange } from './exchange.js';
import type { Http1Connection } from './http1-connection.js';
import type { WireRequests } from './http1-request.js';
import type { Completion, LoadRecorder } from './recorder.js';
import type { RequestStream } from './request-stream.js';
import type { LoadEngine } from './load-engine.js';
import type { RequestTraces } from './request-traces.js';

export interface ClosedLoopOptions {
  /** The stream's requests, encoded for the gateway. */
  wire: WireRequests;
  connections: number;
  timeoutMs: number;
  stream: RequestStream;
  recorder: LoadRecorder;
  /**
   * Connections waiting in the gateway's accept queue: sending starts once it has accepted every
   * connection. Default: the listening socket on the wire's port (load goes to loopback only).
   */
  acceptQueue?: () => number;
  /** A traceparent on every request (the wire must be encoded traced), and the window's sample. */
  traces?: RequestTraces;
}

/** After a connection-level failure, wait this long before the next request so a dead server is not hammered in a tight loop. */
const SOCKET_ERROR_PAUSE_MS = 10;

export function startClosedLoop(options: ClosedLoopOptions): LoadEngine {
  const inFlight = new InFlight(options.timeoutMs);
  const { wire, recorder, stream, traces } = options;
  let stopped = false;
  let answered = 0;
  const onTimeout = (at: number, timeout: Completion) => !stopped && recorder.onTimedOut(at, timeout);

  /** One connection's loop: the next request as soon as the last one ended; resolves once the load stopped. */
  const run = (connection: Http1Connection): Promise<void> =>
    new Promise((finished) => {
      let first = true;
      let sentAt = 0;
      /** The request outstanding's trace number when it is sampled, 0 otherwise. */
      let sampled = 0;
      const next = (): void => {
        if (stopped) {
          finished();
          return;
        }
        const request = stream.take();
        sentAt = performance.now();
        recorder.onSend(sentAt);
        const message = wire.messages[request.index]!;
        if (traces) sampled = traces.stamp(message, wire.traceAt!, sentAt);
        exchange(connection, message, request, stream, inFlight, sentAt, onTimeout, ended);
        traces?.release(wire, request.index, connection);
      };
      const ended = (completion: Completion | null, at: number): void => {
        if (stopped) {
          finished();
          return;
        }
        if (first) answered++;
        first = false;
        if (completion) recorder.onComplete(at, completion);
        else recorder.onSettled();
        if (sampled !== 0 && completion?.ok) traces!.onAnswered(sampled, sentAt, at);
        if (completion && !completion.ok && (completion.kind === 'socketErrors' || completion.kind === 'protocolErrors'))
          setTimeout(next, SOCKET_ERROR_PAUSE_MS);
        else next();
      };
      next();
    });
  const opening = openConnections(wire.host, wire.port, options.connections, options.acceptQueue ?? (() => acceptQueueLength(wire.port)), () =>
    recorder.onConnect(performance.now()),
  );
  const loops = opening.then((opened) => Promise.all(opened.connections.map((connection) => run(connection))));

  return {
    answered: () => answered,
    async stop() {
      stopped = true;
      inFlight.abortAll();
      // If it stops while connections are still opening, they are closed as soon as they are open.
      (await opening).close();
      await loops;
    },
  };
}
