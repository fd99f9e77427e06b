/**
 * A W3C `traceparent` on every request the engine sends (`--trace`), each with a trace id of its
 * own: a random prefix per step and a counter (`00-<prefix><counter>-<counter>-<flags>`). A sample
 * of the window's requests carries the sampled flag (01): the subgraphs log the calls those bring
 * (packages/subgraph-server's call-log.ts), and the engine keeps when each was sent and answered,
 * so the step can say where their time went. The rest carry 00 and are not logged.
 *
 * The header sits at a fixed offset in every encoded request (http1-request.ts), and the trace id
 * is written into the shared bytes just before they are sent: no allocation per request. A write
 * the socket could not hand to the kernel at once still holds those bytes, so that request's
 * buffer is then replaced by a copy for the requests after it (`release`).
 */
import { randomBytes } from 'node:crypto';
import type { Http1Connection } from './http1-connection.js';
import type { WireRequests } from './http1-request.js';

/** From the trace id's first byte: the counter's 16 digits, the parent id's, and the flags'. */
const COUNTER_AT = 16;
const PARENT_AT = 33;
const FLAGS_AT = 50;
const HEX = Buffer.from('0123456789abcdef', 'latin1');

/** How many of a window's requests are sampled. */
export interface TraceSampling {
  /** At most this many a second, the first ones sent in it. */
  perSecond: number;
  /** At most this many in a window. */
  perWindow: number;
}

/** A sampled request, answered successfully: its trace id and its latency's start and end (ms on the machine's monotonic clock, as the subgraphs log their calls). */
export interface AnsweredTrace {
  traceId: string;
  start: number;
  end: number;
}

export class RequestTraces {
  /** 16 hex digits, random per step: trace ids never repeat across steps or runs. */
  readonly prefix = randomBytes(8).toString('hex');
  private readonly prefixBytes = Buffer.from(this.prefix, 'latin1');
  private counter = 0;
  private sampling = false;
  private second = -1;
  private inSecond = 0;
  private taken = 0;
  private answered = 0;
  private readonly numbers: Float64Array;
  private readonly starts: Float64Array;
  private readonly ends: Float64Array;

  constructor(private readonly rule: TraceSampling) {
    this.numbers = new Float64Array(rule.perWindow);
    this.starts = new Float64Array(rule.perWindow);
    this.ends = new Float64Array(rule.perWindow);
  }

  /**
   * Writes the next trace id into `message` (whose trace id begins at `at`), sampled or not;
   * returns the trace's number when sampled, 0 when not. `now`: performance.now().
   */
  stamp(message: Buffer, at: number, now: number): number {
    const number = ++this.counter;
    this.prefixBytes.copy(message, at);
    writeHex(message, at + COUNTER_AT, number);
    writeHex(message, at + PARENT_AT, number);
    const sampled = this.sample(now);
    message[at + FLAGS_AT + 1] = sampled ? 0x31 : 0x30;
    return sampled ? number : 0;
  }

  /**
   * After `message` went to `connection`: if the socket still holds it (a write not yet handed to the
   * kernel, or a connection still opening), the wire gets a copy for the next requests.
   */
  release(wire: WireRequests, index: number, connection: Http1Connection): void {
    if (connection.writePending) wire.messages[index] = Buffer.from(wire.messages[index]!);
  }

  /** A sampled request (`number` from stamp) answered successfully; `start` and `end` are performance.now() times. */
  onAnswered(number: number, start: number, end: number): void {
    if (this.answered >= this.numbers.length) return;
    this.numbers[this.answered] = number;
    this.starts[this.answered] = start;
    this.ends[this.answered] = end;
    this.answered++;
  }

  /** From now on, requests are sampled (the measured window began). */
  startSampling(): void {
    this.sampling = true;
  }

  /** Stops sampling and hands over the sampled requests answered so far. */
  stopSampling(): AnsweredTrace[] {
    this.sampling = false;
    this.taken = 0;
    // performance.now() runs on the same monotonic clock from this process's start: one offset maps it.
    const origin = Number(process.hrtime.bigint()) / 1e6 - performance.now();
    const answered: AnsweredTrace[] = [];
    for (let i = 0; i < this.answered; i++) {
      answered.push({ traceId: this.traceId(this.numbers[i]!), start: origin + this.starts[i]!, end: origin + this.ends[i]! });
    }
    this.answered = 0;
    return answered;
  }

  /** The trace id of the request numbered `number`. */
  traceId(number: number): string {
    return this.prefix + number.toString(16).padStart(16, '0');
  }

  private sample(now: number): boolean {
    if (!this.sampling || this.taken >= this.rule.perWindow) return false;
    const second = Math.floor(now / 1000);
    if (second !== this.second) {
      this.second = second;
      this.inSecond = 0;
    }
    if (this.inSecond >= this.rule.perSecond) return false;
    this.inSecond++;
    this.taken++;
    return true;
  }
}

/** `value` as 16 lower-case hex digits at `at`. */
function writeHex(bytes: Buffer, at: number, value: number): void {
  let rest = value;
  for (let i = 15; i >= 0; i--) {
    bytes[at + i] = HEX[rest % 16]!;
    rest = Math.floor(rest / 16);
  }
}
