// Hive Gateway settings for gwprof. The adapter passes this file with --config-path; it also keeps
// the gateway from falling back to mesh.config.mjs (the composition config), which hive-gateway
// would otherwise import as its own config (it searches gateway.config.*, then mesh.config.*).
// Everything not set here is Hive Gateway's default: we measure the gateway as people run it.
// Port, host and --fork are on the command line (see packages/collect/src/gateways/hive.ts).
// Nothing phones home: usage reporting and tracing are only on with Hive/Apollo tokens or
// --opentelemetry, and none are given.
// gwprof --trace (GWPROF_TRACE_CONTEXT=1): Hive Gateway's propagateHeaders setting forwards each
// request's traceparent to its subgraph calls (no OpenTelemetry SDK, no spans, no exporter).
const traceContext = process.env.GWPROF_TRACE_CONTEXT === '1';
export const gatewayConfig = traceContext
  ? { propagateHeaders: { fromClientToSubgraphs: ({ request }) => ({ traceparent: request.headers.get('traceparent') ?? undefined }) } }
  : {};
