import { describe, expect, it } from 'vitest';
import { Http1ParseError, ResponseParser, type Http1Response } from './http1-response-parser.js';

const body = '{"data":{"user":{"id":"1","name":"Ada"}}}';

/** Feeds `raw` in pieces of `size` bytes; returns the response and how many pieces came before it was complete. */
function parseInPieces(raw: string, size: number): { response: Http1Response | null; pieces: number; total: number } {
  const parser = new ResponseParser();
  const bytes = Buffer.from(raw, 'latin1');
  const total = Math.ceil(bytes.length / size);
  for (let i = 0; i < total; i++) {
    const response = parser.push(bytes.subarray(i * size, (i + 1) * size));
    if (response) return { response, pieces: i + 1, total };
  }
  return { response: null, pieces: total, total };
}

const chunked = (parts: string[], extra = '') =>
  `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${parts.map((p) => `${Buffer.byteLength(p).toString(16)}${extra}\r\n${p}\r\n`).join('')}0\r\n\r\n`;

describe('ResponseParser', () => {
  it('reads a Content-Length response in one piece, and the same split at every byte', () => {
    const raw = `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nKeep-Alive: timeout=5\r\n\r\n${body}`;
    for (const size of [raw.length, 1, 2, 7, 64]) {
      const { response, pieces, total } = parseInPieces(raw, size);
      expect(response).toMatchObject({ status: 200, close: false, keepAliveSeconds: 5 });
      expect(response!.body.toString()).toBe(body);
      // Complete with the last byte, not before.
      expect(pieces).toBe(total);
    }
  });

  it('reads a chunked body, with extensions and trailers, whole or a byte at a time', () => {
    const parts = ['{"data":', '{"user":{"id":"1",', '"name":"Ada"}}}'];
    for (const raw of [chunked(parts), chunked(parts, ';ext=1'), chunked(parts).replace(/0\r\n\r\n$/, '0\r\nX-Trailer: yes\r\n\r\n')]) {
      for (const size of [raw.length, 1, 3]) {
        const { response, pieces, total } = parseInPieces(raw, size);
        expect(response!.body.toString()).toBe(body);
        expect(response!.close).toBe(false);
        expect(pieces).toBe(total);
      }
    }
  });

  it('reads a body that runs to the end of the connection, and only when the connection ends', () => {
    const parser = new ResponseParser();
    expect(parser.push(Buffer.from(`HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n${body.slice(0, 10)}`))).toBeNull();
    expect(parser.push(Buffer.from(body.slice(10)))).toBeNull();
    const response = parser.end();
    expect(response).toMatchObject({ status: 200, close: true });
    expect(response!.body.toString()).toBe(body);
  });

  it('gives nothing for a response cut short by the end of the connection', () => {
    const parser = new ResponseParser();
    expect(parser.push(Buffer.from(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`))).toBeNull();
    expect(parser.end()).toBeNull();
    const cutChunked = new ResponseParser();
    expect(cutChunked.push(Buffer.from(chunked([body]).slice(0, -5)))).toBeNull();
    expect(cutChunked.end()).toBeNull();
  });

  it('skips 1xx interim responses, and reads 204 and 304 with no body', () => {
    const raw = `HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\n{}`;
    for (const size of [raw.length, 1]) expect(parseInPieces(raw, size).response).toMatchObject({ status: 201 });
    expect(new ResponseParser().push(Buffer.from('HTTP/1.1 204 No Content\r\n\r\n'))).toMatchObject({ status: 204, close: false });
    expect(new ResponseParser().push(Buffer.from('HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n'))!.body.length).toBe(0);
  });

  it('says when the connection cannot carry another request', () => {
    const close = (head: string) => new ResponseParser().push(Buffer.from(`${head}\r\nContent-Length: 2\r\n\r\n{}`))!.close;
    expect(close('HTTP/1.1 200 OK')).toBe(false);
    expect(close('HTTP/1.1 200')).toBe(false);
    expect(close('HTTP/1.1 200 OK\r\nCONNECTION: CLOSE')).toBe(true);
    // A header whose name only looks like one the parser reads is skipped.
    expect(close('HTTP/1.1 200 OK\r\nX-Connection: close')).toBe(false);
    expect(close('HTTP/1.1 200 OK\r\nConnection: close')).toBe(true);
    expect(close('HTTP/1.1 200 OK\r\nconnection: Keep-Alive, Close')).toBe(true);
    expect(close('HTTP/1.0 200 OK')).toBe(true);
    expect(close('HTTP/1.0 200 OK\r\nConnection: keep-alive')).toBe(false);
    // Bytes after the response belong to no request: the connection is not reused.
    expect(new ResponseParser().push(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}HTTP'))).toMatchObject({ close: true });
  });

  it('keeps what it needs when each piece arrives in the same buffer, overwritten between reads', () => {
    const raws = [
      `HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      chunked(['{"data":', '{"user":{"id":"1",', '"name":"Ada"}}}']),
      `HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n${body}`,
    ];
    for (const raw of raws) {
      for (const size of [1, 5, 16]) {
        const parser = new ResponseParser();
        const reused = Buffer.alloc(size);
        const bytes = Buffer.from(raw, 'latin1');
        let response: Http1Response | null = null;
        for (let at = 0; at < bytes.length && !response; at += size) {
          const length = bytes.copy(reused, 0, at, at + size);
          response = parser.push(reused.subarray(0, length));
          if (response) response = { ...response, body: Buffer.from(response.body) };
          reused.fill(0x78);
        }
        response ??= parser.end();
        expect(response!.body.toString()).toBe(body);
      }
    }
  });

  it('reads one response after another on the same parser', () => {
    const parser = new ResponseParser();
    for (const status of [200, 500, 200]) {
      const response = parser.push(Buffer.from(`HTTP/1.1 ${status} X\r\nContent-Length: 4\r\n\r\n${status === 500 ? 'oops' : 'okay'}`));
      expect(response).toMatchObject({ status });
    }
  });

  it('refuses bytes that are not an HTTP/1.x response', () => {
    const refuses = (raw: string) => expect(() => new ResponseParser().push(Buffer.from(raw))).toThrow(Http1ParseError);
    refuses('<html>hello</html>\r\n\r\n');
    refuses('HTTP/2 200\r\n\r\n');
    refuses('HTTP/1.1 200 OK\r\nContent-Length: 12x\r\n\r\n');
    refuses('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n');
    refuses('HTTP/1.1 200 OK\r\nno colon here\r\n\r\n');
    refuses('HTTP/1.1 20x OK\r\n\r\n');
    refuses('HTTP/1.1 2000 OK\r\n\r\n');
    refuses('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n');
    refuses('HTTP/1.1 101 Switching Protocols\r\n\r\n');
    refuses('HTTP/1.1 200 OK\r\nContent-Length : 2\r\n\r\n{}');
    refuses('HTTP/1.1 200 OK\r\nX-A: 1\r\n  folded\r\nContent-Length: 2\r\n\r\n{}');
    refuses('HTTP/1.1 200 OK\nContent-Length: 2\r\n\r\n{}');
    refuses('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\n{}\r\n0\r\n\r\n');
  });

  it('fails a head as soon as its bytes show it is not HTTP/1.1, before the head is whole', () => {
    const refusesEarly = (partial: string) => expect(() => new ResponseParser().push(Buffer.from(partial))).toThrow(Http1ParseError);
    refusesEarly('HTTP/1.1 200 OK\nContent-Length: 2\n'); // bare LF line ends never make CRLF CRLF
    refusesEarly('HTTP/1.1 200 OK\r\nContent-Length : 2\r\n');
    refusesEarly('HTTP/1.1 200 OK\r\nX: 1\r\n\tfolded\r\n');
    refusesEarly('HTTX');
    refusesEarly('<!DOCTYPE');
    const parser = new ResponseParser();
    expect(parser.push(Buffer.from('HTTP/1.'))).toBeNull();
    expect(() => parser.push(Buffer.from('2 200 OK'))).toThrow(Http1ParseError);
  });

  it('skips line ends between responses: before a head and after a body, the connection stays usable', () => {
    const parser = new ResponseParser();
    const first = parser.push(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}\r\n'));
    expect(first).toMatchObject({ status: 200, close: false });
    expect(parser.idle).toBe(true);
    expect(parser.push(Buffer.from('\r\n'))).toBeNull();
    expect(parser.idle).toBe(true);
    expect(parser.push(Buffer.from('\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n[]'))).toMatchObject({ status: 200, close: false });
    expect(parser.push(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}x'))).toMatchObject({ close: true });
  });

  it('reads a body of many one-byte chunks, and reuses its buffer for the next', () => {
    const parts = Array.from(body, (c) => c);
    const parser = new ResponseParser();
    expect(parser.push(Buffer.from(chunked(parts, ' ; a=b')))!.body.toString()).toBe(body);
    expect(parser.push(Buffer.from(chunked(['{}'])))!.body.toString()).toBe('{}');
  });
});
