/**
 * A scenario file (YAML or JSON): the user's own subgraphs, gateway and operations. Paths and
 * commands inside it are taken from the file's own folder, so the file and what it names travel
 * together. docs/scenario-file.md is its reference.
 */
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { GwprofError } from '@gwprof/results';
import { readJson, readText } from './fixtures.js';
import { asGoldenData, asVariableSets } from './scenario.js';

export interface ScenarioSubgraph {
  name: string;
  /** Where the gateway reaches it: on this machine's loopback. */
  url: string;
  port: number;
  /** A shell command gwprof starts (from the file's folder, with PORT set) and stops; null when it is already running. */
  command: string | null;
  /**
   * gwprof starts it on an inner port and puts its counting proxy on `port`, so its requests (the
   * fan-out) are counted, at the cost of one more loopback hop per subgraph call. Needs a command.
   */
  proxy: boolean;
}

export interface ScenarioOperation {
  /** The document's text. */
  query: string;
  /** The operation to send, when the document holds more than one. */
  operationName: string | undefined;
  /** Where the query came from, for messages. */
  where: string;
  /** Cycled per request; null: sent without variables. */
  variables: Record<string, unknown>[] | null;
  /** Golden `data` given in the file: one for every variable set, or one per set; null: from the goldens file. */
  expected: unknown[] | null;
}

export interface ScenarioFileSpec {
  kind: 'scenario-file';
  /** Absolute path of the file. */
  path: string;
  /** Its folder: where its paths and commands are taken from. */
  dir: string;
  name: string;
  /** The gateway to measure when --gateway is not given. */
  gateway: string | null;
  subgraphs: ScenarioSubgraph[];
  operations: ScenarioOperation[];
  /** The recorded golden responses (absolute); null: none recorded. */
  goldens: string | null;
  /** No goldens on purpose (--expect-none): neither given nor recorded ones; status, JSON and errors only. */
  expectNone?: boolean;
}

type Fields = Record<string, unknown>;

const TOP_LEVEL = new Set(['name', 'gateway', 'subgraphs', 'operations', 'goldens']);
const SUBGRAPH_FIELDS = new Set(['name', 'url', 'command', 'proxy']);
const OPERATION_FIELDS = new Set(['query', 'queryFile', 'operationName', 'variables', 'variablesFile', 'expect', 'expectFile']);
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** True when a --scenario value names a file rather than a built-in scenario. */
export function looksLikeScenarioFile(value: string): boolean {
  return /\.(ya?ml|json)$/i.test(value) || value.includes('/');
}

export function readScenarioFile(file: string): ScenarioFileSpec {
  const absolute = path.resolve(file);
  const where = `scenario file ${file}`;
  const text = readText(absolute, 'scenario file');
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (error) {
    throw new GwprofError(`${where} is not valid YAML or JSON: ${(error as Error).message.split('\n')[0]}`);
  }
  const top = record(raw, where);
  unknownFields(top, TOP_LEVEL, where);
  const dir = path.dirname(absolute);
  const operations = list(top.operations, `${where}: operations`).map((entry, i) => operationOf(entry, dir, `${where}: operations[${i}]`));
  if (operations.length === 0) throw new GwprofError(`${where}: operations must list at least one operation`);
  const subgraphs =
    top.subgraphs === undefined ? [] : list(top.subgraphs, `${where}: subgraphs`).map((entry, i) => subgraphOf(entry, `${where}: subgraphs[${i}]`));
  const names = subgraphs.map((s) => s.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw new GwprofError(`${where}: subgraph ${twice} is listed twice`);
  const ports = subgraphs.map((s) => s.port);
  const shared = ports.find((p, i) => ports.indexOf(p) !== i);
  if (shared !== undefined) throw new GwprofError(`${where}: two subgraphs have port ${shared}`);
  return {
    kind: 'scenario-file',
    path: absolute,
    dir,
    name: optionalString(top.name, `${where}: name`) ?? path.basename(absolute).replace(/\.(ya?ml|json)$/i, ''),
    gateway: optionalString(top.gateway, `${where}: gateway`) ?? null,
    subgraphs,
    operations,
    goldens: top.goldens === undefined ? null : path.resolve(dir, requiredString(top.goldens, `${where}: goldens`)),
  };
}

function subgraphOf(raw: unknown, where: string): ScenarioSubgraph {
  const fields = record(raw, where);
  unknownFields(fields, SUBGRAPH_FIELDS, where);
  const name = requiredString(fields.name, `${where}: name`);
  if (!/^[A-Za-z][\w-]*$/.test(name)) throw new GwprofError(`${where}: name "${name}" must start with a letter and hold only letters, digits, _ and -`);
  const url = requiredString(fields.url, `${where}: url`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new GwprofError(`${where}: url "${url}" is not a URL`);
  }
  if (parsed.protocol !== 'http:' || !LOOPBACK.has(parsed.hostname) || parsed.port === '') {
    throw new GwprofError(
      `${where}: url "${url}" must be http on this machine's loopback with a port (e.g. http://127.0.0.1:4101/graphql): gwprof sends load to loopback only`,
    );
  }
  const command = optionalString(fields.command, `${where}: command`) ?? null;
  if (fields.proxy !== undefined && typeof fields.proxy !== 'boolean') throw new GwprofError(`${where}: proxy must be true or false`);
  const proxy = fields.proxy === true;
  if (proxy && command === null) {
    throw new GwprofError(`${where}: proxy: true needs a command: gwprof must start the subgraph on a port of its own to put its counting proxy on ${url}`);
  }
  return { name, url, port: Number(parsed.port), command, proxy };
}

function operationOf(raw: unknown, dir: string, where: string): ScenarioOperation {
  const fields = record(raw, where);
  unknownFields(fields, OPERATION_FIELDS, where);
  if ((fields.query === undefined) === (fields.queryFile === undefined))
    throw new GwprofError(`${where}: give query (the text) or queryFile (a path), one of them`);
  const queryFile = fields.queryFile === undefined ? null : path.resolve(dir, requiredString(fields.queryFile, `${where}: queryFile`));
  const query = queryFile ? readText(queryFile, `${where}: queryFile`) : requiredString(fields.query, `${where}: query`);
  if (fields.variables !== undefined && fields.variablesFile !== undefined) throw new GwprofError(`${where}: give variables or variablesFile, not both`);
  const variablesRaw =
    fields.variablesFile !== undefined
      ? readJson(path.resolve(dir, requiredString(fields.variablesFile, `${where}: variablesFile`)), `${where}: variablesFile`)
      : fields.variables;
  if (fields.expect !== undefined && fields.expectFile !== undefined) throw new GwprofError(`${where}: give expect or expectFile, not both`);
  const expectRaw =
    fields.expectFile !== undefined
      ? readJson(path.resolve(dir, requiredString(fields.expectFile, `${where}: expectFile`)), `${where}: expectFile`)
      : fields.expect;
  const variables = variablesRaw === undefined ? null : variableSets(variablesRaw, `${where}: variables`);
  return {
    query,
    operationName: optionalString(fields.operationName, `${where}: operationName`),
    where: queryFile ? `${where} (${queryFile})` : where,
    variables,
    expected: expectRaw === undefined ? null : goldenData(expectRaw, variables?.length ?? 1, `${where}: expect`),
  };
}

/** `{data: …}`, or a list of them: one for every variable set, or one per set. */
function goldenData(raw: unknown, sets: number, where: string): unknown[] {
  const data = asGoldenData(raw);
  if (!data) throw new GwprofError(`${where} must be {"data": …} or a list of them`);
  if (data.length !== 1 && data.length !== sets)
    throw new GwprofError(`${where} has ${data.length} responses for ${sets} variable sets: give one, or one per set`);
  return data;
}

function variableSets(raw: unknown, where: string): Record<string, unknown>[] {
  const sets = asVariableSets(raw);
  if (!sets) throw new GwprofError(`${where} must be an object or a non-empty list of objects`);
  return sets;
}

function record(raw: unknown, where: string): Fields {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new GwprofError(`${where} must be a mapping of fields`);
  return raw as Fields;
}

function list(raw: unknown, where: string): unknown[] {
  if (!Array.isArray(raw)) throw new GwprofError(`${where} must be a list`);
  return raw;
}

function requiredString(raw: unknown, where: string): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw new GwprofError(`${where} must be a non-empty string`);
  return raw;
}

function optionalString(raw: unknown, where: string): string | undefined {
  return raw === undefined ? undefined : requiredString(raw, where);
}

function unknownFields(fields: Fields, known: Set<string>, where: string): void {
  const extra = Object.keys(fields).find((key) => !known.has(key));
  if (extra) throw new GwprofError(`${where}: unknown field "${extra}" (known: ${[...known].join(', ')})`);
}
