/**
 * HTTP/1.1 responses read from a connection's bytes, one request at a time: the status, the whole
 * body (Content-Length, chunked, or up to the end of the connection) and whether the connection
 * can carry another request. 1xx interim responses are skipped. The usual case, a whole response
 * in one read with a Content-Length, costs one scan for the end of the head and no copy.
 */

export interface Http1Response {
  status: number;
  body: Buffer;
  /** The connection cannot carry another request (Connection: close, HTTP/1.0, a body that ran to its end, stray bytes after it). */
  close: boolean;
  /** How long the server keeps an idle connection open, when it says (Keep-Alive: timeout=N), seconds. */
  keepAliveSeconds: number | null;
}

/** The bytes are not an HTTP/1.1 response: the connection is unusable. */
export class Http1ParseError extends Error {
  readonly code = 'HTTP_PARSE';
}

interface Head {
  status: number;
  close: boolean;
  keepAliveSeconds: number | null;
  /** Content-Length, or null: chunked when `chunked`, else up to the end of the connection. */
  contentLength: number | null;
  chunked: boolean;
}

const CR = 0x0d;
const LF = 0x0a;
const HEAD_END = Buffer.from('\r\n\r\n');
const MAX_HEAD_BYTES = 64 * 1024;
const MAX_CHUNK_LINE_BYTES = 4 * 1024;
/** A chunked body is gathered into a buffer of the parser's own, reused from one response to the next. */
const FIRST_CHUNKED_BODY_BYTES = 16 * 1024;

/** Where a chunked body's reading stands: a size line, data, the CR and LF after it, a trailer line. */
const Chunk = { Size: 0, Data: 1, DataCr: 2, DataLf: 3, Trailer: 4 } as const;
type ChunkState = (typeof Chunk)[keyof typeof Chunk];

export class ResponseParser {
  /** Bytes received and not yet consumed. */
  private unread: Buffer | null = null;
  /** The head of the response whose body is being read; null while reading a head. */
  private head: Head | null = null;
  /** While a head is incomplete: where its first line not yet checked begins. */
  private headChecked = 0;
  private parts: Buffer[] = [];
  private partsLength = 0;
  /** How many of `parts` are copies of their own (the others view the caller's chunk). */
  private ownedParts = 0;
  private chunk: ChunkState = Chunk.Size;
  /** Bytes left in the current chunk. */
  private chunkLeft = 0;
  private chunkedBody: Buffer | null = null;
  private chunkedLength = 0;

  /** True when no response has begun: the connection is between responses. */
  get idle(): boolean {
    return this.unread === null && this.head === null;
  }

  /**
   * Takes the next bytes; returns the response once it is complete. Throws Http1ParseError as soon
   * as the bytes show they are not HTTP/1.1 (a bad status line or header line, a bare LF, a folded
   * header, a bad chunk). `chunk` may be overwritten after the call (a reused read buffer): what the
   * parser keeps of an incomplete response it copies, and a complete response's body is valid until
   * the next call.
   */
  push(chunk: Buffer): Http1Response | null {
    this.unread = this.unread === null ? chunk : Buffer.concat([this.unread, chunk]);
    while (this.head === null) {
      if (!this.readHead()) return this.keep();
    }
    return this.readBody() ? this.finish() : this.keep();
  }

  /** Copies what the parser holds of the caller's chunk, before the chunk is reused. */
  private keep(): null {
    if (this.unread) this.unread = Buffer.from(this.unread);
    for (; this.ownedParts < this.parts.length; this.ownedParts++) this.parts[this.ownedParts] = Buffer.from(this.parts[this.ownedParts]!);
    return null;
  }

  /** The connection ended: the response whose body runs to the end of the connection, else null (none, or cut short). */
  end(): Http1Response | null {
    if (this.head === null || this.head.chunked || this.head.contentLength !== null) return null;
    if (this.unread) this.take(this.unread.length);
    return this.finish();
  }

  /** Reads a head if a whole one has arrived; a 1xx interim response is consumed and skipped. */
  private readHead(): boolean {
    let bytes = this.unread!;
    if (bytes[0] === CR || bytes[0] === LF) {
      // Line ends between responses are skipped, as llhttp does.
      const from = skipLineEnds(bytes, 0);
      if (from === bytes.length) {
        this.unread = null;
        return false;
      }
      bytes = this.unread = bytes.subarray(from);
    }
    const end = bytes.indexOf(HEAD_END, this.headChecked > 2 ? this.headChecked - 2 : 0);
    if (end === -1) {
      // An incomplete head is checked as far as it goes: bytes that are not HTTP fail now, not at a timeout.
      this.headChecked = checkLines(bytes, this.headChecked);
      if (bytes.length > MAX_HEAD_BYTES) throw new Http1ParseError(`response head longer than ${MAX_HEAD_BYTES} bytes`);
      return false;
    }
    const head = parseHead(bytes, end);
    this.headChecked = 0;
    this.unread = end + 4 < bytes.length ? bytes.subarray(end + 4) : null;
    if (head.status >= 100 && head.status < 200) {
      if (head.status === 101) throw new Http1ParseError('unexpected protocol switch (101)');
      return this.unread !== null;
    }
    this.head = head;
    return true;
  }

  /** Reads what the body's framing allows; true when the body is complete. */
  private readBody(): boolean {
    const head = this.head!;
    if (head.chunked) return this.unread !== null && this.readChunks(this.unread);
    if (head.contentLength === null) {
      if (this.unread) this.take(this.unread.length);
      return false;
    }
    const missing = head.contentLength - this.partsLength;
    if (this.unread) this.take(Math.min(missing, this.unread.length));
    return this.partsLength === head.contentLength;
  }

  /**
   * Reads chunks from `bytes`, by index: no view per chunk and no string per size line, so a body
   * of many small chunks costs little more than one of a few. Their data is copied into the
   * parser's own buffer (`chunkedBody`).
   */
  private readChunks(bytes: Buffer): boolean {
    const length = bytes.length;
    let at = 0;
    let done = false;
    while (at < length && !done) {
      switch (this.chunk) {
        case Chunk.Data: {
          const count = Math.min(this.chunkLeft, length - at);
          this.appendChunkData(bytes, at, count);
          at += count;
          this.chunkLeft -= count;
          if (this.chunkLeft === 0) this.chunk = Chunk.DataCr;
          break;
        }
        case Chunk.DataCr:
        case Chunk.DataLf:
          if (bytes[at] !== (this.chunk === Chunk.DataCr ? CR : LF)) throw new Http1ParseError('chunk not followed by CRLF');
          at++;
          this.chunk = this.chunk === Chunk.DataCr ? Chunk.DataLf : Chunk.Size;
          break;
        default: {
          const lf = bytes.indexOf(LF, at);
          if (lf === -1) {
            if (length - at > MAX_CHUNK_LINE_BYTES) throw new Http1ParseError('chunk line too long');
            this.unread = bytes.subarray(at);
            return false;
          }
          if (lf === at || bytes[lf - 1] !== CR) throw new Http1ParseError('chunk line ended by a bare LF');
          if (this.chunk === Chunk.Size) {
            const size = chunkSize(bytes, at, lf - 1);
            this.chunk = size === 0 ? Chunk.Trailer : Chunk.Data;
            this.chunkLeft = size;
          } else if (lf - 1 === at) {
            done = true; // the empty line after the trailers
          }
          at = lf + 1;
        }
      }
    }
    this.unread = at < length ? bytes.subarray(at) : null;
    return done;
  }

  private appendChunkData(bytes: Buffer, from: number, count: number): void {
    const needed = this.chunkedLength + count;
    let body = this.chunkedBody;
    if (body === null || body.length < needed) {
      const grown = Buffer.allocUnsafe(Math.max(needed, FIRST_CHUNKED_BODY_BYTES, (body?.length ?? 0) * 2));
      if (body !== null) body.copy(grown, 0, 0, this.chunkedLength);
      this.chunkedBody = body = grown;
    }
    bytes.copy(body, this.chunkedLength, from, from + count);
    this.chunkedLength = needed;
  }

  /** Moves `count` unread bytes into the body; returns `count`. */
  private take(count: number): number {
    const bytes = this.unread!;
    this.parts.push(count === bytes.length ? bytes : bytes.subarray(0, count));
    this.partsLength += count;
    this.unread = count < bytes.length ? bytes.subarray(count) : null;
    return count;
  }

  private finish(): Http1Response {
    const head = this.head!;
    const body = head.chunked
      ? this.chunkedBody === null
        ? Buffer.alloc(0)
        : this.chunkedBody.subarray(0, this.chunkedLength)
      : this.parts.length === 1
        ? this.parts[0]!
        : Buffer.concat(this.parts, this.partsLength);
    // Line ends after a response are skipped (llhttp does); any other byte belongs to no request (one request at a time).
    const rest = this.unread === null ? 0 : this.unread.length - skipLineEnds(this.unread, 0);
    const close = head.close || (head.contentLength === null && !head.chunked) || rest > 0;
    this.unread = null;
    this.head = null;
    this.parts = [];
    this.partsLength = 0;
    this.ownedParts = 0;
    this.chunk = Chunk.Size;
    this.chunkedLength = 0;
    return { status: head.status, body, close, keepAliveSeconds: head.keepAliveSeconds };
  }
}

/** The index of the first byte at or after `from` that is neither CR nor LF. */
function skipLineEnds(bytes: Buffer, from: number): number {
  let at = from;
  while (at < bytes.length && (bytes[at] === CR || bytes[at] === LF)) at++;
  return at;
}

const isHexDigit = (byte: number): boolean => (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66);

/** The size of a chunk line `bytes[from, to)`: hex digits, then optional whitespace and extensions after `;`. */
function chunkSize(bytes: Buffer, from: number, to: number): number {
  let size = 0;
  let at = from;
  while (at < to && isHexDigit(bytes[at]!) && at - from < 12) {
    const byte = bytes[at]! | 0x20;
    size = size * 16 + (byte <= 0x39 ? byte - 0x30 : byte - 0x57);
    at++;
  }
  let rest = at;
  while (rest < to && (bytes[rest] === 0x20 || bytes[rest] === 0x09)) rest++;
  if (at === from || (rest < to && bytes[rest] !== 0x3b))
    throw new Http1ParseError(`bad chunk size ${JSON.stringify(bytes.toString('latin1', from, Math.min(to, from + 40)))}`);
  return size;
}

/** What a head's scan gathers besides the head itself. */
interface HeadScan {
  transferEncoding: string | null;
  http10: boolean;
}

/** Header names the parser reads, lower case; every other header is skipped without being decoded. */
const FRAMING_HEADERS = ['content-length', 'transfer-encoding', 'connection', 'keep-alive'] as const;
type FramingHeader = (typeof FRAMING_HEADERS)[number];
const FRAMING_NAMES = FRAMING_HEADERS.map((name) => Buffer.from(name));

/** RFC 9110 tchar: the bytes a header name may hold. */
const TOKEN = new Uint8Array(256);
for (const char of "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") TOKEN[char.charCodeAt(0)] = 1;

/**
 * The status line and the headers that frame the body and say whether the connection stays open,
 * from the head's bytes (`bytes[0, end)`, without its final CRLF CRLF). It works on the bytes and
 * decodes only the values of the headers it reads: on a response that wakes the load generator on
 * its own, caches are cold and every string and regular expression per response shows.
 */
export function parseHead(bytes: Buffer, end: number): Head {
  const head: Head = { status: 0, close: false, keepAliveSeconds: null, contentLength: null, chunked: false };
  const scan: HeadScan = { transferEncoding: null, http10: false };
  checkLines(bytes, 0, end + 2, head, scan);
  if (head.status === 204 || head.status === 304 || (head.status >= 100 && head.status < 200)) {
    head.contentLength = 0;
  } else if (scan.transferEncoding !== null) {
    // RFC 9112 6.3: chunked last frames the body; any other coding runs to the end of the connection.
    head.chunked = scan.transferEncoding.toLowerCase().split(',').pop()!.trim() === 'chunked';
    head.contentLength = null;
  }
  return head;
}

/**
 * Checks the whole lines of a head in `bytes[from, limit)`, `from` being a line's start; with
 * `head`, also reads the status and framing headers into it. Returns where the first line not
 * checked begins. A head still arriving is checked as far as its bytes go: the status line's
 * prefix at once, every other line when its line end has arrived.
 */
function checkLines(
  bytes: Buffer,
  from: number,
  limit = bytes.length,
  head: Head | null = null,
  scan: HeadScan = { transferEncoding: null, http10: false },
): number {
  if (from === 0 && !startsLikeStatusLine(bytes)) throw notHttp(bytes, Math.min(limit, bytes.length));
  let start = from;
  for (;;) {
    const lf = bytes.indexOf(LF, start);
    if (lf === -1 || lf >= limit) return start;
    if (lf === start || bytes[lf - 1] !== CR) throw new Http1ParseError('head line ended by a bare LF');
    const lineEnd = lf - 1;
    if (start === 0) {
      if (!isStatusLine(bytes, lineEnd)) throw notHttp(bytes, lineEnd);
      if (head !== null) {
        head.status = (bytes[9]! - 0x30) * 100 + (bytes[10]! - 0x30) * 10 + (bytes[11]! - 0x30);
        scan.http10 = head.close = bytes[7] === 0x30;
      }
    } else if (lineEnd > start) {
      headerLine(bytes, start, lineEnd, head, scan);
    }
    start = lf + 1;
  }
}

function notHttp(bytes: Buffer, end: number): Http1ParseError {
  return new Http1ParseError(`not an HTTP/1.x response: ${JSON.stringify(bytes.toString('latin1', 0, Math.min(end, 40)))}`);
}

/** One header line `bytes[start, lineEnd)`: a token, a colon, a value without CR; framing headers read into `head`. */
function headerLine(bytes: Buffer, start: number, lineEnd: number, head: Head | null, scan: HeadScan): void {
  const first = bytes[start];
  if (first === 0x20 || first === 0x09) throw new Http1ParseError('folded header line (obs-fold)');
  let colon = start;
  while (colon < lineEnd && TOKEN[bytes[colon]!] === 1) colon++;
  if (colon === start || colon === lineEnd || bytes[colon] !== 0x3a || bytes.indexOf(CR, colon) !== lineEnd)
    throw new Http1ParseError(`bad header line ${JSON.stringify(bytes.toString('latin1', start, Math.min(lineEnd, start + 40)))}`);
  if (head === null) return;
  const header = framingHeader(bytes, start, colon);
  if (header !== null) readFramingHeader(head, header, bytes.toString('latin1', colon + 1, lineEnd).trim(), scan);
}

function readFramingHeader(head: Head, header: FramingHeader, value: string, scan: HeadScan): void {
  switch (header) {
    case 'content-length': {
      const length = /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
      if (Number.isNaN(length) || (head.contentLength !== null && head.contentLength !== length)) throw new Http1ParseError(`bad content-length ${value}`);
      head.contentLength = length;
      break;
    }
    case 'transfer-encoding':
      scan.transferEncoding = scan.transferEncoding === null ? value : `${scan.transferEncoding}, ${value}`;
      break;
    case 'connection': {
      const options = value.toLowerCase();
      if (/(?:^|[\s,])close(?:$|[\s,])/.test(options)) head.close = true;
      else if (scan.http10 && /(?:^|[\s,])keep-alive(?:$|[\s,])/.test(options)) head.close = false;
      break;
    }
    case 'keep-alive': {
      const timeout = /(?:^|[\s,])timeout=(\d+)/i.exec(value);
      if (timeout) head.keepAliveSeconds = Number(timeout[1]);
      break;
    }
  }
}

const isDigit = (byte: number | undefined): boolean => byte !== undefined && byte >= 0x30 && byte <= 0x39;
const STATUS_PREFIX = Buffer.from('HTTP/1.1 ');

/** The bytes so far could begin `HTTP/1.0 ` or `HTTP/1.1 `. */
function startsLikeStatusLine(bytes: Buffer): boolean {
  const length = Math.min(bytes.length, STATUS_PREFIX.length);
  for (let i = 0; i < length; i++) {
    if (bytes[i] !== STATUS_PREFIX[i] && !(i === 7 && bytes[i] === 0x30)) return false;
  }
  return true;
}

/** `HTTP/1.0 ` or `HTTP/1.1 `, three digits, then a space or the end of the line. */
function isStatusLine(bytes: Buffer, end: number): boolean {
  if (end < 12 || !startsLikeStatusLine(bytes)) return false;
  if (!isDigit(bytes[9]) || !isDigit(bytes[10]) || !isDigit(bytes[11])) return false;
  return end === 12 || bytes[12] === 0x20;
}

/** Which of the headers the parser reads `bytes[start, colon)` names (case-insensitive), or null. */
function framingHeader(bytes: Buffer, start: number, colon: number): FramingHeader | null {
  const length = colon - start;
  for (let i = 0; i < FRAMING_NAMES.length; i++) {
    const name = FRAMING_NAMES[i]!;
    if (name.length !== length) continue;
    let same = true;
    for (let j = 0; j < length && same; j++) {
      const byte = bytes[start + j]!;
      same = byte === name[j] || (byte >= 0x41 && byte <= 0x5a && (byte | 0x20) === name[j]);
    }
    if (same) return FRAMING_HEADERS[i]!;
  }
  return null;
}
