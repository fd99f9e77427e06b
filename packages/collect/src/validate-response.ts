/**
 * Validation of every gateway response. A response counts as successful only when it is
 * HTTP 2xx, a JSON body with a `data` object, no `errors`, and (when a golden response is
 * given) `data` equal to it, ignoring key order. Key order that differs from the query's
 * selection order is reported separately as a warning: clients may depend on it.
 */
import { Kind, parse, type DocumentNode, type SelectionSetNode, type FragmentDefinitionNode } from 'graphql';
import type { FailureCounts } from '@gwprof/results';

export type FailureKind = keyof FailureCounts;

export type ResponseVerdict = { ok: true; orderWarning: boolean } | { ok: false; kind: Exclude<FailureKind, 'timeouts' | 'socketErrors'>; message: string };

/** Field order of a query: response key → nested order, in the order the query asks for them. */
export interface SelectionOrder {
  keys: string[];
  children: Map<string, SelectionOrder>;
}

const MESSAGE_MAX = 300;

function excerpt(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > MESSAGE_MAX ? `${oneLine.slice(0, MESSAGE_MAX)}…` : oneLine;
}

export function selectionOrderOf(query: string | DocumentNode, operationName?: string): SelectionOrder {
  const document = typeof query === 'string' ? parse(query) : query;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  const operation = operationName ? operations.find((o) => o.name?.value === operationName) : operations[0];
  if (!operation) throw new Error(`no operation${operationName ? ` named ${operationName}` : ''} in the query`);

  // Fragments and inline fragments are flattened in document order: GraphQL's CollectFields does the same.
  const collect = (selectionSet: SelectionSetNode, into: SelectionOrder): void => {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        if (!into.children.has(key)) {
          into.keys.push(key);
          into.children.set(key, { keys: [], children: new Map() });
        }
        if (selection.selectionSet) collect(selection.selectionSet, into.children.get(key)!);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        collect(selection.selectionSet, into);
      } else {
        const fragment = fragments.get(selection.name.value);
        if (fragment) collect(fragment.selectionSet, into);
      }
    }
  };
  const root: SelectionOrder = { keys: [], children: new Map() };
  collect(operation.selectionSet, root);
  return root;
}

/** True when the keys of every object in `value` follow the query's order. */
export function followsSelectionOrder(value: unknown, order: SelectionOrder): boolean {
  if (Array.isArray(value)) return value.every((item) => followsSelectionOrder(item, order));
  if (value === null || typeof value !== 'object') return true;
  let last = -1;
  for (const key of Object.keys(value)) {
    const index = order.keys.indexOf(key);
    if (index === -1) continue; // e.g. __typename added by the gateway: not ours to judge
    if (index < last) return false;
    last = index;
    const child = order.children.get(key);
    if (child && child.keys.length > 0 && !followsSelectionOrder((value as Record<string, unknown>)[key], child)) return false;
  }
  return true;
}

/** A copy of `value` whose object keys follow the query's order (keys the query does not ask for last). */
export function inSelectionOrder(value: unknown, order: SelectionOrder): unknown {
  if (Array.isArray(value)) return value.map((item) => inSelectionOrder(item, order));
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  const asked = order.keys.filter((key) => key in record);
  const out: Record<string, unknown> = {};
  for (const key of asked) {
    const child = order.children.get(key);
    out[key] = child && child.keys.length > 0 ? inSelectionOrder(record[key], child) : record[key];
  }
  for (const key of Object.keys(record)) if (!(key in out)) out[key] = record[key];
  return out;
}

/** Deep equality ignoring object key order; returns the first differing path, or null when equal. */
export function firstDifference(actual: unknown, expected: unknown, path = 'data'): string | null {
  if (actual === expected) return null;
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path}: expected a list`;
    if (actual.length !== expected.length) return `${path}: expected ${expected.length} items, got ${actual.length}`;
    for (let i = 0; i < expected.length; i++) {
      const difference = firstDifference(actual[i], expected[i], `${path}[${i}]`);
      if (difference) return difference;
    }
    return null;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return `${path}: expected an object`;
    const expectedKeys = Object.keys(expected);
    const actualRecord = actual as Record<string, unknown>;
    for (const key of expectedKeys) {
      if (!(key in actualRecord)) return `${path}.${key}: missing`;
      const difference = firstDifference(actualRecord[key], (expected as Record<string, unknown>)[key], `${path}.${key}`);
      if (difference) return difference;
    }
    const extra = Object.keys(actualRecord).find((key) => !(key in (expected as object)));
    return extra ? `${path}.${extra}: unexpected field` : null;
  }
  return `${path}: expected ${JSON.stringify(expected)}, got ${excerpt(JSON.stringify(actual) ?? 'undefined')}`;
}

export interface ValidationOptions {
  order: SelectionOrder | null;
  /** Golden `data`, or null to skip the equality check. */
  expected: unknown;
}

export function validateResponse(status: number, body: string, options: ValidationOptions): ResponseVerdict {
  if (status < 200 || status > 299) {
    return { ok: false, kind: 'non2xx', message: `HTTP ${status}: ${excerpt(body) || '(empty body)'}` };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { ok: false, kind: 'badBody', message: `body is not JSON: ${excerpt(body) || '(empty body)'}` };
  }
  if (parsed === null || typeof parsed !== 'object') {
    return { ok: false, kind: 'badBody', message: `body is not a GraphQL response: ${excerpt(body)}` };
  }
  const response = parsed as { data?: unknown; errors?: unknown };
  if (Array.isArray(response.errors) && response.errors.length > 0) {
    const first = response.errors[0] as { message?: unknown };
    const message = typeof first?.message === 'string' ? first.message : JSON.stringify(first);
    return { ok: false, kind: 'graphqlErrors', message: excerpt(message) };
  }
  if (response.errors !== undefined && !Array.isArray(response.errors)) {
    return { ok: false, kind: 'graphqlErrors', message: `malformed errors: ${excerpt(JSON.stringify(response.errors))}` };
  }
  if (response.data === null || typeof response.data !== 'object') {
    return { ok: false, kind: 'badBody', message: `no data in the response: ${excerpt(body)}` };
  }
  if (options.expected !== null && options.expected !== undefined) {
    const difference = firstDifference(response.data, options.expected);
    if (difference) return { ok: false, kind: 'mismatch', message: difference };
  }
  const orderWarning = options.order !== null && !followsSelectionOrder(response.data, options.order);
  return { ok: true, orderWarning };
}
