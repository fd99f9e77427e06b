/**
 * The requests of a stream as the bytes that go on the wire, encoded once per step: request line,
 * headers and body in one buffer, written with one call. The headers are the ones undici sent
 * before, in the same order, so a gateway sees the same requests as in earlier runs. Traced
 * (`--trace`), a `traceparent` header comes first, at the same offset in every request, where each
 * request's trace id is written just before it is sent (request-traces.ts).
 */

/** The header line as encoded before the first stamp: version 00, a zero trace and parent id, flags 00. */
export const TRACEPARENT_PLACEHOLDER = `traceparent: 00-${'0'.repeat(32)}-${'0'.repeat(16)}-00\r\n`;

/** What every request carries, whichever engine sends it (k6's exported script too). */
export const REQUEST_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

/** A stream's requests ready to send: where to connect, and each body's whole request by the body's index. */
export interface WireRequests {
  host: string;
  port: number;
  messages: Buffer[];
  /** Traced: where each message's trace id begins (the same offset in all); absent: no traceparent. */
  traceAt?: number;
}

/** Where requests go: the host and port to connect to, the Host header and the request target. */
interface RequestTarget {
  host: string;
  port: number;
  hostHeader: string;
  path: string;
}

/** Each body as a whole POST request to `url`: made once by whoever starts the load, sent by every connection. */
export function wireRequests(url: string, bodies: readonly string[], { traced = false } = {}): WireRequests {
  const target = requestTarget(url);
  const requestLine = `POST ${target.path} HTTP/1.1\r\n`;
  const wire = { host: target.host, port: target.port, messages: encodeRequests(requestLine, target, bodies, traced) };
  // The line is latin1 (a URL's path is ASCII once parsed): its length is its bytes'.
  return traced ? { ...wire, traceAt: requestLine.length + TRACEPARENT_PLACEHOLDER.indexOf('00-') + 3 } : wire;
}

function requestTarget(url: string): RequestTarget {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:') throw new Error(`the load engine speaks plain HTTP/1.1: ${url}`);
  return {
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: Number(parsed.port || 80),
    hostHeader: parsed.host,
    path: `${parsed.pathname}${parsed.search}`,
  };
}

function encodeRequests(requestLine: string, target: RequestTarget, bodies: readonly string[], traced: boolean): Buffer[] {
  const headers = Object.entries(REQUEST_HEADERS)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const traceparent = traced ? TRACEPARENT_PLACEHOLDER : '';
  return bodies.map((body) => {
    const bytes = Buffer.from(body);
    const head = `${requestLine}${traceparent}host: ${target.hostHeader}\r\nconnection: keep-alive\r\n${headers}content-length: ${bytes.length}\r\n\r\n`;
    return Buffer.concat([Buffer.from(head, 'latin1'), bytes]);
  });
}
