import { runSubgraphMain } from '@gwprof/subgraph-server';
import { schema } from './schema.js';

await runSubgraphMain('accounts', schema, 4001);
