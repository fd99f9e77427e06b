/**
 * Grafbase's gateway, as the Grafbase CLI's dev server serves it (the only build of it the npm
 * registry holds): `grafbase dev -c <toml> --listen-address 127.0.0.1:$PORT` (older CLIs: `-o`,
 * `-p`; grafbase-dev-form.ts reads which from the binary) composes the Federation 2 supergraph
 * from each subgraph's schema file and serves it at /graphql. The files
 * are the running subgraphs' own `_service { sdl }`, fetched once here: given introspection URLs
 * instead, the dev server polls every subgraph on a timer and builds a new HTTP client each time
 * (about 88 M instructions, mostly loading the system's root certificates), work that is the dev
 * server's, not the gateway's (docs/validation/compare-instructions-native.md). The dev server
 * watches these files and composes and serves the supergraph anew when one changes (a soak's
 * reloads rewrite them).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { grafbaseDevArgs, grafbaseDevForm, grafbaseDevHelp, grafbaseGatewaySettings } from './grafbase-dev-form.js';
import { nativeBinaryOf, nativeBinaryPath, nativeBuildRecord } from './native-builds.js';
import { type GatewayAdapter, type GatewayContext, type GatewayLaunch, OTLP_ENDPOINT_ENV } from './types.js';

/**
 * One folder per set of subgraph addresses, config and schema files together: a comparison's
 * candidate reaches subgraphs of its own, and a side's files change under no other running gateway.
 */
function configPath(context: GatewayContext): string {
  const ports = Object.values(context.subgraphUrls).map((url) => new URL(url).port || 'default');
  return path.join(context.runDir, 'grafbase', ports.join('-'), 'grafbase.toml');
}

/**
 * Each subgraph's URL for requests, and its schema file (in `dir`, beside the config) for
 * composition, by its full path: CLIs before 0.92 do not read a relative one from the working folder.
 */
export function grafbaseConfig(subgraphUrls: Record<string, string>, dir: string): string {
  return Object.entries(subgraphUrls)
    .map(([name, url]) => `[subgraphs.${name}]\nurl = ${JSON.stringify(url)}\nschema_path = ${JSON.stringify(path.resolve(dir, schemaFile(name)))}\n`)
    .join('\n');
}

/**
 * Grafbase's telemetry settings when gwprof receives spans: W3C trace context read from each
 * request and sent on to the subgraphs, parent-based sampling (only gwprof's sampled requests
 * export), an OTLP/HTTP exporter to gwprof's receiver sending its batch every second. Empty: not asked.
 */
export function grafbaseTelemetry(endpoint: string | undefined): string {
  if (!endpoint) return '';
  return [
    '',
    '[telemetry]',
    'service_name = "grafbase-gateway"',
    '',
    '[telemetry.tracing]',
    'sampling = 1.0',
    'parent_based_sampler = true',
    '',
    '[telemetry.tracing.propagation]',
    'trace_context = true',
    '',
    '[telemetry.exporters.otlp]',
    'enabled = true',
    `endpoint = ${JSON.stringify(endpoint)}`,
    'protocol = "http"',
    'timeout = "5s"',
    '',
    '[telemetry.exporters.otlp.batch_export]',
    'scheduled_delay = "1s"',
    '',
  ].join('\n');
}

/** Beside the subgraphs' file: the gateway's own settings, for CLIs before 0.92 that take them apart. */
function gatewaySettingsPath(config: string): string {
  return path.join(path.dirname(config), 'gateway.toml');
}

function schemaFile(subgraph: string): string {
  return `${subgraph}.graphql`;
}

/** A Federation subgraph's own schema, as it answers `_service { sdl }`. */
async function subgraphSdl(name: string, url: string): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ _service { sdl } }' }),
    signal: AbortSignal.timeout(30_000),
  });
  const body = (await response.json().catch(() => null)) as { data?: { _service?: { sdl?: string } } } | null;
  const sdl = body?.data?._service?.sdl;
  if (!response.ok || typeof sdl !== 'string')
    throw new Error(`subgraph ${name} at ${url} did not answer _service { sdl } (HTTP ${response.status}): Grafbase needs each subgraph's schema`);
  return sdl;
}

export function grafbaseGateway(atVersion?: string): GatewayAdapter {
  const { package: npmPackage, version } = nativeBinaryOf('grafbase', atVersion) as { package: string; version: string };
  let schemaFiles: string[] = [];
  return {
    spec: atVersion ? `grafbase@${atVersion}` : 'grafbase',
    description: `Grafbase's gateway (the dev server of ${npmPackage} ${version})`,
    startTimeoutMs: 120_000,
    federation: 2,
    // The published binary is not ours to build with frame pointers: perf unwinds it by DWARF (.eh_frame).
    stackWalk: 'dwarf',
    packageVersions: () => ({ [npmPackage]: version }),
    build: () => nativeBuildRecord('grafbase', atVersion),
    async prepare(context: GatewayContext): Promise<void> {
      const file = configPath(context);
      const dir = path.dirname(file);
      mkdirSync(path.join(dir, 'home'), { recursive: true });
      schemaFiles = Object.keys(context.subgraphUrls).map((name) => path.join(dir, schemaFile(name)));
      for (const [name, url] of Object.entries(context.subgraphUrls)) writeFileSync(path.join(dir, schemaFile(name)), await subgraphSdl(name, url));
      writeFileSync(file, grafbaseConfig(context.subgraphUrls, dir) + grafbaseTelemetry(context.env[OTLP_ENDPOINT_ENV]));
      writeFileSync(gatewaySettingsPath(file), grafbaseGatewaySettings(Object.keys(context.subgraphUrls)));
    },
    reloadFiles: () => schemaFiles,
    launch(context: GatewayContext): GatewayLaunch {
      const config = configPath(context);
      const binary = nativeBinaryPath('grafbase', atVersion);
      return {
        command: binary,
        args: grafbaseDevArgs(grafbaseDevForm(grafbaseDevHelp(binary), binary), { subgraphs: config, gateway: gatewaySettingsPath(config) }, context.port),
        cwd: path.dirname(config),
        isNodeScript: false,
        // The CLI unpacks its UI into $HOME/.grafbase at start: two versions started at once (a comparison's
        // sides, a bisection's round) raced on one folder and one of them failed to start.
        env: { HOME: path.join(path.dirname(config), 'home') },
      };
    },
  };
}
