// Composes a Federation 2 supergraph from running subgraphs: one SUBGRAPH_<NAME>_URL each in the
// environment, asked for `_service { sdl }`, composed with Apollo's composition, written to argv[2];
// SUBGRAPH_<NAME>_ROUTING_URL, when set, is the URL written into the supergraph instead.
// Hive Router and Apollo Router serve the same file, so both routers plan over the same supergraph.
import { writeFileSync } from 'node:fs';
import { composeServices } from '@apollo/composition';
import { parse } from 'graphql';

/** A reason the user can act on: one line on stderr (the last one, which gwprof reports), exit 1. */
function fail(message) {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

const out = process.argv[2];
if (!out) fail('usage: node compose.mjs <supergraph file>');
const subgraphs = Object.entries(process.env)
  .filter(([key]) => /^SUBGRAPH_[A-Z0-9_]+_URL$/.test(key) && !key.endsWith('_ROUTING_URL'))
  .map(([key, url]) => ({ name: key.slice('SUBGRAPH_'.length, -'_URL'.length).toLowerCase(), url }));
if (subgraphs.length === 0) fail('no SUBGRAPH_<NAME>_URL in the environment');

const services = [];
for (const { name, url } of subgraphs) {
  const body = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ _service { sdl } }' }),
  })
    .then((response) => response.json())
    .catch((error) => fail(`subgraph ${name} at ${url} did not answer (${error.cause?.code ?? error.message}): start the subgraphs first (gwprof up)`));
  const sdl = body?.data?._service?.sdl;
  if (typeof sdl !== 'string') fail(`subgraph ${name} at ${url} answered no _service.sdl: ${JSON.stringify(body).slice(0, 200)}`);
  // Where the router is to reach it, when that is not where it was asked (another side's ports).
  const routingUrl = process.env[`SUBGRAPH_${name.toUpperCase()}_ROUTING_URL`] || url;
  services.push({ name, url: routingUrl, typeDefs: parse(sdl) });
}
const result = composeServices(services);
if (result.errors) fail(`composition failed: ${result.errors.map((e) => e.message).join('; ')}`);
writeFileSync(out, result.supergraphSdl);
console.log(`supergraph of ${services.map((s) => s.name).join(', ')} written to ${out}`);
