/**
 * Validation of every gateway response. A response counts as successful only when it is
 * HTTP 2xx, a JSON body with a `data` object, no `errors`, and (when a golden response is
 * given) `data` equal to it, ignoring key order. Key order that differs from the query's
 * selection order is reported separately as a warning: clients may depend on it.
 */
import { Kind, parse, type DocumentNode, type SelectionSetNode, type FragmentDefinitionNode } from 'graphql';
import type { FailureCounts } from '@gwprof/results';

export type FailureKind = keyof FailureCounts;

export type ResponseVerdict =
  | { ok: true; orderWarning: boolean }
  | { ok: false; kind: Exclude<FailureKind, 'timeouts' | 'socketErrors' | 'protocolErrors'>; message: string };

/** Field order of a query: response key → nested order, in the order the query asks for them. */
export interface SelectionOrder {
  keys: string[];
  children: Map<string, SelectionOrder>;
}

const MESSAGE_MAX = 300;

function excerpt(text: string): string {
  const oneLine = (text.length > 4 * MESSAGE_MAX ? text.slice(0, 4 * MESSAGE_MAX) : text).replace(/\s+/g, ' ').trim();
  return oneLine.length > MESSAGE_MAX ? `${oneLine.slice(0, MESSAGE_MAX)}…` : oneLine;
}

/** An array or object being written by excerptJson, and how far. */
type OpenValue = { items: unknown[]; next: number } | { record: Record<string, unknown>; keys: string[]; next: number };

/**
 * The start of `value`'s JSON text, at most MESSAGE_MAX characters, as excerpt() gives it. Iterative
 * and bounded: a gateway's answer may nest deeper than JSON.stringify's recursion goes (the stack
 * would overflow) and be megabytes long, and a message needs its first few hundred characters.
 */
export function excerptJson(value: unknown): string {
  let text = '';
  const open: OpenValue[] = [];
  let pending: { value: unknown } | null = { value };
  while (text.length <= 4 * MESSAGE_MAX) {
    if (pending !== null) {
      const item = pending.value;
      pending = null;
      if (Array.isArray(item)) {
        text += '[';
        open.push({ items: item, next: 0 });
      } else if (item !== null && typeof item === 'object') {
        text += '{';
        open.push({ record: item as Record<string, unknown>, keys: Object.keys(item), next: 0 });
      } else {
        text += JSON.stringify(item) ?? 'null';
      }
      continue;
    }
    const top = open.at(-1);
    if (top === undefined) break;
    if ('items' in top) {
      if (top.next === top.items.length) {
        text += ']';
        open.pop();
      } else {
        if (top.next > 0) text += ',';
        pending = { value: top.items[top.next++] };
      }
    } else if (top.next === top.keys.length) {
      text += '}';
      open.pop();
    } else {
      const key = top.keys[top.next++]!;
      text += `${top.next > 1 ? ',' : ''}${JSON.stringify(key)}:`;
      pending = { value: top.record[key] };
    }
  }
  return excerpt(text);
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

/**
 * True when the keys of every object in `value` follow the query's order. A walk with a stack of
 * its own, not recursion: lists in an answer may nest deeper than the call stack goes.
 */
export function followsSelectionOrder(value: unknown, order: SelectionOrder): boolean {
  const values: unknown[] = [value];
  const orders: SelectionOrder[] = [order];
  while (values.length > 0) {
    const item = values.pop();
    const itemOrder = orders.pop()!;
    if (Array.isArray(item)) {
      for (const element of item) {
        values.push(element);
        orders.push(itemOrder);
      }
      continue;
    }
    if (item === null || typeof item !== 'object') continue;
    let last = -1;
    for (const key of Object.keys(item)) {
      const index = itemOrder.keys.indexOf(key);
      if (index === -1) continue; // e.g. __typename added by the gateway: not ours to judge
      if (index < last) return false;
      last = index;
      const child = itemOrder.children.get(key);
      if (child && child.keys.length > 0) {
        values.push((item as Record<string, unknown>)[key]);
        orders.push(child);
      }
    }
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

/**
 * Deep equality ignoring object key order; returns the first differing path, or null when equal.
 * It recurses only as deep as `expected` (a golden response) nests; where the answer nests deeper,
 * a bounded excerpt of it is shown.
 */
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
  return `${path}: expected ${excerptJson(expected)}, got ${actual === undefined ? 'undefined' : excerptJson(actual)}`;
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
    return { ok: false, kind: 'graphqlErrors', message: typeof first?.message === 'string' ? excerpt(first.message) : excerptJson(first) };
  }
  if (response.errors !== undefined && !Array.isArray(response.errors)) {
    return { ok: false, kind: 'graphqlErrors', message: `malformed errors: ${excerptJson(response.errors)}` };
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
