/**
 * The two supergraphs a reload soak swaps between: variant A is the schema as composed, variant B
 * the same with one extra nullable field on Query that no operation of the scenario asks for, so
 * both answer every request with the same golden. The field is also how a reload is seen: the
 * gateway's introspection lists it once it serves B and stops listing it once it serves A again.
 */

/** The extra field of variant B. */
export const RELOAD_MARKER_FIELD = 'gwprofReloadMarker';

/** `type Query … {`: its directives on the same line (Mesh's supergraph, a subgraph's schema) or on lines of their own (Apollo's composition). */
const QUERY_BLOCK = /^((?:extend\s+)?type\s+Query\b[^{]*\{)[ \t]*$/m;

/** Whether a schema file has a `type Query {` block the marker can go into. */
export function hasQueryBlock(sdl: string): boolean {
  return QUERY_BLOCK.test(sdl);
}

/** Variant B of a schema file: the marker field first in its Query block. */
export function withReloadMarker(sdl: string, field = RELOAD_MARKER_FIELD): string {
  if (!hasQueryBlock(sdl)) throw new Error('no `type Query {` block to add the reload marker to');
  return sdl.replace(QUERY_BLOCK, (_all, head: string) => `${head}\n  ${field}: Boolean`);
}

/** The introspection query that tells A from B. */
export const MARKER_QUERY = '{ __type(name: "Query") { fields { name } } }';

/** Whether an answer to MARKER_QUERY lists the field; null when it is no such answer (an error, introspection off). */
export function markerInAnswer(body: unknown, field = RELOAD_MARKER_FIELD): boolean | null {
  const fields = (body as { data?: { __type?: { fields?: unknown } } } | null)?.data?.__type?.fields;
  if (!Array.isArray(fields)) return null;
  return fields.some((f) => (f as { name?: unknown }).name === field);
}
