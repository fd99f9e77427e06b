import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadScenario } from '../scenario/fixtures.js';
import { VARIED_QUERY } from '../defaults.js';
import { fixturesDir } from '../paths.js';
import { parseOperation, scenarioRequest, type Scenario } from '../scenario/scenario.js';
import { validateResponse } from '../scenario/validate-response.js';
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
    const bytes = Buffer.from(JSON.stringify({ data: golden }));
    expect(s.verdict(3, 200, bytes)).toMatchObject({ ok: true });
    expect(s.verdict(3, 200, bytes)).toMatchObject({ ok: true });
    // The same bytes are wrong for another request, and a 500 is a failure whatever the body.
    expect(s.verdict(4, 200, bytes)).toMatchObject({ ok: false, kind: 'mismatch' });
    expect(s.verdict(3, 500, bytes)).toMatchObject({ ok: false, kind: 'non2xx' });
  });
});

describe('RequestStream verdicts from raw bytes', () => {
  const query = 'query Q { user { id name } reviews { id stars } }';
  const golden = { user: { id: '1', name: 'Ada' }, reviews: [{ id: '10', stars: 5 }] };
  const scenarioWith = (expected: unknown): Scenario => ({ source: 'test', requests: [scenarioRequest(parseOperation(query, 'test'), null, expected)] });
  const order = scenarioWith(golden).requests[0]!.order;
  const canonical = '{"data":{"user":{"id":"1","name":"Ada"},"reviews":[{"id":"10","stars":5}]}}';
  /** Bodies a gateway could send, each with the verdict the full validation gives its text. */
  const bodies: Record<string, [number, string]> = {
    'byte-identical': [200, canonical],
    reordered: [200, '{"data":{"reviews":[{"stars":5,"id":"10"}],"user":{"name":"Ada","id":"1"}}}'],
    'one value differs': [200, canonical.replace('"stars":5', '"stars":4')],
    'one byte differs': [200, canonical.replace('Ada', 'Adb')],
    'with errors': [200, canonical.replace(/}$/, ',"errors":[{"message":"reviews subgraph down"}]}')],
    truncated: [200, canonical.slice(0, -7)],
    'golden bytes with HTTP 500': [500, canonical],
    'golden bytes with HTTP 201': [201, canonical],
    'with a byte order mark': [200, `\ufeff${canonical}`],
  };
  afterEach(() => vi.restoreAllMocks());

  it.each(Object.entries(bodies))('judges a body %s exactly as the full validation of its text, the first time and from memory', (_, [status, text]) => {
    const stream = new RequestStream(scenarioWith(golden));
    const reference = validateResponse(status, text.replace(/^\ufeff/, ''), { order, expected: golden });
    for (let i = 0; i < 3; i++) expect(stream.verdict(0, status, Buffer.from(text))).toEqual(reference);
  });

  it('finds the expected verdicts: a reordered body passes with an order warning, a wrong value, errors or a cut body fail', () => {
    const stream = new RequestStream(scenarioWith(golden));
    const verdict = (name: string) => stream.verdict(0, bodies[name]![0], Buffer.from(bodies[name]![1]));
    expect(verdict('byte-identical')).toEqual({ ok: true, orderWarning: false });
    expect(verdict('reordered')).toEqual({ ok: true, orderWarning: true });
    expect(verdict('one value differs')).toEqual({ ok: false, kind: 'mismatch', message: 'data.reviews[0].stars: expected 5, got 4' });
    expect(verdict('one byte differs')).toMatchObject({ ok: false, kind: 'mismatch' });
    expect(verdict('with errors')).toEqual({ ok: false, kind: 'graphqlErrors', message: 'reviews subgraph down' });
    expect(verdict('truncated')).toMatchObject({ ok: false, kind: 'badBody' });
    expect(verdict('golden bytes with HTTP 500')).toMatchObject({ ok: false, kind: 'non2xx' });
  });

  it('parses no body that equals the golden bytes or a body judged before', () => {
    const parse = vi.spyOn(JSON, 'parse');
    const stream = new RequestStream(scenarioWith(golden));
    for (let i = 0; i < 10; i++) stream.verdict(0, 200, Buffer.from(canonical));
    // Once: the golden's own bytes, judged when the request is first answered.
    expect(parse).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 10; i++) expect(stream.verdict(0, 200, Buffer.from(bodies.reordered![1]))).toEqual({ ok: true, orderWarning: true });
    expect(parse).toHaveBeenCalledTimes(2);
  });

  it("warns on golden bytes whose own key order is not the query's", () => {
    const outOfOrder = { reviews: golden.reviews, user: golden.user };
    const stream = new RequestStream(scenarioWith(outOfOrder));
    expect(stream.verdict(0, 200, Buffer.from(JSON.stringify({ data: outOfOrder })))).toEqual({ ok: true, orderWarning: true });
  });

  it('without a golden, judges status, JSON and errors only', () => {
    const stream = new RequestStream(scenarioWith(null));
    expect(stream.verdict(0, 200, Buffer.from('{"data":{"anything":1}}'))).toEqual({ ok: true, orderWarning: false });
    expect(stream.verdict(0, 200, Buffer.from('{"data":null,"errors":[{"message":"no"}]}'))).toMatchObject({ ok: false, kind: 'graphqlErrors' });
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
