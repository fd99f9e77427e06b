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
export function hiveRouterConfig(supergraph: string, port: number, reloads = false): string {
  return [
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
  ].join('\n');
}

/**
 * Apollo Router's config: its GraphQL endpoint at /graphql on the gateway's port, and its other
 * listeners (health check, homepage) off, so that two routers of a comparison do not collide. In a
 * reload soak, introspection on (off by default): it is how a reload is seen served.
 */
export function apolloRouterConfig(port: number, reloads = false): string {
  return [
    'supergraph:',
    `  listen: 127.0.0.1:${port}`,
    '  path: /graphql',
    ...(reloads ? ['  introspection: true'] : []),
    'health_check:',
    '  enabled: false',
    'homepage:',
    '  enabled: false',
    '',
  ].join('\n');
}

interface RouterSpec {
  name: 'hive-router' | 'apollo-router';
  description: string;
  configFile: string;
  /** `reloads`: set up to serve its supergraph file anew when it changes (a reload soak). */
  config(files: { supergraph: string }, port: number, reloads: boolean): string;
  args(files: { supergraph: string; config: string }, reloads: boolean): string[];
  env(files: { config: string }): Record<string, string>;
}

const ROUTERS: Record<RouterSpec['name'], RouterSpec> = {
  'hive-router': {
    name: 'hive-router',
    description: 'Hive Router (The Guild, Rust)',
    configFile: 'router.config.yaml',
    config: ({ supergraph }, port, reloads) => hiveRouterConfig(supergraph, port, reloads),
    args: () => [],
    // Named, not found by its default name: releases before 0.0.13 look for hive-router.config.yaml instead.
    env: ({ config }) => ({ ROUTER_CONFIG_FILE_PATH: config }),
  },
  'apollo-router': {
    name: 'apollo-router',
    description: 'Apollo Router (Rust; Elastic-2.0)',
    configFile: 'router.yaml',
    config: (_files, port, reloads) => apolloRouterConfig(port, reloads),
    // --hot-reload: it watches the supergraph file (and the config) and serves each change.
    args: ({ supergraph, config }, reloads) => ['--supergraph', supergraph, '--config', config, ...(reloads ? ['--hot-reload'] : [])],
    // No anonymous usage reports: the network beyond loopback is not the measurement's.
    env: () => ({ APOLLO_TELEMETRY_DISABLED: 'true' }),
  },
};

/** `reloads`: started to serve its supergraph file anew when it changes, which a reload soak rewrites. */
function nativeRouter(router: RouterSpec, atVersion?: string, reloads = false): GatewayAdapter {
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
      writeFileSync(files.config, router.config(files, context.port, reloads));
    },
    launch(context: GatewayContext): GatewayLaunch {
      const files = filesFor(context, router.name, router.configFile);
      return {
        command: nativeBinaryPath(router.name, atVersion),
        args: router.args(files, reloads),
        cwd: files.dir,
        isNodeScript: false,
        env: router.env(files),
      };
    },
    ...(reloads ? { reloadFiles: () => (supergraph ? [supergraph] : []) } : { reloading: () => nativeRouter(router, atVersion, true) }),
  };
}

export const hiveRouterGateway = (atVersion?: string): GatewayAdapter => nativeRouter(ROUTERS['hive-router']!, atVersion);
export const apolloRouterGateway = (atVersion?: string): GatewayAdapter => nativeRouter(ROUTERS['apollo-router']!, atVersion);
