/**
 * The requests a step sends: the scenario's requests taken round-robin so that consecutive
 * requests differ (a gateway sharing identical in-flight requests is then measured on real work),
 * each with the golden response it must match.
 */
import type { Scenario } from '../scenario.js';
import { validateResponse, type ResponseVerdict } from '../validate-response.js';

export interface PreparedRequest {
  /** Which of the scenario's requests. */
  index: number;
  body: string;
}

/** The request bodies of a scenario, exactly as sent. */
export function requestBodies(scenario: Scenario): string[] {
  return scenario.requests.map((request) => request.body);
}

export class RequestStream {
  private readonly bodies: string[];
  private readonly verdicts = new Map<string, ResponseVerdict>();
  private next = 0;

  constructor(private readonly scenario: Scenario) {
    this.bodies = requestBodies(scenario);
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
   * The verdict on a response to request `index`. A gateway answers the same request with the same
   * few texts, so verdicts are remembered by text: exact, and it keeps the load generator's CPU
   * (which shares a core with the subgraphs) from growing with the response size.
   */
  verdict(index: number, status: number, text: string): ResponseVerdict {
    const key = `${index}:${status}:${text}`;
    const known = this.verdicts.get(key);
    if (known) return known;
    const request = this.scenario.requests[index]!;
    const verdict = validateResponse(status, text, { order: request.order, expected: request.expected });
    if (this.verdicts.size < MAX_REMEMBERED) this.verdicts.set(key, verdict);
    return verdict;
  }
}

/** Distinct responses remembered per step, at most (a stream of errors with changing text stops adding). */
const MAX_REMEMBERED = 5000;
