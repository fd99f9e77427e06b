/**
 * One keep-alive HTTP/1.1 connection that carries one request at a time, as wrk's connections do:
 * the request goes out as bytes encoded once (http1-request.ts) in one write, and the response
 * comes back as its status and the raw bytes of its body, parsed by ResponseParser. No streams, no
 * promises, no abort signals: this is the load engine's hot path, where a general client (undici)
 * cost several times wrk's CPU per request (docs/validation/loadgen-cost.md).
 *
 * A closed connection is opened again on the next request. Like undici, a connection idle for
 * longer than the server keeps one (Keep-Alive: timeout=N, less a margin; 4 s when the server does
 * not say) is not reused: the server may be closing it as the request leaves.
 */
import net from 'node:net';
import { Http1ParseError, ResponseParser } from './http1-response-parser.js';

export interface ResponseHandler {
  /** `body` is valid during the call only: it may view the read buffer every connection shares. */
  onResponse(status: number, body: Buffer): void;
  onError(error: Error): void;
}

const CONNECT_TIMEOUT_MS = 10_000;
/** undici's defaults: an idle connection is reused for 4 s, or the server's timeout less 2 s. */
const DEFAULT_IDLE_MS = 4_000;
const IDLE_MARGIN_MS = 2_000;

/**
 * Every connection reads into this one buffer (net's `onread`), and the parser copies only what a
 * read leaves incomplete: no allocation per read and no stream machinery, on memory that stays in
 * the caches. Reads run one at a time on the event loop, so one buffer serves them all.
 */
const READ_BUFFER = Buffer.allocUnsafe(64 * 1024);
/** Which connection reads each socket. */
const readers = new WeakMap<net.Socket, (bytes: Buffer) => void>();

/** A socket to `host`:`port` whose reads go to the connection that adopts it. */
export function connectSocket(host: string, port: number): net.Socket {
  const socket: net.Socket = net.connect({
    host,
    port,
    noDelay: true,
    keepAlive: true,
    onread: {
      buffer: READ_BUFFER,
      callback: (length: number) => {
        readers.get(socket)?.(READ_BUFFER.subarray(0, length));
        return true; // false would pause the socket
      },
    },
  });
  return socket;
}

/** The connection closed before the response was complete. */
export class ConnectionClosedError extends Error {
  readonly code = 'ECONNCLOSED';
}

export class Http1Connection {
  private socket: net.Socket | null = null;
  private parser = new ResponseParser();
  private handler: ResponseHandler | null = null;
  /** Why the socket is closing, when it was destroyed on purpose or failed. */
  private failure: Error | null = null;
  private idleSince = 0;
  private idleLimitMs = DEFAULT_IDLE_MS;
  private closed = false;

  /**
   * `opened`: a socket from connectSocket, already connected to the server (opened in advance), used
   * first. `onConnect` hears of every socket this connection opens itself, once connected (a load
   * whose connections are opened again and again is not the load asked for; a refused one opened none).
   */
  constructor(
    private readonly host: string,
    private readonly port: number,
    opened: net.Socket | null = null,
    private readonly onConnect: () => void = () => undefined,
  ) {
    if (opened && !opened.destroyed) this.adopt(opened);
    else opened?.destroy();
  }

  /** True while a request is outstanding. */
  get busy(): boolean {
    return this.handler !== null;
  }

  /** True while the socket still holds bytes written to it: they have not all gone to the kernel yet. */
  get writePending(): boolean {
    return this.socket !== null && this.socket.writableLength > 0;
  }

  /** Sends one encoded request; `handler` hears of its response or its failure, exactly once. */
  send(message: Buffer, handler: ResponseHandler): void {
    if (this.handler) throw new Error('a request is already outstanding on this connection');
    if (this.closed) {
      handler.onError(new ConnectionClosedError('connection closed by the load generator'));
      return;
    }
    if (this.socket && (!this.socket.writable || performance.now() - this.idleSince > this.idleLimitMs)) this.drop(this.socket);
    this.handler = handler;
    (this.socket ?? this.connect()).write(message);
  }

  /** Gives up the request outstanding, if any: it fails with `error`, and the socket is closed. */
  abort(error: Error): void {
    if (this.socket && this.handler) this.fail(this.socket, error);
  }

  /** Closes the connection for good; a request outstanding fails. */
  close(): void {
    this.closed = true;
    if (this.socket) this.fail(this.socket, new ConnectionClosedError('connection closed by the load generator'));
  }

  private connect(): net.Socket {
    const socket = connectSocket(this.host, this.port);
    socket.setTimeout(CONNECT_TIMEOUT_MS, () => this.fail(socket, new Error(`connect: no connection within ${CONNECT_TIMEOUT_MS / 1000} s`)));
    socket.once('connect', () => {
      socket.setTimeout(0);
      this.onConnect();
    });
    this.adopt(socket);
    return socket;
  }

  private adopt(socket: net.Socket): void {
    socket.removeAllListeners('error');
    this.socket = socket;
    this.parser = new ResponseParser();
    this.failure = null;
    this.idleSince = performance.now();
    this.idleLimitMs = DEFAULT_IDLE_MS;
    readers.set(socket, (bytes) => this.onData(socket, bytes));
    socket.on('error', (error) => {
      if (socket === this.socket) this.failure ??= error;
    });
    // A server that closes an idle connection: the next request goes on a new one.
    socket.on('end', () => {
      if (socket === this.socket && !this.handler) this.drop(socket);
    });
    socket.on('close', () => this.onClose(socket));
  }

  private onData(socket: net.Socket, chunk: Buffer): void {
    if (socket !== this.socket) return;
    if (!this.handler) {
      // Line ends between responses are skipped, as llhttp does; anything else answers no request.
      if (!onlyLineEnds(chunk)) this.fail(socket, new Http1ParseError('bytes from the server with no request outstanding'));
      return;
    }
    let response: ReturnType<ResponseParser['push']>;
    try {
      response = this.parser.push(chunk);
    } catch (error) {
      this.fail(socket, error as Error);
      return;
    }
    if (!response) return;
    if (response.close) this.drop(socket);
    else this.keepIdle(response.keepAliveSeconds);
    this.deliver(response.status, response.body);
  }

  private onClose(socket: net.Socket): void {
    if (socket !== this.socket) return;
    this.socket = null;
    // A body that runs to the end of the connection is whole only if the connection ended cleanly, not by a reset.
    const response = this.handler && this.failure === null ? this.parser.end() : null;
    if (response) this.deliver(response.status, response.body);
    else this.failOutstanding(this.failure ?? new ConnectionClosedError('the server closed the connection before the response was complete'));
  }

  private keepIdle(keepAliveSeconds: number | null): void {
    this.idleSince = performance.now();
    this.idleLimitMs = keepAliveSeconds === null ? DEFAULT_IDLE_MS : keepAliveSeconds * 1000 - IDLE_MARGIN_MS;
  }

  private deliver(status: number, body: Buffer): void {
    const handler = this.handler;
    this.handler = null;
    handler?.onResponse(status, body);
  }

  /** The socket is closed at once; the request outstanding on it fails with `error`. */
  private fail(socket: net.Socket, error: Error): void {
    if (socket === this.socket) {
      this.socket = null;
      this.failOutstanding(error);
    }
    socket.destroy();
  }

  /** The socket is closed at once, with nothing outstanding on it. */
  private drop(socket: net.Socket): void {
    if (socket === this.socket) this.socket = null;
    socket.destroy();
  }

  private failOutstanding(error: Error): void {
    const handler = this.handler;
    this.handler = null;
    handler?.onError(error);
  }
}

function onlyLineEnds(bytes: Buffer): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== 0x0d && bytes[i] !== 0x0a) return false;
  return true;
}
