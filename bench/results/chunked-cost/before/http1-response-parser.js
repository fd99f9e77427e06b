/**
 * HTTP/1.1 responses read from a connection's bytes, one request at a time: the status, the whole
 * body (Content-Length, chunked, or up to the end of the connection) and whether the connection
 * can carry another request. 1xx interim responses are skipped. The usual case, a whole response
 * in one read with a Content-Length, costs one scan for the end of the head and no copy.
 */
/** The bytes are not an HTTP/1.1 response: the connection is unusable. */
export class Http1ParseError extends Error {
    code = 'HTTP_PARSE';
}
const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');
const MAX_HEAD_BYTES = 64 * 1024;
const MAX_CHUNK_LINE_BYTES = 4 * 1024;
export class ResponseParser {
    /** Bytes received and not yet consumed. */
    unread = null;
    /** The head of the response whose body is being read; null while reading a head. */
    head = null;
    parts = [];
    partsLength = 0;
    /** How many of `parts` are copies of their own (the others view the caller's chunk). */
    ownedParts = 0;
    /** Chunked body: bytes left in the current chunk, then its CRLF; then the trailers after the last chunk. */
    chunkLeft = 0;
    chunkCrlf = false;
    inTrailers = false;
    /** True when no response has begun: the connection is between responses. */
    get idle() {
        return this.unread === null && this.head === null;
    }
    /**
     * Takes the next bytes; returns the response once it is complete. Throws Http1ParseError on bytes
     * that are not HTTP. `chunk` may be overwritten after the call (a reused read buffer): what the
     * parser keeps of an incomplete response it copies, and a complete response's body is valid until
     * the next call.
     */
    push(chunk) {
        this.unread = this.unread === null ? chunk : Buffer.concat([this.unread, chunk]);
        while (this.head === null) {
            if (!this.readHead())
                return this.keep();
        }
        return this.readBody() ? this.finish() : this.keep();
    }
    /** Copies what the parser holds of the caller's chunk, before the chunk is reused. */
    keep() {
        if (this.unread)
            this.unread = Buffer.from(this.unread);
        for (; this.ownedParts < this.parts.length; this.ownedParts++)
            this.parts[this.ownedParts] = Buffer.from(this.parts[this.ownedParts]);
        return null;
    }
    /** The connection ended: the response whose body runs to the end of the connection, else null (none, or cut short). */
    end() {
        if (this.head === null || this.head.chunked || this.head.contentLength !== null)
            return null;
        if (this.unread)
            this.take(this.unread.length);
        return this.finish();
    }
    /** Reads a head if a whole one has arrived; a 1xx interim response is consumed and skipped. */
    readHead() {
        const bytes = this.unread;
        const end = bytes.indexOf(HEAD_END);
        if (end === -1) {
            if (bytes.length > MAX_HEAD_BYTES)
                throw new Http1ParseError(`response head longer than ${MAX_HEAD_BYTES} bytes`);
            return false;
        }
        const head = parseHead(bytes, end);
        this.unread = end + 4 < bytes.length ? bytes.subarray(end + 4) : null;
        if (head.status >= 100 && head.status < 200) {
            if (head.status === 101)
                throw new Http1ParseError('unexpected protocol switch (101)');
            return this.unread !== null;
        }
        this.head = head;
        return true;
    }
    /** Reads what the body's framing allows; true when the body is complete. */
    readBody() {
        const head = this.head;
        if (head.chunked)
            return this.readChunks();
        if (head.contentLength === null) {
            if (this.unread)
                this.take(this.unread.length);
            return false;
        }
        const missing = head.contentLength - this.partsLength;
        if (this.unread)
            this.take(Math.min(missing, this.unread.length));
        return this.partsLength === head.contentLength;
    }
    readChunks() {
        while (this.unread !== null) {
            const bytes = this.unread;
            if (this.chunkLeft > 0) {
                this.chunkLeft -= this.take(Math.min(this.chunkLeft, bytes.length));
                this.chunkCrlf = this.chunkLeft === 0;
                continue;
            }
            const lineEnd = bytes.indexOf(CRLF);
            if (lineEnd === -1) {
                if (bytes.length > MAX_CHUNK_LINE_BYTES)
                    throw new Http1ParseError('chunk line too long');
                return false;
            }
            const line = bytes.toString('latin1', 0, lineEnd);
            this.unread = lineEnd + 2 < bytes.length ? bytes.subarray(lineEnd + 2) : null;
            if (this.chunkCrlf) {
                if (line !== '')
                    throw new Http1ParseError('chunk not followed by CRLF');
                this.chunkCrlf = false;
            }
            else if (this.inTrailers) {
                if (line === '')
                    return true;
            }
            else {
                const size = chunkSize(line);
                if (size === 0)
                    this.inTrailers = true;
                else
                    this.chunkLeft = size;
            }
        }
        return false;
    }
    /** Moves `count` unread bytes into the body; returns `count`. */
    take(count) {
        const bytes = this.unread;
        this.parts.push(count === bytes.length ? bytes : bytes.subarray(0, count));
        this.partsLength += count;
        this.unread = count < bytes.length ? bytes.subarray(count) : null;
        return count;
    }
    finish() {
        const head = this.head;
        const body = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.partsLength);
        // One request at a time: bytes after the response belong to no request.
        const close = head.close || (head.contentLength === null && !head.chunked) || this.unread !== null;
        this.unread = null;
        this.head = null;
        this.parts = [];
        this.partsLength = 0;
        this.ownedParts = 0;
        this.inTrailers = false;
        return { status: head.status, body, close, keepAliveSeconds: head.keepAliveSeconds };
    }
}
function chunkSize(line) {
    const semicolon = line.indexOf(';');
    const digits = (semicolon === -1 ? line : line.slice(0, semicolon)).trim();
    if (!/^[0-9a-fA-F]{1,12}$/.test(digits))
        throw new Http1ParseError(`bad chunk size ${JSON.stringify(line.slice(0, 40))}`);
    return Number.parseInt(digits, 16);
}
/** Header names the parser reads, lower case; every other header is skipped without being decoded. */
const FRAMING_HEADERS = ['content-length', 'transfer-encoding', 'connection', 'keep-alive'];
const FRAMING_NAMES = FRAMING_HEADERS.map((name) => Buffer.from(name));
/**
 * The status line and the headers that frame the body and say whether the connection stays open,
 * from the head's bytes (`bytes[0, end)`, without its final CRLF CRLF). It works on the bytes and
 * decodes only the values of the headers it reads: on a response that wakes the load generator on
 * its own, caches are cold and every string and regular expression per response shows.
 */
export function parseHead(bytes, end) {
    if (!isStatusLine(bytes, end))
        throw new Http1ParseError(`not an HTTP/1.x response: ${JSON.stringify(bytes.toString('latin1', 0, Math.min(end, 40)))}`);
    const http10 = bytes[7] === 0x30;
    const status = (bytes[9] - 0x30) * 100 + (bytes[10] - 0x30) * 10 + (bytes[11] - 0x30);
    const head = { status, close: http10, keepAliveSeconds: null, contentLength: null, chunked: false };
    let transferEncoding = null;
    for (let at = bytes.indexOf(CRLF); at !== -1 && at < end;) {
        const start = at + 2;
        const next = bytes.indexOf(CRLF, start);
        const lineEnd = next === -1 || next > end ? end : next;
        at = next;
        const colon = bytes.indexOf(0x3a, start);
        if (colon <= start || colon >= lineEnd)
            throw new Http1ParseError(`bad header line ${JSON.stringify(bytes.toString('latin1', start, Math.min(lineEnd, start + 40)))}`);
        const header = framingHeader(bytes, start, colon);
        if (header === null)
            continue;
        const value = bytes.toString('latin1', colon + 1, lineEnd).trim();
        switch (header) {
            case 'content-length': {
                const length = /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
                if (Number.isNaN(length) || (head.contentLength !== null && head.contentLength !== length))
                    throw new Http1ParseError(`bad content-length ${value}`);
                head.contentLength = length;
                break;
            }
            case 'transfer-encoding':
                transferEncoding = transferEncoding === null ? value : `${transferEncoding}, ${value}`;
                break;
            case 'connection': {
                const options = value.toLowerCase();
                if (/(?:^|[\s,])close(?:$|[\s,])/.test(options))
                    head.close = true;
                else if (http10 && /(?:^|[\s,])keep-alive(?:$|[\s,])/.test(options))
                    head.close = false;
                break;
            }
            case 'keep-alive': {
                const timeout = /(?:^|[\s,])timeout=(\d+)/i.exec(value);
                if (timeout)
                    head.keepAliveSeconds = Number(timeout[1]);
                break;
            }
        }
    }
    if (head.status === 204 || head.status === 304 || (head.status >= 100 && head.status < 200)) {
        head.contentLength = 0;
    }
    else if (transferEncoding !== null) {
        // RFC 9112 6.3: chunked last frames the body; any other coding runs to the end of the connection.
        head.chunked = transferEncoding.toLowerCase().split(',').pop().trim() === 'chunked';
        head.contentLength = null;
    }
    return head;
}
const isDigit = (byte) => byte !== undefined && byte >= 0x30 && byte <= 0x39;
/** `HTTP/1.0 ` or `HTTP/1.1 `, three digits, then a space or the end of the line. */
function isStatusLine(bytes, end) {
    if (end < 12 || bytes.toString('latin1', 0, 7) !== 'HTTP/1.' || (bytes[7] !== 0x30 && bytes[7] !== 0x31) || bytes[8] !== 0x20)
        return false;
    if (!isDigit(bytes[9]) || !isDigit(bytes[10]) || !isDigit(bytes[11]))
        return false;
    return end === 12 || bytes[12] === 0x20 || bytes[12] === 0x0d;
}
/** Which of the headers the parser reads `bytes[start, colon)` names (case-insensitive), or null. */
function framingHeader(bytes, start, colon) {
    const length = colon - start;
    for (let i = 0; i < FRAMING_NAMES.length; i++) {
        const name = FRAMING_NAMES[i];
        if (name.length !== length)
            continue;
        let same = true;
        for (let j = 0; j < length && same; j++) {
            const byte = bytes[start + j];
            same = byte === name[j] || (byte >= 0x41 && byte <= 0x5a && (byte | 0x20) === name[j]);
        }
        if (same)
            return FRAMING_HEADERS[i];
    }
    return null;
}
//# sourceMappingURL=http1-response-parser.js.map