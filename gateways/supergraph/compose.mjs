// Composes a Federation 2 supergraph from running subgraphs: one SUBGRAPH_<NAME>_URL each in the
// environment, asked for `_service { sdl }`, composed with Apollo's composition, written to argv[2].
// Hive Router and Apollo Router serve the same file, so both routers plan over the same supergraph.
import { writeFileSync } from 'node:fs';
import { composeServices } from '@apollo/composition';
import { parse } from 'graphql';

const out = process.argv[2];
if (!out) throw new Error('usage: node compose.mjs <supergraph file>');
const subgraphs = Object.entries(process.env)
  .filter(([key]) => /^SUBGRAPH_[A-Z0-9_]+_URL$/.test(key))
  .map(([key, url]) => ({ name: key.slice('SUBGRAPH_'.length, -'_URL'.length).toLowerCase(), url }));
if (subgraphs.length === 0) throw new Error('no SUBGRAPH_<NAME>_URL in the environment');

const services = [];
for (const { name, url } of subgraphs) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ _service { sdl } }' }),
  });
  const body = await response.json();
  const sdl = body?.data?._service?.sdl;
  if (typeof sdl !== 'string') throw new Error(`subgraph ${name} at ${url} answered no _service.sdl: ${JSON.stringify(body).slice(0, 200)}`);
  services.push({ name, url, typeDefs: parse(sdl) });
}
const result = composeServices(services);
if (result.errors) throw new Error(`composition failed: ${result.errors.map((e) => e.message).join('; ')}`);
writeFileSync(out, result.supergraphSdl);
console.log(`supergraph of ${services.map((s) => s.name).join(', ')} written to ${out}`);
