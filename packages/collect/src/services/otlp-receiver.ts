/**
 * A local OTLP/HTTP trace receiver (`sweep --trace` on a gateway that exports spans): the gateway
 * is told to export to it, and after each window gwprof takes the spans of its sampled requests by
 * trace id. It listens on 127.0.0.1 only and answers every export with success, as a collector does.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { type ExportedSpan, decodeTraceExport } from './otlp-spans.js';

/** Spans kept between two takes; more are counted as dropped. */
const MAX_SPANS = 200_000;

export interface OtlpReceiver {
  /** Where the gateway exports to: `http://127.0.0.1:PORT` (the gateway adds /v1/traces, or is given endpoint + '/v1/traces'). */
  readonly endpoint: string;
  /** Spans received since the last take, then forgotten; `dropped`: spans past the limit, `rejected`: exports that did not decode. */
  take(): { spans: ExportedSpan[]; dropped: number; rejected: number };
  /** When the last span arrived (performance.now()), or -1 for none since the last take. */
  lastSpanAt(): number;
  close(): Promise<void>;
}

export async function startOtlpReceiver(port = 0): Promise<OtlpReceiver> {
  let spans: ExportedSpan[] = [];
  let dropped = 0;
  let rejected = 0;
  let lastAt = -1;
  const server: Server = createServer((request, response) => {
    if (request.method !== 'POST' || !request.url?.startsWith('/v1/traces')) {
      response.writeHead(404).end();
      return;
    }
    const json = (request.headers['content-type'] ?? '').includes('json');
    readBody(request)
      .then((body) => {
        const received = decodeTraceExport(body, json);
        const room = Math.max(0, MAX_SPANS - spans.length);
        spans.push(...received.slice(0, room));
        dropped += Math.max(0, received.length - room);
        if (received.length > 0) lastAt = performance.now();
        // An empty ExportTraceServiceResponse: full success.
        response.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' }).end(json ? '{}' : '');
      })
      .catch(() => {
        rejected++;
        response.writeHead(400).end();
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    take() {
      const taken = { spans, dropped, rejected };
      spans = [];
      dropped = 0;
      rejected = 0;
      lastAt = -1;
      return taken;
    },
    lastSpanAt: () => lastAt,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  return request.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body;
}
