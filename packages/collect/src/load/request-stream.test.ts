import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../fixtures.js';
import { fixturesDir } from '../paths.js';
import { RequestStream } from './request-stream.js';

const stream = () =>
  new RequestStream(
    loadScenario({ query: path.join(fixturesDir, 'user-reviews.graphql'), variables: path.join(fixturesDir, 'user-reviews.variables.json'), expect: path.join(fixturesDir, 'user-reviews.expected.json') }),
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
    const golden = JSON.parse(JSON.stringify(loadScenario({ query: path.join(fixturesDir, 'user-reviews.graphql'), variables: path.join(fixturesDir, 'user-reviews.variables.json'), expect: path.join(fixturesDir, 'user-reviews.expected.json') }).expected![3]));
    const text = JSON.stringify({ data: golden });
    expect(s.verdict(3, 200, text)).toMatchObject({ ok: true });
    expect(s.verdict(3, 200, text)).toMatchObject({ ok: true });
    // The same text is wrong for another request, and a 500 is a failure whatever the body.
    expect(s.verdict(4, 200, text)).toMatchObject({ ok: false, kind: 'mismatch' });
    expect(s.verdict(3, 500, text)).toMatchObject({ ok: false, kind: 'non2xx' });
  });
});
