// The `pr` version of the CI recipe's example: the same gateway with an audit plugin that a PR
// might add, which prints every operation and copies and walks every response before it is sent.
// It does more work per request, and gwprof compare should say so.
import { createHash } from 'node:crypto';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { ApolloGateway, IntrospectAndCompose } from '@apollo/gateway';
import { print } from 'graphql';

const subgraphs = Object.entries(process.env)
  .filter(([key]) => /^SUBGRAPH_[A-Z0-9_]+_URL$/.test(key))
  .map(([key, url]) => ({ name: key.slice('SUBGRAPH_'.length, -'_URL'.length).toLowerCase(), url }));
if (subgraphs.length === 0) throw new Error('no SUBGRAPH_<NAME>_URL in the environment');

function countFields(value) {
  if (Array.isArray(value)) return value.reduce((sum, item) => sum + countFields(item), 0);
  if (value === null || typeof value !== 'object') return 1;
  return Object.values(value).reduce((sum, item) => sum + 1 + countFields(item), 0);
}

const audit = {
  async requestDidStart() {
    return {
      async willSendResponse({ document, response }) {
        const body = response.body.kind === 'single' ? response.body.singleResult : null;
        const copy = JSON.parse(JSON.stringify(body ?? {}));
        const entry = { operation: document ? print(document) : null, fields: countFields(copy) };
        entry.digest = createHash('sha256').update(JSON.stringify(entry)).digest('hex');
      },
    };
  },
};

const gateway = new ApolloGateway({ supergraphSdl: new IntrospectAndCompose({ subgraphs }) });
const server = new ApolloServer({ gateway, plugins: [audit] });
const { url } = await startStandaloneServer(server, { listen: { host: '127.0.0.1', port: Number(process.env.PORT ?? 4000) } });
console.log(`gateway ready at ${url}`);

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.stop().finally(() => process.exit(0)));
