import { runSubgraphMain } from '@gwprof/subgraph-server';
import { fed2Schema, schema } from './schema.js';

await runSubgraphMain('reviews', { fed1: schema, fed2: fed2Schema }, 4002);
