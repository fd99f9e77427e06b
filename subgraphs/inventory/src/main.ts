import { runSubgraphMain } from '@gwprof/subgraph-server';
import { schema } from './schema.js';

await runSubgraphMain('inventory', schema, 4004);
