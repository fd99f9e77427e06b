// A small federation gateway, as a team might keep in its own repository: Apollo Gateway composing
// the subgraphs gwprof names (SUBGRAPH_<NAME>_URL) on Apollo Server, listening on 127.0.0.1:$PORT.
// This is the `main` version of the CI recipe's example.
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { ApolloGateway, IntrospectAndCompose } from '@apollo/gateway';

const subgraphs = Object.entries(process.env)
  .filter(([key]) => /^SUBGRAPH_[A-Z0-9_]+_URL$/.test(key))
  .map(([key, url]) => ({ name: key.slice('SUBGRAPH_'.length, -'_URL'.length).toLowerCase(), url }));
if (subgraphs.length === 0) throw new Error('no SUBGRAPH_<NAME>_URL in the environment');

const gateway = new ApolloGateway({ supergraphSdl: new IntrospectAndCompose({ subgraphs }) });
const server = new ApolloServer({ gateway });
const { url } = await startStandaloneServer(server, { listen: { host: '127.0.0.1', port: Number(process.env.PORT ?? 4000) } });
console.log(`gateway ready at ${url}`);

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.stop().finally(() => process.exit(0)));
