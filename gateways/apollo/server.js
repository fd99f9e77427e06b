// Reference gateway: Apollo Gateway composing the four subgraphs at start (IntrospectAndCompose)
// on Apollo Server's standalone HTTP server. Plain JavaScript: it is measured, so no loader.
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { ApolloGateway, IntrospectAndCompose, RemoteGraphQLDataSource } from '@apollo/gateway';

const names = ['accounts', 'reviews', 'products', 'inventory'];
const subgraphs = names.map((name) => {
  const url = process.env[`SUBGRAPH_${name.toUpperCase()}_URL`];
  if (!url) throw new Error(`SUBGRAPH_${name.toUpperCase()}_URL is not set`);
  return { name, url };
});

// gwprof --trace (GWPROF_TRACE_CONTEXT=1): each subgraph call carries the incoming request's
// traceparent. Apollo Gateway has no setting of its own for it; a data source's willSendRequest is
// its documented way to set a subgraph request's headers. Off, the gateway is exactly its default.
class TraceContextDataSource extends RemoteGraphQLDataSource {
  willSendRequest({ request, kind, incomingRequestContext }) {
    if (kind !== 'incoming operation') return;
    const traceparent = incomingRequestContext.request.http?.headers.get('traceparent');
    if (traceparent) request.http?.headers.set('traceparent', traceparent);
  }
}
const traceContext = process.env.GWPROF_TRACE_CONTEXT === '1';

const gateway = new ApolloGateway({
  supergraphSdl: new IntrospectAndCompose({ subgraphs }),
  ...(traceContext ? { buildService: ({ url }) => new TraceContextDataSource({ url }) } : {}),
});
const server = new ApolloServer({ gateway });
const { url } = await startStandaloneServer(server, {
  listen: { host: '127.0.0.1', port: Number(process.env.PORT ?? 4000) },
});
console.log(JSON.stringify({ level: 30, time: Date.now(), msg: `apollo gateway ready at ${url}` }));

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    server.stop().finally(() => process.exit(0));
  });
}
