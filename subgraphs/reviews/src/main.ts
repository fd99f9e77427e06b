import { runSubgraphMain } from '@gwprof/subgraph-server';
import { schema } from './schema.js';

await runSubgraphMain('reviews', schema, 4002);
