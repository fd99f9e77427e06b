// Hive Gateway settings for gwprof. The adapter passes this file with --config-path; it also keeps
// the gateway from falling back to mesh.config.mjs (the composition config), which hive-gateway
// would otherwise import as its own config (it searches gateway.config.*, then mesh.config.*).
// Everything not set here is Hive Gateway's default: we measure the gateway as people run it.
// Port, host and --fork are on the command line (see packages/collect/src/gateways/hive.ts).
// Nothing phones home: usage reporting and tracing are only on with Hive/Apollo tokens or
// --opentelemetry, and none are given.
// gwprof --trace (GWPROF_TRACE_CONTEXT=1): Hive Gateway's propagateHeaders setting forwards each
// request's traceparent to its subgraph calls.
// gwprof's OTLP receiver (GWPROF_OTLP_ENDPOINT): Hive Gateway's OpenTelemetry plugin, set up as its
// docs do in this file (openTelemetrySetup, an OTLP/HTTP exporter, the AsyncLocalStorage context
// manager), its batch sent every 200 ms so a window's spans arrive soon after it. Not through the
// CLI's --opentelemetry: that path's resource detection fails on the packages pnpm installs here.
// samplingRate 1 makes its sampler parent-based (its default samples every request): only gwprof's
// sampled requests (traceparent flag 01) export, as they do on the other gateways.
import { openTelemetrySetup } from '@graphql-hive/gateway/opentelemetry/setup';

const traceContext = process.env.GWPROF_TRACE_CONTEXT === '1';
const otlpEndpoint = process.env.GWPROF_OTLP_ENDPOINT;

if (otlpEndpoint) {
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
  const { AsyncLocalStorageContextManager } = await import('@opentelemetry/context-async-hooks');
  openTelemetrySetup({
    contextManager: new AsyncLocalStorageContextManager(),
    resource: { serviceName: 'hive-gateway' },
    samplingRate: 1,
    traces: { exporter: new OTLPTraceExporter({ url: `${otlpEndpoint}/v1/traces` }), batching: { scheduledDelayMillis: 200 } },
  });
}

export const gatewayConfig = {
  ...(traceContext ? { propagateHeaders: { fromClientToSubgraphs: ({ request }) => ({ traceparent: request.headers.get('traceparent') ?? undefined }) } } : {}),
  ...(otlpEndpoint ? { openTelemetry: { traces: true } } : {}),
};
