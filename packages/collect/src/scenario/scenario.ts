/**
 * The request stream of a run, whatever it was made from (the demo's query files, or a scenario
 * file of the user's own operations): every distinct request exactly as sent, each with the golden
 * `data` it must match and the selection order its answer should follow.
 */
import { type DocumentNode, GraphQLError, Kind, parse } from 'graphql';
import { GwprofError } from '@gwprof/results';
import { selectionOrderOf, type SelectionOrder } from './validate-response.js';

export interface ScenarioRequest {
  /** The POST body, exactly as sent. */
  body: string;
  operationName: string | undefined;
  variables: Record<string, unknown> | null;
  /** Golden `data`, or null to check only status and errors. */
  expected: unknown;
  order: SelectionOrder;
}

export interface Scenario {
  /** What the requests were made from: a query file, or a scenario file. */
  source: string;
  /** Taken round-robin, one per request, so consecutive requests differ. */
  requests: ScenarioRequest[];
}

/** A query file, with optional variables (one object, or a list cycled per request) and goldens (one, or one per set). */
export interface QueryFiles {
  query: string;
  variables?: string | null;
  expect?: string | null;
}

/** What query files held: the query's text, and the variables' and goldens' parsed JSON (null when not given). */
export interface QueryFileContents {
  query: string;
  variables: unknown;
  expect: unknown;
}

/** The requests of query files: one per variable set, each with its golden. */
export function scenarioOfQueryFiles(files: QueryFiles, contents: QueryFileContents): Scenario {
  const operation = parseOperation(contents.query, `query file ${files.query}`);
  let variableSets: Record<string, unknown>[] | null = null;
  if (files.variables) {
    variableSets = asVariableSets(contents.variables);
    if (!variableSets) throw new GwprofError(`variables file ${files.variables} must hold an object or a non-empty list of objects`);
  }
  let expected: unknown[] | null = null;
  if (files.expect) {
    expected = asGoldenData(contents.expect);
    if (!expected) throw new GwprofError(`expected-response file ${files.expect} must hold {"data": …} or a list of them`);
    const count = variableSets?.length ?? 1;
    if (expected.length !== 1 && expected.length !== count) {
      throw new GwprofError(
        `expected-response file ${files.expect} has ${expected.length} responses but the variables file has ${count} entries: give one, or one per entry`,
      );
    }
  }
  const requests = (variableSets ?? [null]).map((variables, i) => scenarioRequest(operation, variables, goldenFor(expected, i)));
  return { source: files.query, requests };
}

export interface ParsedOperation {
  query: string;
  operationName: string | undefined;
  order: SelectionOrder;
}

/** One operation of a GraphQL document: the only one, or the one named. `where` names the document in errors. */
export function parseOperation(query: string, where: string, operationName?: string): ParsedOperation {
  if (query.trim() === '') throw new GwprofError(`${where} is empty`);
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch (error) {
    const message = error instanceof GraphQLError ? error.message.split('\n')[0] : String(error);
    const location = error instanceof GraphQLError && error.locations?.[0] ? ` (line ${error.locations[0].line}, column ${error.locations[0].column})` : '';
    throw new GwprofError(`${where} is not valid GraphQL: ${message}${location}`);
  }
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  const names = operations.map((o) => o.name?.value);
  if (operationName !== undefined) {
    if (!names.includes(operationName)) throw new GwprofError(`${where} has no operation named ${operationName} (it has ${names.join(', ') || 'none'})`);
    return { query, operationName, order: selectionOrderOf(document, operationName) };
  }
  if (operations.length !== 1) {
    throw new GwprofError(`${where} must hold exactly one operation (found ${operations.length}), or name the one to send`);
  }
  return { query, operationName: names[0], order: selectionOrderOf(document, names[0]) };
}

export function scenarioRequest(operation: ParsedOperation, variables: Record<string, unknown> | null, expected: unknown): ScenarioRequest {
  return {
    body: JSON.stringify({ query: operation.query, operationName: operation.operationName, variables: variables ?? {} }),
    operationName: operation.operationName,
    variables,
    expected,
    order: operation.order,
  };
}

/** An object, or a non-empty list of objects, as the list of variable sets; null when it is neither. */
export function asVariableSets(raw: unknown): Record<string, unknown>[] | null {
  const list = Array.isArray(raw) ? raw : [raw];
  const objects = list.length > 0 && list.every((v) => v !== null && typeof v === 'object' && !Array.isArray(v));
  return objects ? (list as Record<string, unknown>[]) : null;
}

/** `{"data": …}` or a list of them, as the list of their `data`; null when it is not. */
export function asGoldenData(raw: unknown): unknown[] | null {
  const list = Array.isArray(raw) ? raw : [raw];
  const responses = list.every((e) => e !== null && typeof e === 'object' && !Array.isArray(e) && 'data' in e);
  return responses ? list.map((e) => (e as { data: unknown }).data) : null;
}

/** The golden of variable set `i`: one golden for every set, or one per set; null without goldens. */
export function goldenFor(expected: readonly unknown[] | null, i: number): unknown {
  return expected ? (expected.length === 1 ? expected[0] : expected[i]) : null;
}
