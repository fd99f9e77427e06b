/**
 * The requests of a stream as the bytes that go on the wire, encoded once per step: request line,
 * headers and body in one buffer, written with one call. The headers are the ones undici sent
 * before, in the same order, so a gateway sees the same requests as in earlier runs.
 */

/** What every request carries, whichever engine sends it (k6's exported script too). */
export const REQUEST_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

/** Where requests go: the host and port to connect to, the Host header and the request target. */
export interface RequestTarget {
  host: string;
  port: number;
  hostHeader: string;
  path: string;
}

export function requestTarget(url: string): RequestTarget {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:') throw new Error(`the load engine speaks plain HTTP/1.1: ${url}`);
  return {
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: Number(parsed.port || 80),
    hostHeader: parsed.host,
    path: `${parsed.pathname}${parsed.search}`,
  };
}

/** Each body as a whole POST request to `target`. */
export function encodeRequests(target: RequestTarget, bodies: readonly string[]): Buffer[] {
  const headers = Object.entries(REQUEST_HEADERS)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return bodies.map((body) => {
    const bytes = Buffer.from(body);
    const head = `POST ${target.path} HTTP/1.1\r\nhost: ${target.hostHeader}\r\nconnection: keep-alive\r\n${headers}content-length: ${bytes.length}\r\n\r\n`;
    return Buffer.concat([Buffer.from(head, 'latin1'), bytes]);
  });
}
