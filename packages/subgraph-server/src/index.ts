/**
 * A minimal HTTP GraphQL server for the federation subgraphs.
 * Plain node:http + graphql-js with a document cache, so the subgraphs stay cheap
 * and never become the bottleneck of a gateway benchmark. It counts the requests it
 * serves (GET /__gwprof/stats) so the harness can report fan-out, and logs the calls of traced
 * requests (GET /__gwprof/calls, call-log.ts) so it can say where a request's time went. It may listen on
 * several ports and counts each port's requests apart: two gateways measured at once
 * each get their own port, so each one's fan-out is its own. It serves each subgraph in two forms
 * of the same schema: POST /graphql as Federation 1 (`extend type … @key`, which legacy Mesh needs)
 * and POST /fed2/graphql as Federation 2 (`@link`), which the native routers compose.
 */
import http from 'node:http';
import { parse, validate, execute, type DocumentNode, type GraphQLSchema, type GraphQLError } from 'graphql';
import { CallLog, logTracedCall, takeCallPage } from './call-log.js';

export { DATA_SET } from './data-set.js';
export * from './call-log.js';

/** What makes a subgraph's SDL Federation 2: the link to the spec and the directives it uses. */
export const FED2_LINK =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@external", "@requires", "@provides", "@shareable"])\n';

/** A subgraph's schema in its two forms: the same types and resolvers. */
export interface SubgraphSchemas {
  fed1: GraphQLSchema;
  fed2: GraphQLSchema;
}

/** The path that serves the Federation 2 form; every other /graphql path serves Federation 1. */
export const FED2_PATH = '/fed2/graphql';

export interface SubgraphOptions {
  name: string;
  schemas: SubgraphSchemas;
  /** One or more ports; the stats on each count the GraphQL requests that came in on it. */
  ports: readonly number[];
  host?: string;
  /** Fixed delay added to every GraphQL request, to emulate the network. */
  delayMs?: number;
  /**
   * Port → bytes of whitespace before each GraphQL response's JSON there: work planted in whatever
   * parses the responses (a benchmark's planted change to a gateway no library can be preloaded into).
   */
  paddingByPort?: ReadonlyMap<number, number>;
}

interface CachedDocument {
  document?: DocumentNode;
  errors?: readonly GraphQLError[];
}

const MAX_CACHED_DOCUMENTS = 1000;

/** Each answer's body bytes, for the call log (a header passed to writeHead cannot be read back). */
const answerBytes = new WeakMap<http.ServerResponse, number>();

export async function startSubgraph(options: SubgraphOptions): Promise<http.Server[]> {
  const { schemas, name } = options;
  const host = options.host ?? '127.0.0.1';
  const delayMs = options.delayMs ?? 0;
  const documents = { fed1: new Map<string, CachedDocument>(), fed2: new Map<string, CachedDocument>() };

  const prepare = (form: keyof SubgraphSchemas, query: string): CachedDocument => {
    const schema = schemas[form];
    const cached = documents[form].get(query);
    if (cached) return cached;
    let entry: CachedDocument;
    try {
      const document = parse(query);
      const errors = validate(schema, document);
      entry = errors.length > 0 ? { errors } : { document };
    } catch (error) {
      entry = { errors: [error as GraphQLError] };
    }
    if (documents[form].size >= MAX_CACHED_DOCUMENTS) documents[form].clear();
    documents[form].set(query, entry);
    return entry;
  };

  const padding = new Map([...(options.paddingByPort ?? [])].map(([port, bytes]) => [port, ' '.repeat(bytes)]));
  const send = (res: http.ServerResponse, status: number, body: unknown, pad = ''): void => {
    // Before the value, not after it: a parser must skip leading whitespace, but may stop reading at the value's end.
    const payload = pad + JSON.stringify(body);
    const bytes = Buffer.byteLength(payload);
    answerBytes.set(res, bytes);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes });
    res.end(payload);
  };

  const handleGraphQL = async (form: keyof SubgraphSchemas, raw: string, res: http.ServerResponse): Promise<void> => {
    let body: { query?: unknown; variables?: unknown; operationName?: unknown };
    try {
      body = JSON.parse(raw);
    } catch {
      send(res, 400, { errors: [{ message: 'Request body is not JSON' }] });
      return;
    }
    if (typeof body.query !== 'string') {
      send(res, 400, { errors: [{ message: 'Missing query' }] });
      return;
    }
    const prepared = prepare(form, body.query);
    if (!prepared.document) {
      send(res, 400, { errors: (prepared.errors ?? []).map((e) => ({ message: e.message })) });
      return;
    }
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    const result = await execute({
      schema: schemas[form],
      document: prepared.document,
      variableValues: (body.variables ?? undefined) as Record<string, unknown> | undefined,
      operationName: typeof body.operationName === 'string' ? body.operationName : undefined,
    });
    send(res, 200, result, padding.get(res.socket?.localPort ?? 0));
  };

  const servers: http.Server[] = [];
  try {
    for (const port of options.ports) servers.push(await listen(port, host, handlerCountingFor(name, handleGraphQL, send)));
  } catch (error) {
    for (const server of servers) server.close();
    throw error;
  }
  return servers;
}

type Send = (res: http.ServerResponse, status: number, body: unknown, pad?: string) => void;

/** One port's request handler, with that port's own count of GraphQL requests and its own log of traced calls. */
type HandleGraphQL = (form: keyof SubgraphSchemas, raw: string, res: http.ServerResponse) => Promise<void>;

function handlerCountingFor(name: string, handleGraphQL: HandleGraphQL, send: Send): http.RequestListener {
  let requests = 0;
  const calls = new CallLog(name);
  return (req, res) => {
    const url = req.url ?? '/';
    if (req.method === 'GET' && url.startsWith('/__gwprof/stats')) {
      send(res, 200, { name, requests });
      return;
    }
    if (req.method === 'GET' && url.startsWith('/__gwprof/calls')) {
      send(res, 200, takeCallPage(calls, url));
      return;
    }
    if (req.method === 'GET' && url.startsWith('/health')) {
      send(res, 200, { ok: true });
      return;
    }
    const form = url.startsWith(FED2_PATH) ? 'fed2' : 'fed1';
    if (req.method !== 'POST' || !(url.startsWith('/graphql') || form === 'fed2')) {
      send(res, 404, { errors: [{ message: `POST /graphql or ${FED2_PATH} only (got ${req.method} ${url})` }] });
      return;
    }
    requests++;
    logTracedCall(calls, req.headers.traceparent, res, () => answerBytes.get(res) ?? 0);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      handleGraphQL(form, Buffer.concat(chunks).toString('utf8'), res).catch((error: unknown) => {
        send(res, 500, { errors: [{ message: String(error) }] });
      });
    });
  };
}

function listen(port: number, host: string, handler: http.RequestListener): Promise<http.Server> {
  const server = http.createServer(handler);
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/**
 * Entry point helper for a subgraph's main module: reads PORT (one port, or several separated by
 * commas), SUBGRAPH_DELAY_MS and SUBGRAPH_PADDING_BYTES ("port=bytes,…", see `paddingByPort`), logs
 * one JSON line when ready.
 */
export async function runSubgraphMain(name: string, schemas: SubgraphSchemas, defaultPort: number): Promise<void> {
  const ports = (process.env.PORT ?? String(defaultPort)).split(',').map(Number);
  const delayMs = Number(process.env.SUBGRAPH_DELAY_MS ?? 0);
  try {
    const paddingByPort = paddingFrom(process.env.SUBGRAPH_PADDING_BYTES ?? '');
    const servers = await startSubgraph({ name, schemas, ports, delayMs, paddingByPort });
    process.stdout.write(`${JSON.stringify({ level: 30, time: Date.now(), msg: 'subgraph ready', name, ports, delayMs })}\n`);
    const stop = (): void => {
      for (const server of servers) {
        server.close();
        server.closeAllConnections();
      }
      process.exit(0);
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
    // Started by the harness: if the harness is killed outright, do not linger as an orphan.
    const parent = process.ppid;
    setInterval(() => {
      if (process.ppid !== parent) stop();
    }, 1000).unref();
  } catch (error) {
    const message =
      (error as NodeJS.ErrnoException).code === 'EADDRINUSE' ? `port ${(error as { port?: number }).port ?? ports.join(',')} is already in use` : String(error);
    process.stderr.write(`${JSON.stringify({ level: 50, time: Date.now(), msg: `subgraph ${name} failed to start: ${message}` })}\n`);
    process.exit(1);
  }
}

/** "4011=2000,4012=2000" → port → bytes. */
export function paddingFrom(spec: string): Map<number, number> {
  const padding = new Map<number, number>();
  for (const entry of spec.split(',').filter(Boolean)) {
    const match = /^(\d+)=(\d+)$/.exec(entry.trim());
    if (!match) throw new Error(`SUBGRAPH_PADDING_BYTES: "${entry}" is not port=bytes`);
    padding.set(Number(match[1]), Number(match[2]));
  }
  return padding;
}
