import { runSubgraphMain } from '@gwprof/subgraph-server';
import { schema } from './schema.js';

await runSubgraphMain('products', schema, 4003);
