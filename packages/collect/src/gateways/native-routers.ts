/**
 * Hive Router and Apollo Router: native routers that serve a supergraph file. Before each start
 * the Federation 2 supergraph is composed from the running subgraphs with Apollo's composition
 * (gateways/supergraph/compose.mjs), the same file for both routers, and a config file written
 * into the run folder names it, the address to listen on and nothing the router may reach out to.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gatewayDir } from '../paths.js';
import { nativeBinaryOf, nativeBinaryPath, nativeBuildRecord } from './native-builds.js';
import { runToCompletion } from './run-to-completion.js';
import type { GatewayAdapter, GatewayContext, GatewayLaunch } from './types.js';

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

/**
 * Hive Router's config: the supergraph from a file, loaded once, the address to listen on, and
 * warnings and errors logged only: at its default level it writes a JSON line per request (2,500
 * a second at its peak here), work a production router does not do and gwprof would read.
 */
export function hiveRouterConfig(supergraph: string, port: number): string {
  return [
    'supergraph:',
    '  source: file',
    `  path: ${JSON.stringify(supergraph)}`,
    'http:',
    '  host: 127.0.0.1',
    `  port: ${port}`,
    'log:',
    '  level: warn',
    '',
  ].join('\n');
}

/**
 * Apollo Router's config: its GraphQL endpoint at /graphql on the gateway's port, and its other
 * listeners (health check, homepage) off, so that two routers of a comparison do not collide. A soak
 * gives `prometheusPort`: its Prometheus exporter then serves /metrics there, jemalloc's statistics
 * among them; no other command starts the exporter.
 */
export function apolloRouterConfig(port: number, prometheusPort: number | null = null): string {
  const prometheus =
    prometheusPort === null
      ? []
      : [
          'telemetry:',
          '  exporters:',
          '    metrics:',
          '      prometheus:',
          '        enabled: true',
          `        listen: 127.0.0.1:${prometheusPort}`,
          '        path: /metrics',
        ];
  return [
    'supergraph:',
    `  listen: 127.0.0.1:${port}`,
    '  path: /graphql',
    'health_check:',
    '  enabled: false',
    'homepage:',
    '  enabled: false',
    ...prometheus,
    '',
  ].join('\n');
}

/** What a command asks of a router beside the defaults: a soak, its Prometheus exporter's port. */
export interface RouterOptions {
  prometheusPort?: number;
}

interface RouterSpec {
  name: 'hive-router' | 'apollo-router';
  description: string;
  configFile: string;
  config(files: { supergraph: string }, port: number, options: RouterOptions): string;
  args(files: { supergraph: string; config: string }): string[];
  env(files: { config: string }): Record<string, string>;
}

const ROUTERS: Record<RouterSpec['name'], RouterSpec> = {
  'hive-router': {
    name: 'hive-router',
    description: 'Hive Router (The Guild, Rust)',
    configFile: 'router.config.yaml',
    config: ({ supergraph }, port) => hiveRouterConfig(supergraph, port),
    args: () => [],
    // Named, not found by its default name: releases before 0.0.13 look for hive-router.config.yaml instead.
    env: ({ config }) => ({ ROUTER_CONFIG_FILE_PATH: config }),
  },
  'apollo-router': {
    name: 'apollo-router',
    description: 'Apollo Router (Rust; Elastic-2.0)',
    configFile: 'router.yaml',
    config: (_files, port, options) => apolloRouterConfig(port, options.prometheusPort ?? null),
    args: ({ supergraph, config }) => ['--supergraph', supergraph, '--config', config],
    // No anonymous usage reports: the network beyond loopback is not the measurement's.
    env: () => ({ APOLLO_TELEMETRY_DISABLED: 'true' }),
  },
};

function nativeRouter(router: RouterSpec, atVersion?: string, options: RouterOptions = {}): GatewayAdapter {
  const binary = nativeBinaryOf(router.name, atVersion);
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
      const helper = gatewayDir(SUPERGRAPH_HELPER);
      await runToCompletion('supergraph composition', process.execPath, [path.join(helper, 'compose.mjs'), files.supergraph], {
        cwd: helper,
        env: { ...process.env, ...context.env },
        logger: context.logger,
        timeoutMs: 120_000,
      });
      writeFileSync(files.config, router.config(files, context.port, options));
    },
    launch(context: GatewayContext): GatewayLaunch {
      const files = filesFor(context, router.name, router.configFile);
      return { command: nativeBinaryPath(router.name, atVersion), args: router.args(files), cwd: files.dir, isNodeScript: false, env: router.env(files) };
    },
  };
}

export const hiveRouterGateway = (atVersion?: string): GatewayAdapter => nativeRouter(ROUTERS['hive-router']!, atVersion);
export const apolloRouterGateway = (atVersion?: string, options: RouterOptions = {}): GatewayAdapter =>
  nativeRouter(ROUTERS['apollo-router']!, atVersion, options);
