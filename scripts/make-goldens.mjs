#!/usr/bin/env node
// Regenerates (or checks) the golden responses in fixtures/ from a running gateway.
// Plain Node 20, on collect's compiled code (the query's selection order and the comparison that
// validates every response during a run), so run `pnpm install && pnpm build` first.
//
//   node scripts/make-goldens.mjs <gateway-url>                  write the goldens of every fixture
//   node scripts/make-goldens.mjs <gateway-url> --check          compare another gateway with them
//   node scripts/make-goldens.mjs <gateway-url> --stats-ports 4001,4002,4003,4004
//                                                                also print the subgraph fan-out
//                                                                (ports of accounts, reviews, products, inventory)
//   node scripts/make-goldens.mjs <gateway-url> --query Q.graphql [--variables V.json] [--out E.json]
//
// For each query, one POST per variables entry (sequential, so fan-out is "alone"). A response
// with a non-200 status, no JSON, `errors` or no `data` stops the script: a golden must be a
// real, clean answer. Keys are written in the query's selection order (whatever order the
// gateway used), so the files read like the query. --check compares `data` ignoring key order
// and reports, separately, responses whose key order differs from the query.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SUBGRAPH_NAMES, attachSubgraphs, firstDifference, inSelectionOrder, selectionOrderOf } from '../packages/collect/dist/index.js';

const fixturesDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
const DEFAULT_FIXTURES = [
  { query: 'test-query.graphql', variables: null, out: 'test-query.expected.json' },
  { query: 'user-reviews.graphql', variables: 'user-reviews.variables.json', out: 'user-reviews.expected.json' },
];

// ---------- talking to the gateway and the subgraphs ----------

async function post(url, body) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${url} answered ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`);
  }
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${text.slice(0, 300)}`);
  if (json.errors) throw new Error(`${url} answered with errors: ${JSON.stringify(json.errors).slice(0, 300)}`);
  if (!json.data) throw new Error(`${url} answered without data`);
  return { json, bytes: Buffer.byteLength(text) };
}

async function subgraphRequests(ports) {
  if (ports.length !== SUBGRAPH_NAMES.length) throw new Error(`--stats-ports takes ${SUBGRAPH_NAMES.length} ports (${SUBGRAPH_NAMES.join(', ')})`);
  const counts = await (await attachSubgraphs(Object.fromEntries(SUBGRAPH_NAMES.map((name, i) => [name, ports[i]])))).requestCounts();
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

// ---------- main ----------

function parseArgs(argv) {
  const args = { url: null, check: false, statsPorts: null, query: null, variables: null, out: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--check') args.check = true;
    else if (a === '--stats-ports') args.statsPorts = argv[++i].split(',').map(Number);
    else if (a === '--query') args.query = argv[++i];
    else if (a === '--variables') args.variables = argv[++i];
    else if (a === '--out') args.out = argv[++i];
    else if (a === '--help' || a === '-h') args.help = true;
    else if (!args.url) args.url = a;
    else throw new Error(`unexpected argument ${a}`);
  }
  return args;
}

async function run(args, fixture) {
  const source = readFileSync(fixture.query, 'utf8');
  // One operation per file: a gateway refuses a document of several without an operationName.
  const order = selectionOrderOf(source);
  const variableSets = fixture.variables ? JSON.parse(readFileSync(fixture.variables, 'utf8')) : null;
  const list = variableSets === null ? [null] : Array.isArray(variableSets) ? variableSets : [variableSets];

  const goldens = [];
  const sizes = [];
  const fanouts = [];
  let orderWarnings = 0;
  for (const variables of list) {
    const body = { query: source, ...(variables ? { variables } : {}) };
    const before = args.statsPorts ? await subgraphRequests(args.statsPorts) : 0;
    const { json, bytes } = await post(args.url, body);
    if (args.statsPorts) fanouts.push((await subgraphRequests(args.statsPorts)) - before);
    sizes.push(bytes);
    const ordered = inSelectionOrder(json.data, order);
    if (JSON.stringify(ordered) !== JSON.stringify(json.data)) orderWarnings++;
    goldens.push({ data: ordered });
  }

  const name = path.basename(fixture.query);
  const stat = (xs) =>
    xs.length === 1 ? `${xs[0]}` : `min ${Math.min(...xs)}, mean ${Math.round(xs.reduce((a, b) => a + b, 0) / xs.length)}, max ${Math.max(...xs)}`;
  console.log(`${name}: ${list.length} request(s), response bytes ${stat(sizes)}${fanouts.length ? `, fan-out alone ${stat(fanouts)}` : ''}`);
  if (orderWarnings) console.log(`  ${orderWarnings} response(s) had keys in another order than the query`);

  const outFile = fixture.out;
  if (args.check) {
    const stored = JSON.parse(readFileSync(outFile, 'utf8'));
    const expected = Array.isArray(stored) ? stored : [stored];
    if (expected.length !== goldens.length) throw new Error(`${outFile} has ${expected.length} responses, the gateway gave ${goldens.length}`);
    const bad = goldens.map((g, i) => (firstDifference(g.data, expected[i].data) === null ? -1 : i)).filter((i) => i >= 0);
    console.log(bad.length ? `  MISMATCH with ${outFile} at entries ${bad.join(', ')}` : `  same data as ${outFile} (key order ignored)`);
    return bad.length === 0;
  }
  const text = variableSets === null ? `${JSON.stringify(goldens[0], null, 2)}\n` : `[\n${goldens.map((g) => JSON.stringify(g)).join(',\n')}\n]\n`; // one compact response per line
  writeFileSync(outFile, text);
  console.log(`  wrote ${outFile}`);
  return true;
}

const args = parseArgs(process.argv.slice(2));
if (args.help || !args.url) {
  console.log('usage: node scripts/make-goldens.mjs <gateway-url> [--check] [--stats-ports 4001,4002,4003,4004] [--query Q --variables V --out E]');
  process.exit(args.help ? 0 : 2);
}
const fixtures = args.query
  ? [{ query: args.query, variables: args.variables, out: args.out ?? args.query.replace(/\.graphql$/, '.expected.json') }]
  : DEFAULT_FIXTURES.map((f) => ({
      query: path.join(fixturesDir, f.query),
      variables: f.variables && path.join(fixturesDir, f.variables),
      out: path.join(fixturesDir, f.out),
    }));
let ok = true;
try {
  for (const fixture of fixtures) ok = (await run(args, fixture)) && ok;
} catch (error) {
  console.error(`make-goldens: ${error.message}`);
  process.exit(1);
}
process.exit(ok ? 0 : 1);
