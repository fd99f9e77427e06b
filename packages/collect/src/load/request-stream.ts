/**
 * The requests a step sends: the scenario's body, one per variables entry, taken round-robin so
 * that consecutive requests differ (a gateway sharing identical in-flight requests is then
 * measured on real work), each with the golden response it must match.
 */
import type { Scenario } from '../fixtures.js';
import { validateResponse, type ResponseVerdict } from '../validate-response.js';

export interface PreparedRequest {
  /** Which variables entry (0 without variables). */
  index: number;
  body: string;
}

/** The request bodies of a scenario, one per variables entry, exactly as sent. */
export function requestBodies(scenario: Scenario): string[] {
  const sets = scenario.variableSets ?? [{}];
  return sets.map((variables) => JSON.stringify({ query: scenario.query, operationName: scenario.operationName, variables }));
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

  /** Request `index` of the stream (its variables entry, cycled), without moving the round-robin. */
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
    const verdict = validateResponse(status, text, { order: this.scenario.order, expected: this.expectedFor(index) });
    if (this.verdicts.size < MAX_REMEMBERED) this.verdicts.set(key, verdict);
    return verdict;
  }

  /** The golden `data` of a request, or null when the scenario has none. */
  private expectedFor(index: number): unknown {
    const expected = this.scenario.expected;
    if (!expected) return null;
    return expected.length === 1 ? expected[0] : expected[index];
  }
}

/** Distinct responses remembered per step, at most (a stream of errors with changing text stops adding). */
const MAX_REMEMBERED = 5000;
