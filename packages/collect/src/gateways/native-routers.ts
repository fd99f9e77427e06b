/**
 * Hive Router and Apollo Router: native routers that serve a supergraph file. Before each start
 * the Federation 2 supergraph is composed from the running subgraphs with Apollo's composition
 * (gateways/supergraph/compose.mjs), the same file for both routers, and a config file written
 * into the run folder names it, the address to listen on and nothing the router may reach out to
 * but, under `sweep --trace`, gwprof's own OTLP receiver on loopback.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { gatewayDir } from '../paths.js';
import { nativeBinaryOf, nativeBinaryPath, nativeBuildRecord } from './native-builds.js';
import { runToCompletion } from './run-to-completion.js';
import { type GatewayAdapter, type GatewayContext, type GatewayLaunch, OTLP_ENDPOINT_ENV, TRACE_CONTEXT_ENV } from './types.js';

/** The folder of the composition helper (installed on first use, as a Node gateway's packages are). */
export const SUPERGRAPH_HELPER = 'supergraph';

/**
 * A folder per port and set of subgraph addresses (a comparison's candidate has its own of both),
 * holding the supergraph and the config: Hive Router reads router.config.yaml from its working folder.
 */
function filesFor(context: GatewayContext, name: string, configFile: string): { dir: string; supergraph: string; config: string } {
  const ports = Object.values(context.subgraphUrls).map((url) => new URL(url).port || 'default');
  const dir = path.join(context.runDir, name, `${context.port}-${ports.join('-')}`);
  return { dir, supergraph: path.join(dir, 'supergraph.graphql'), config: path.join(dir, configFile) };
}

/** What gwprof asks of a router's tracing: none without `--trace`. */
export interface RouterTracing {
  /** Forward each request's `traceparent` to its subgraph calls (TRACE_CONTEXT_ENV). */
  traceContext: boolean;
  /** gwprof's OTLP/HTTP receiver (OTLP_ENDPOINT_ENV): export spans there; absent: no spans. */
  otlpEndpoint?: string;
}

export function routerTracing(env: Record<string, string>): RouterTracing {
  const otlpEndpoint = env[OTLP_ENDPOINT_ENV];
  return { traceContext: env[TRACE_CONTEXT_ENV] === '1', ...(otlpEndpoint ? { otlpEndpoint } : {}) };
}

const NO_TRACING: RouterTracing = { traceContext: false };

/** Hive Router's OTLP/HTTP exporter posts to its endpoint as given: the traces path included. */
function tracesUrl(endpoint: string): string {
  return `${endpoint}/v1/traces`;
}

/** YAML for top-level sections appended to a config; empty for none. */
function sections(value: Record<string, unknown>): string {
  return Object.keys(value).length === 0 ? '' : stringify(value);
}

/**
 * How often Hive Router, in a reload soak, reads its supergraph file's modified time (its
 * `supergraph/file.rs` loads the file anew when that moves): a swap is served within about this.
 */
export const HIVE_ROUTER_POLL_INTERVAL = '1s';

/**
 * Hive Router's config: the supergraph from a file, loaded once (polled in a reload soak), the
 * address to listen on, and warnings and errors logged only: at its default level it writes a JSON
 * line per request (2,500 a second at its peak here), work a production router does not do and
 * gwprof would read.
 */
export function hiveRouterConfig(supergraph: string, port: number, tracing: RouterTracing = NO_TRACING, reloads = false): string {
  return (
    [
      'supergraph:',
      '  source: file',
      `  path: ${JSON.stringify(supergraph)}`,
      ...(reloads ? [`  poll_interval: ${HIVE_ROUTER_POLL_INTERVAL}`] : []),
      'http:',
      '  host: 127.0.0.1',
      `  port: ${port}`,
      'log:',
      '  level: warn',
      '',
    ].join('\n') + sections(hiveRouterTracing(tracing))
  );
}

/**
 * Hive Router's tracing under `--trace`. Its W3C propagator (`propagation.trace_context`, on by
 * default) injects the context of its own current span: with no exporter its tracing is off and
 * it injects nothing, so forwarding alone is a header rule that passes `traceparent` on. With
 * gwprof's receiver: parent-based sampling (only gwprof's sampled requests export), its OTLP
 * exporter over HTTP (protobuf), batches sent every second; its subgraph calls then carry its own
 * span's context, in the same trace.
 */
export function hiveRouterTracing(tracing: RouterTracing): Record<string, unknown> {
  if (tracing.otlpEndpoint)
    return {
      telemetry: {
        tracing: {
          collect: { sampling: 1.0, parent_based_sampler: true },
          propagation: { trace_context: true },
          exporters: [{ kind: 'otlp', enabled: true, endpoint: tracesUrl(tracing.otlpEndpoint), protocol: 'http', batch_processor: { scheduled_delay: '1s' } }],
        },
      },
    };
  if (tracing.traceContext) return { headers: { all: { request: [{ propagate: { named: 'traceparent' } }] } } };
  return {};
}

/**
 * Apollo Router's config: its GraphQL endpoint at /graphql on the gateway's port, and its other
 * listeners (health check, homepage) off, so that two routers of a comparison do not collide. A soak
 * gives `prometheusPort`: its Prometheus exporter then serves /metrics there, jemalloc's statistics
 * among them; no other command starts the exporter. In a reload soak, introspection on (off by
 * default): it is how a reload is seen served.
 */
export function apolloRouterConfig(port: number, tracing: RouterTracing = NO_TRACING, options: RouterOptions = {}): string {
  const supergraph = ['supergraph:', `  listen: 127.0.0.1:${port}`, '  path: /graphql', ...(options.reloads ? ['  introspection: true'] : [])];
  return (
    [...supergraph, 'health_check:', '  enabled: false', 'homepage:', '  enabled: false', ''].join('\n') +
    sections(mergedSections(apolloRouterTracing(tracing), apolloRouterPrometheus(options.prometheusPort ?? null)))
  );
}

/** Apollo Router's Prometheus exporter on `port` (a soak's): /metrics, jemalloc's statistics among them. */
function apolloRouterPrometheus(port: number | null): Record<string, unknown> {
  if (port === null) return {};
  return { telemetry: { exporters: { metrics: { prometheus: { enabled: true, listen: `127.0.0.1:${port}`, path: '/metrics' } } } } };
}

/** Two sets of top-level sections as one: a key both hold (`telemetry`) is merged, never written twice. */
function mergedSections(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const isMapping = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
  const out: Record<string, unknown> = { ...a };
  for (const [key, value] of Object.entries(b)) out[key] = isMapping(out[key]) && isMapping(value) ? mergedSections(out[key], value) : value;
  return out;
}

/** What a command asks of a router beside the defaults: a soak, its Prometheus exporter's port; a reload soak, `reloads`. */
export interface RouterOptions {
  prometheusPort?: number;
  /** Set up to serve its supergraph file anew when it changes (a reload soak rewrites it). */
  reloads?: boolean;
}

/**
 * Apollo Router's tracing under `--trace`: its W3C propagator (`propagation.trace_context`), and
 * with gwprof's receiver its OTLP exporter over HTTP, every request sampled unless its parent says
 * otherwise (parent-based: only gwprof's sampled requests export), batches sent every second. Its
 * endpoint is the receiver's base URL: the router adds the traces path itself.
 */
export function apolloRouterTracing(tracing: RouterTracing): Record<string, unknown> {
  if (!tracing.traceContext && !tracing.otlpEndpoint) return {};
  const otlp = tracing.otlpEndpoint
    ? { otlp: { enabled: true, endpoint: tracing.otlpEndpoint, protocol: 'http', batch_processor: { scheduled_delay: '1s' } } }
    : {};
  return {
    telemetry: {
      exporters: {
        tracing: { common: { sampler: 'always_on', parent_based_sampler: true }, propagation: { trace_context: true }, ...otlp },
      },
    },
  };
}

interface RouterSpec {
  name: 'hive-router' | 'apollo-router';
  description: string;
  configFile: string;
  config(files: { supergraph: string }, port: number, tracing: RouterTracing, options: RouterOptions): string;
  args(files: { supergraph: string; config: string }, options: RouterOptions): string[];
  env(files: { config: string }): Record<string, string>;
}

const ROUTERS: Record<RouterSpec['name'], RouterSpec> = {
  'hive-router': {
    name: 'hive-router',
    description: 'Hive Router (The Guild, Rust)',
    configFile: 'router.config.yaml',
    config: ({ supergraph }, port, tracing, options) => hiveRouterConfig(supergraph, port, tracing, options.reloads ?? false),
    args: () => [],
    // Named, not found by its default name: releases before 0.0.13 look for hive-router.config.yaml instead.
    env: ({ config }) => ({ ROUTER_CONFIG_FILE_PATH: config }),
  },
  'apollo-router': {
    name: 'apollo-router',
    description: 'Apollo Router (Rust; Elastic-2.0)',
    configFile: 'router.yaml',
    config: (_files, port, tracing, options) => apolloRouterConfig(port, tracing, options),
    // --hot-reload: it watches the supergraph file (and the config) and serves each change.
    args: ({ supergraph, config }, options) => ['--supergraph', supergraph, '--config', config, ...(options.reloads ? ['--hot-reload'] : [])],
    // No anonymous usage reports: the network beyond loopback is not the measurement's.
    env: () => ({ APOLLO_TELEMETRY_DISABLED: 'true' }),
  },
};

function nativeRouter(router: RouterSpec, atVersion?: string, options: RouterOptions = {}): GatewayAdapter {
  const binary = nativeBinaryOf(router.name, atVersion);
  let supergraph: string | null = null;
  return {
    spec: atVersion ? `${router.name}@${atVersion}` : router.name,
    description: `${router.description} ${binary.version}`,
    startTimeoutMs: 120_000,
    federation: 2,
    // gwprof builds them with frame pointers (CARGO_RUSTFLAGS).
    stackWalk: 'fp',
    packageVersions: () => ({ [router.name]: binary.version }),
    build: () => nativeBuildRecord(router.name, atVersion),
    async prepare(context: GatewayContext): Promise<void> {
      const files = filesFor(context, router.name, router.configFile);
      mkdirSync(files.dir, { recursive: true });
      supergraph = files.supergraph;
      const helper = gatewayDir(SUPERGRAPH_HELPER);
      await runToCompletion('supergraph composition', process.execPath, [path.join(helper, 'compose.mjs'), files.supergraph], {
        cwd: helper,
        env: { ...process.env, ...context.env },
        logger: context.logger,
        timeoutMs: 120_000,
      });
      writeFileSync(files.config, router.config(files, context.port, routerTracing(context.env), options));
    },
    launch(context: GatewayContext): GatewayLaunch {
      const files = filesFor(context, router.name, router.configFile);
      return {
        command: nativeBinaryPath(router.name, atVersion),
        args: router.args(files, options),
        cwd: files.dir,
        isNodeScript: false,
        env: router.env(files),
      };
    },
    ...(options.reloads
      ? { reloadFiles: () => (supergraph ? [supergraph] : []) }
      : { reloading: () => nativeRouter(router, atVersion, { ...options, reloads: true }) }),
  };
}

export const hiveRouterGateway = (atVersion?: string): GatewayAdapter => nativeRouter(ROUTERS['hive-router']!, atVersion);
export const apolloRouterGateway = (atVersion?: string, options: RouterOptions = {}): GatewayAdapter =>
  nativeRouter(ROUTERS['apollo-router']!, atVersion, options);
