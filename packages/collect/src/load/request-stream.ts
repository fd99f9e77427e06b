/**
 * The requests a step sends: the scenario's body, one per variables entry, taken round-robin so
 * that consecutive requests differ (a gateway sharing identical in-flight requests is then
 * measured on real work), each with the golden response it must match.
 */
import type { Scenario } from '../fixtures.js';
import type { SelectionOrder } from '../validate-response.js';

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
  private next = 0;

  constructor(private readonly scenario: Scenario) {
    this.bodies = requestBodies(scenario);
  }

  take(): PreparedRequest {
    const index = this.next;
    this.next = (this.next + 1) % this.bodies.length;
    return { index, body: this.bodies[index]! };
  }

  /** The golden `data` of a request, or null when the scenario has none. */
  expectedFor(index: number): unknown {
    const expected = this.scenario.expected;
    if (!expected) return null;
    return expected.length === 1 ? expected[0] : expected[index];
  }

  get order(): SelectionOrder {
    return this.scenario.order;
  }
}
