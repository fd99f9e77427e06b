import { describe, expect, it } from 'vitest';
import { followsSelectionOrder, inSelectionOrder, selectionOrderOf, validateResponse } from './validate-response.js';

const query = `query Q { users { id name reviews { id body } } topProducts { upc name } }`;
const order = selectionOrderOf(query);
const golden = {
  users: [{ id: '1', name: 'Ada', reviews: [{ id: '10', body: 'fine' }] }],
  topProducts: [{ upc: '1', name: 'Table' }],
};
const ok = (data: unknown): string => JSON.stringify({ data });

describe('validateResponse', () => {
  it('accepts a 200 with the golden data', () => {
    expect(validateResponse(200, ok(golden), { order, expected: golden })).toEqual({ ok: true, orderWarning: false });
  });

  it('counts a non-2xx status as a failure even when the body looks like data', () => {
    const verdict = validateResponse(500, ok(golden), { order, expected: golden });
    expect(verdict).toMatchObject({ ok: false, kind: 'non2xx' });
    if (!verdict.ok) expect(verdict.message).toMatch(/^HTTP 500/);
  });

  it('counts a 200 that carries GraphQL errors as a failure', () => {
    const body = JSON.stringify({ errors: [{ message: 'Cannot query field "users" on type "Query".' }] });
    const verdict = validateResponse(200, body, { order, expected: null });
    expect(verdict).toEqual({ ok: false, kind: 'graphqlErrors', message: 'Cannot query field "users" on type "Query".' });
  });

  it('counts partial data with errors as a failure', () => {
    const body = JSON.stringify({ data: golden, errors: [{ message: 'subgraph down' }] });
    expect(validateResponse(200, body, { order, expected: null })).toMatchObject({ ok: false, kind: 'graphqlErrors' });
  });

  it('counts a body that is not JSON, or has no data, as a bad body', () => {
    expect(validateResponse(200, '<html>oops</html>', { order, expected: null })).toMatchObject({ ok: false, kind: 'badBody' });
    expect(validateResponse(200, '{"data":null}', { order, expected: null })).toMatchObject({ ok: false, kind: 'badBody' });
  });

  it('reports a data mismatch with the first differing path', () => {
    const wrong = structuredClone(golden);
    wrong.users[0]!.reviews[0]!.body = 'changed';
    const verdict = validateResponse(200, ok(wrong), { order, expected: golden });
    expect(verdict).toMatchObject({ ok: false, kind: 'mismatch' });
    if (!verdict.ok) expect(verdict.message).toContain('data.users[0].reviews[0].body');
  });

  it('treats missing and extra list items and fields as mismatches', () => {
    expect(validateResponse(200, ok({ ...golden, users: [] }), { order, expected: golden })).toMatchObject({ kind: 'mismatch' });
    const extra = { ...golden, topProducts: [{ upc: '1', name: 'Table', price: 3 }] };
    expect(validateResponse(200, ok(extra), { order, expected: golden })).toMatchObject({ kind: 'mismatch' });
  });

  it('ignores key order for equality but warns when it differs from the query', () => {
    const reordered = { topProducts: golden.topProducts, users: golden.users };
    expect(validateResponse(200, ok(reordered), { order, expected: golden })).toEqual({ ok: true, orderWarning: true });
    const nestedReordered = { users: [{ name: 'Ada', id: '1', reviews: [{ id: '10', body: 'fine' }] }], topProducts: golden.topProducts };
    expect(validateResponse(200, ok(nestedReordered), { order, expected: golden })).toEqual({ ok: true, orderWarning: true });
  });
});

describe('validateResponse on an answer nested deeper than the call stack goes', () => {
  const depth = 200_000;
  const nested = (inner: string) => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;

  it('judges it with its honest kind and a short message, never a stack overflow', () => {
    const order = selectionOrderOf('query { a b }');
    const mismatch = validateResponse(200, `{"data":{"a":${nested('1')},"b":2}}`, { order, expected: { a: 1, b: 2 } });
    expect(mismatch).toMatchObject({ ok: false, kind: 'mismatch' });
    expect((mismatch as { message: string }).message).toMatch(/^data\.a: expected 1, got \[\[\[/);
    expect((mismatch as { message: string }).message.length).toBeLessThan(400);
    expect(validateResponse(200, `{"data":{"a":${nested('1')},"b":2}}`, { order, expected: null })).toEqual({ ok: true, orderWarning: false });
    expect(validateResponse(200, `{"data":{"b":${nested('{"b":1,"a":2}')},"a":1}}`, { order, expected: null })).toEqual({ ok: true, orderWarning: true });
    const errors = validateResponse(200, `{"errors":[${nested('0')}]}`, { order, expected: null });
    expect(errors).toMatchObject({ ok: false, kind: 'graphqlErrors' });
    expect((errors as { message: string }).message.length).toBeLessThan(400);
    expect(validateResponse(200, `{"data":{},"errors":{"deep":${nested('0')}}}`, { order, expected: null })).toMatchObject({
      kind: 'graphqlErrors',
      message: expect.stringMatching(/^malformed errors: \{"deep":\[\[\[/),
    });
  });
});

describe('selection order', () => {
  it('follows aliases and fragments in document order', () => {
    const withFragments = selectionOrderOf(`query { a: users { ...U } topProducts { ... on Product { upc } name } } fragment U on User { id name }`);
    expect(withFragments.keys).toEqual(['a', 'topProducts']);
    expect(withFragments.children.get('a')!.keys).toEqual(['id', 'name']);
    expect(withFragments.children.get('topProducts')!.keys).toEqual(['upc', 'name']);
    expect(followsSelectionOrder({ a: [{ id: 1, name: 'x' }], topProducts: [{ name: 'n', upc: 'u' }] }, withFragments)).toBe(false);
    expect(followsSelectionOrder({ a: [{ id: 1, __typename: 'User', name: 'x' }], topProducts: [] }, withFragments)).toBe(true);
  });

  it("puts keys in the query's order, at every depth, keys it did not ask for last", () => {
    const order = selectionOrderOf(`query { a: users { ...U } topProducts { ... on Product { upc } name } } fragment U on User { id name }`);
    const ordered = inSelectionOrder({ topProducts: [{ name: 'n', upc: 'u' }], a: [{ __typename: 'User', name: 'x', id: 1 }] }, order);
    expect(JSON.stringify(ordered)).toBe('{"a":[{"id":1,"name":"x","__typename":"User"}],"topProducts":[{"upc":"u","name":"n"}]}');
    expect(followsSelectionOrder(ordered, order)).toBe(true);
  });
});
