import { describe, expect, it } from 'vitest';
import { COMPOSED_QUERY } from '../testing/composed-query.js';
import { RELOAD_MARKER_FIELD, hasQueryBlock, markerInAnswer, withReloadMarker } from './reload-marker.js';

const supergraph = [
  'type Product @join__type(graph: PRODUCTS, key: "upc") {',
  '  upc: String!',
  '}',
  '',
  'type Query @join__type(graph: ACCOUNTS)  @join__type(graph: PRODUCTS)  {',
  '  me: User @join__field(graph: ACCOUNTS) ',
  '}',
].join('\n');

describe('the reload marker', () => {
  it('adds one nullable field first in the Query block, nothing else (variant B)', () => {
    const b = withReloadMarker(supergraph);
    expect(b).toBe(supergraph.replace('PRODUCTS)  {\n', `PRODUCTS)  {\n  ${RELOAD_MARKER_FIELD}: Boolean\n`));
    expect(withReloadMarker('extend type Query {\n  a: Int\n}')).toBe(`extend type Query {\n  ${RELOAD_MARKER_FIELD}: Boolean\n  a: Int\n}`);
  });

  it("adds it after the directives of Apollo's composition, each on a line of its own (the native routers' supergraph)", () => {
    const composed = [...COMPOSED_QUERY, '', 'type QueryPlanHint {', '  cost: Int', '}'].join('\n');
    expect(hasQueryBlock(composed)).toBe(true);
    expect(withReloadMarker(composed)).toBe(composed.replace('PRODUCTS)\n{\n', `PRODUCTS)\n{\n  ${RELOAD_MARKER_FIELD}: Boolean\n`));
  });

  it('refuses a schema with no Query block', () => {
    expect(hasQueryBlock('type QueryPlanHint {\n  cost: Int\n}')).toBe(false);
    expect(hasQueryBlock('type Product {\n  upc: String!\n}')).toBe(false);
    expect(() => withReloadMarker('type Product {\n  upc: String!\n}')).toThrow(/no `type Query \{` block/);
  });

  it('reads an introspection answer: listed, not listed, or no answer at all', () => {
    const answer = (names: string[]) => ({ data: { __type: { fields: names.map((name) => ({ name })) } } });
    expect(markerInAnswer(answer(['me', RELOAD_MARKER_FIELD]))).toBe(true);
    expect(markerInAnswer(answer(['me']))).toBe(false);
    expect(markerInAnswer({ errors: [{ message: 'introspection is disabled' }] })).toBeNull();
    expect(markerInAnswer(null)).toBeNull();
  });
});
