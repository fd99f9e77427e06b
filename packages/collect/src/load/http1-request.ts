/**
 * The requests of a stream as the bytes that go on the wire, encoded once per step: request line,
 * headers and body in one buffer, written with one call. The headers are the ones undici sent
 * before, in the same order, so a gateway sees the same requests as in earlier runs.
 */

/** What every request carries, whichever engine sends it (k6's exported script too). */
export const REQUEST_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

/** A stream's requests ready to send: where to connect, and each body's whole request by the body's index. */
export interface WireRequests {
  host: string;
  port: number;
  messages: Buffer[];
}

/** Where requests go: the host and port to connect to, the Host header and the request target. */
interface RequestTarget {
  host: string;
  port: number;
  hostHeader: string;
  path: string;
}

/** Each body as a whole POST request to `url`: made once by whoever starts the load, sent by every connection. */
export function wireRequests(url: string, bodies: readonly string[]): WireRequests {
  const target = requestTarget(url);
  return { host: target.host, port: target.port, messages: encodeRequests(target, bodies) };
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

function encodeRequests(target: RequestTarget, bodies: readonly string[]): Buffer[] {
  const headers = Object.entries(REQUEST_HEADERS)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return bodies.map((body) => {
    const bytes = Buffer.from(body);
    const head = `POST ${target.path} HTTP/1.1\r\nhost: ${target.hostHeader}\r\nconnection: keep-alive\r\n${headers}content-length: ${bytes.length}\r\n\r\n`;
    return Buffer.concat([Buffer.from(head, 'latin1'), bytes]);
  });
}
