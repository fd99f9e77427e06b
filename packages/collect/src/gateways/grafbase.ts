/**
 * Grafbase's gateway, as the Grafbase CLI's dev server serves it (the only build of it the npm
 * registry holds): `grafbase dev -c <toml> --listen-address 127.0.0.1:$PORT` composes the
 * Federation 2 supergraph from the running subgraphs itself (their `_service { sdl }`) and serves
 * it at /graphql.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { NATIVE_BINARIES, nativeBinaryPath, nativeBuildRecord } from './native-builds.js';
import type { GatewayAdapter, GatewayContext, GatewayLaunch } from './types.js';

/** One config per set of subgraph addresses: a comparison's candidate reaches subgraphs of its own. */
function configPath(context: GatewayContext): string {
  const ports = Object.values(context.subgraphUrls).map((url) => new URL(url).port || 'default');
  return path.join(context.runDir, 'grafbase', `grafbase-${ports.join('-')}.toml`);
}

/** Each subgraph's URL, for requests and for composition alike. */
export function grafbaseConfig(subgraphUrls: Record<string, string>): string {
  return Object.entries(subgraphUrls)
    .map(([name, url]) => `[subgraphs.${name}]\nurl = ${JSON.stringify(url)}\nintrospection_url = ${JSON.stringify(url)}\n`)
    .join('\n');
}

export function grafbaseGateway(): GatewayAdapter {
  const { package: npmPackage, version } = NATIVE_BINARIES.grafbase as { package: string; version: string };
  return {
    spec: 'grafbase',
    description: `Grafbase's gateway (the dev server of ${npmPackage} ${version})`,
    startTimeoutMs: 120_000,
    federation: 2,
    // The published binary is not ours to build with frame pointers: perf unwinds it by DWARF (.eh_frame).
    stackWalk: 'dwarf',
    packageVersions: () => ({ [npmPackage]: version }),
    build: () => nativeBuildRecord('grafbase'),
    async prepare(context: GatewayContext): Promise<void> {
      const file = configPath(context);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, grafbaseConfig(context.subgraphUrls));
    },
    launch(context: GatewayContext): GatewayLaunch {
      const config = configPath(context);
      return {
        command: nativeBinaryPath('grafbase'),
        args: ['dev', '-c', config, '--listen-address', `127.0.0.1:${context.port}`],
        cwd: path.dirname(config),
        isNodeScript: false,
      };
    },
  };
}
