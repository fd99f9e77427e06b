import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../fixtures.js';
import { VARIED_QUERY } from '../defaults.js';
import { fixturesDir } from '../paths.js';
import { RequestStream } from './request-stream.js';

const stream = () =>
  new RequestStream(
    loadScenario({
      query: path.join(fixturesDir, 'user-reviews.graphql'),
      variables: path.join(fixturesDir, 'user-reviews.variables.json'),
      expect: path.join(fixturesDir, 'user-reviews.expected.json'),
    }),
  );

describe('RequestStream', () => {
  it('varies the request round-robin over the variable sets', () => {
    const s = stream();
    const first = s.take();
    const second = s.take();
    expect(first.index).toBe(0);
    expect(second.index).toBe(1);
    expect(first.body).not.toBe(second.body);
  });

  it('judges each response against the golden response of its own request, the same every time', () => {
    const s = stream();
    const golden = JSON.parse(
      JSON.stringify(
        loadScenario({
          query: path.join(fixturesDir, 'user-reviews.graphql'),
          variables: path.join(fixturesDir, 'user-reviews.variables.json'),
          expect: path.join(fixturesDir, 'user-reviews.expected.json'),
        }).requests[3]!.expected,
      ),
    );
    const text = JSON.stringify({ data: golden });
    expect(s.verdict(3, 200, text)).toMatchObject({ ok: true });
    expect(s.verdict(3, 200, text)).toMatchObject({ ok: true });
    // The same text is wrong for another request, and a 500 is a failure whatever the body.
    expect(s.verdict(4, 200, text)).toMatchObject({ ok: false, kind: 'mismatch' });
    expect(s.verdict(3, 500, text)).toMatchObject({ ok: false, kind: 'non2xx' });
  });
});

describe('the default stream (varied user-reviews)', () => {
  const scenario = loadScenario(VARIED_QUERY);
  const sets = scenario.requests.map((r) => r.variables) as { userId: string; first: number; offset: number }[];

  it('never has two requests for the same user or the same topProducts page among 2,000 in a row', () => {
    // A closed loop at c connections has about c consecutive entries in flight: below c=2000 no two of
    // them share a root call, so a gateway that shares identical in-flight subgraph calls gains nothing.
    const window = 1999;
    const lastSeen = new Map<string, number>();
    let closest = Infinity;
    for (let i = 0; i < sets.length + window; i++) {
      const { userId, first, offset } = sets[i % sets.length]!;
      for (const key of [`user ${userId}`, `page ${first}@${offset}`]) {
        const previous = lastSeen.get(key);
        if (previous !== undefined) closest = Math.min(closest, i - previous);
        lastSeen.set(key, i);
      }
    }
    expect(sets.length).toBeGreaterThanOrEqual(2000);
    expect(closest).toBeGreaterThanOrEqual(window);
  });

  it('has a golden answer per entry, for the user and the page that entry asks for', () => {
    const goldens = scenario.requests.map((r) => r.expected) as { user: { id: string }; topProducts: unknown[] }[];
    expect(goldens).toHaveLength(sets.length);
    goldens.forEach((golden, i) => {
      expect(golden.user.id).toBe(sets[i]!.userId);
      expect(golden.topProducts).toHaveLength(sets[i]!.first);
    });
    expect(new Set(goldens.map((g) => JSON.stringify(g.topProducts))).size).toBe(sets.length);
  });
});
