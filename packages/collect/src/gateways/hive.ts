/**
 * GraphQL Mesh v1: `@graphql-mesh/compose-cli` composes a Federation supergraph from the four
 * running subgraphs (gateways/hive/mesh.config.mjs, URLs from SUBGRAPH_<NAME>_URL) into the run
 * folder, then `@graphql-hive/gateway` serves it in one process:
 *
 *   node <@graphql-hive/gateway's hive-gateway bin> supergraph <runDir>/hive/supergraph-<subgraph ports>.graphql
 *     --config-path gateways/hive/gateway.config.mjs --port $PORT --host 127.0.0.1 --fork 0
 *
 * `--fork 0`: no cluster workers (hive-gateway forks only when fork > 1), so the process we
 * start is the one that serves, gets measured and gets profiled. The CLI watches a supergraph file
 * (fs.watch) and serves it anew after a change: a soak's reloads rewrite it in place (a rename
 * would end the watch). `--config-path` is explicit
 * because hive-gateway would otherwise fall back to importing mesh.config.mjs as its config.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { gatewayDir } from '../paths.js';
import { resolvePackageBin, resolvePackageFile, resolveVersions } from './package-versions.js';
import { runToCompletion } from './run-to-completion.js';
import type { GatewayAdapter, GatewayContext, GatewayLaunch } from './types.js';

/**
 * Where prepare() writes the supergraph composed from these subgraph addresses (never inside the
 * repo). One file per set of addresses: a comparison's candidate reaches subgraphs of its own, and
 * a shared file would send both sides to whichever set was composed last.
 */
export function hiveSupergraphPath(runDir: string, subgraphUrls: GatewayContext['subgraphUrls']): string {
  const ports = Object.values(subgraphUrls).map((url) => new URL(url).port || 'default');
  return path.join(runDir, 'hive', `supergraph-${ports.join('-')}.graphql`);
}

/** `dir`: the folder of its packages (another published version's, for `hive@2.10.4`). */
export function hiveGateway(dir = gatewayDir('hive'), spec = 'hive'): GatewayAdapter {
  const hiveDir = dir;
  const composeBin = (): string => resolvePackageFile(hiveDir, '@graphql-mesh/compose-cli', 'esm/bin.js');
  const gatewayBin = (): string => resolvePackageBin(hiveDir, '@graphql-hive/gateway', 'hive-gateway');
  // The supergraph depends only on the subgraphs' URLs: a restart against the same ones reuses it.
  let composedFor: string | null = null;
  let supergraphFile: string | null = null;
  return {
    spec,
    description: 'GraphQL Mesh v1 (@graphql-mesh/compose-cli supergraph served by @graphql-hive/gateway)',
    startTimeoutMs: 60_000,
    packageVersions: () => resolveVersions(hiveDir, ['@graphql-hive/gateway', '@graphql-mesh/compose-cli', 'graphql']),
    async prepare(context: GatewayContext): Promise<void> {
      const key = JSON.stringify([context.runDir, context.subgraphUrls]);
      supergraphFile = hiveSupergraphPath(context.runDir, context.subgraphUrls);
      if (composedFor === key) return;
      const supergraph = supergraphFile;
      mkdirSync(path.dirname(supergraph), { recursive: true });
      await runToCompletion('mesh compose', process.execPath, [composeBin(), '--config-path', path.join(hiveDir, 'mesh.config.mjs'), '--output', supergraph], {
        cwd: hiveDir,
        env: { ...process.env, ...context.env },
        logger: context.logger,
        timeoutMs: 120_000,
      });
      composedFor = key;
    },
    reloadFiles: () => (supergraphFile ? [supergraphFile] : []),
    launch(context: GatewayContext): GatewayLaunch {
      return {
        command: context.node,
        args: [
          gatewayBin(),
          'supergraph',
          hiveSupergraphPath(context.runDir, context.subgraphUrls),
          '--config-path',
          path.join(hiveDir, 'gateway.config.mjs'),
          '--port',
          String(context.port),
          '--host',
          '127.0.0.1',
          '--fork',
          '0',
        ],
        cwd: hiveDir,
        isNodeScript: true,
      };
    },
  };
}
