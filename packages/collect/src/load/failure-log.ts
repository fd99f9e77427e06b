import type { FailureCounts, FailureSample } from '@gwprof/results';

const SAMPLES_PER_KIND = 5;

export function emptyFailureCounts(): FailureCounts {
  return { non2xx: 0, badBody: 0, graphqlErrors: 0, mismatch: 0, timeouts: 0, socketErrors: 0, protocolErrors: 0 };
}

export function sumFailures(counts: FailureCounts): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

/** Keeps a few distinct messages per failure kind, with how often each was seen. */
export class FailureSamples {
  private readonly samples = new Map<keyof FailureCounts, Map<string, number>>();

  add(kind: keyof FailureCounts, message: string): void {
    let messages = this.samples.get(kind);
    if (!messages) this.samples.set(kind, (messages = new Map()));
    if (messages.has(message)) messages.set(message, messages.get(message)! + 1);
    else if (messages.size < SAMPLES_PER_KIND) messages.set(message, 1);
  }

  list(): FailureSample[] {
    return [...this.samples].flatMap(([kind, messages]) => [...messages].map(([message, count]) => ({ kind, message, count })));
  }
}
