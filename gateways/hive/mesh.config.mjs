// GraphQL Mesh v1 composition: `mesh-compose` introspects the four running federation subgraphs
// (URLs from the harness's SUBGRAPH_<NAME>_URL environment) into one supergraph, which
// @graphql-hive/gateway then serves. The harness passes `--output <runDir>/hive/supergraph-<subgraph ports>.graphql`,
// so neither parallel runs nor a comparison's two sides share a file. Plain JavaScript: no TypeScript loader is involved.
import { defineConfig, loadGraphQLHTTPSubgraph } from '@graphql-mesh/compose-cli';

const names = ['accounts', 'reviews', 'products', 'inventory'];

export const composeConfig = defineConfig({
  subgraphs: names.map((name) => {
    const variable = `SUBGRAPH_${name.toUpperCase()}_URL`;
    const endpoint = process.env[variable];
    if (!endpoint) throw new Error(`${variable} is not set`);
    // The literal URL (not '{env.…}'): the loader writes this value into the supergraph as the
    // subgraph's location, uninterpolated.
    return { sourceHandler: loadGraphQLHTTPSubgraph(name, { endpoint }) };
  }),
});
