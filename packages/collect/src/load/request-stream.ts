/**
 * The requests a step sends: the scenario's requests taken round-robin so that consecutive
 * requests differ (a gateway sharing identical in-flight requests is then measured on real work),
 * each with the golden response it must match.
 */
import type { Scenario } from '../scenario/scenario.js';
import { validateResponse, type ResponseVerdict } from '../scenario/validate-response.js';

export interface PreparedRequest {
  /** Which of the scenario's requests. */
  index: number;
  body: string;
}

/** The request bodies of a scenario, exactly as sent. */
export function requestBodies(scenario: Scenario): string[] {
  return scenario.requests.map((request) => request.body);
}

/** A response body already judged for one request, with its verdict. */
interface KnownBody {
  status: number;
  bytes: Buffer;
  verdict: ResponseVerdict;
}

/**
 * Per scenario, each request's golden response as canonical bytes with their verdict (null without a
 * golden): made once for all the steps of a run (each step has a stream of its own), before any load.
 */
const goldenBodies = new WeakMap<Scenario, (KnownBody | null)[]>();

/** Distinct bodies remembered per step, at most (a stream of errors with changing text stops adding). */
const MAX_REMEMBERED = 5000;
/** Distinct bodies remembered per request: a gateway answers a request with one or a few texts. */
const MAX_REMEMBERED_PER_REQUEST = 4;

export class RequestStream {
  readonly bodies: readonly string[];
  private readonly goldens: (KnownBody | null)[];
  /** Per request: bodies judged before in this step. */
  private readonly known: (KnownBody[] | undefined)[];
  private remembered = 0;
  private next = 0;

  constructor(private readonly scenario: Scenario) {
    this.bodies = requestBodies(scenario);
    this.known = new Array(this.bodies.length);
    let goldens = goldenBodies.get(scenario);
    if (!goldens) goldenBodies.set(scenario, (goldens = scenario.requests.map((_, index) => this.golden(index))));
    this.goldens = goldens;
  }

  take(): PreparedRequest {
    const index = this.next;
    this.next = (this.next + 1) % this.bodies.length;
    return { index, body: this.bodies[index]! };
  }

  /** Request `index` of the stream (cycled), without moving the round-robin. */
  request(index: number): PreparedRequest {
    const wrapped = index % this.bodies.length;
    return { index: wrapped, body: this.bodies[wrapped]! };
  }

  /**
   * The verdict on a response to request `index`: validateResponse's on the body's text. The
   * verdict is a function of the status and the body's bytes, so a body byte-equal to one judged
   * before gets that verdict without being decoded or parsed: first the golden's own bytes
   * (`{"data":…}` compact, as gateways answer), then bodies this request got before. A gateway
   * answers the same request with the same few texts, so this keeps the load generator's CPU
   * from growing with the response size. A body already decoded (a caller on undici) is taken as its UTF-8 bytes.
   */
  verdict(index: number, status: number, response: Buffer | string): ResponseVerdict {
    const body = typeof response === 'string' ? Buffer.from(response) : response;
    const golden = this.goldens[index];
    if (golden && golden.status === status && golden.bytes.equals(body)) return golden.verdict;
    const known = (this.known[index] ??= []);
    for (const entry of known) {
      if (entry.status === status && entry.bytes.equals(body)) return entry.verdict;
    }
    const verdict = this.judge(index, status, decodeUtf8(body));
    if (this.remembered < MAX_REMEMBERED && known.length < MAX_REMEMBERED_PER_REQUEST) {
      // A copy: `body` may be a view into a larger read buffer.
      known.push({ status, bytes: Buffer.from(body), verdict });
      this.remembered++;
    }
    return verdict;
  }

  private judge(index: number, status: number, text: string): ResponseVerdict {
    const request = this.scenario.requests[index]!;
    return validateResponse(status, text, { order: request.order, expected: request.expected });
  }

  /** The golden response's canonical bytes with their verdict (an order warning if the golden's own order is not the query's). */
  private golden(index: number): KnownBody | null {
    const expected = this.scenario.requests[index]!.expected;
    if (expected === null || expected === undefined) return null;
    const text = JSON.stringify({ data: expected });
    return { status: 200, bytes: Buffer.from(text), verdict: this.judge(index, 200, text) };
  }
}

/** The body's text, as undici decoded it (UTF-8, a byte order mark skipped). */
export function decodeUtf8(body: Buffer): string {
  const bom = body.length > 2 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf;
  return body.toString('utf8', bom ? 3 : 0);
}
