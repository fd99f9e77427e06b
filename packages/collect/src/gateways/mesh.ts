/**
 * Legacy GraphQL Mesh (@graphql-mesh/cli) with the four subgraphs as GraphQL sources and
 * the stitching merger (which detects federation from @key). `mesh build` introspects the
 * running subgraphs into JavaScript artifacts (no TS loader at run time), then `mesh start`
 * serves them in one process (serve.fork: false in .meshrc.yaml).
 */
import path from 'node:path';
import { gatewaysDir } from '../paths.js';
import { resolvePackageFile, resolveVersions } from './package-versions.js';
import { runToCompletion } from './run-to-completion.js';
import type { GatewayAdapter, GatewayContext, GatewayLaunch } from './types.js';

const meshDir = path.join(gatewaysDir, 'mesh');

export function meshGateway(): GatewayAdapter {
  const bin = (): string => resolvePackageFile(meshDir, '@graphql-mesh/cli', 'cjs/bin.js');
  return {
    spec: 'mesh',
    description: 'legacy GraphQL Mesh (@graphql-mesh/cli, stitching merger over federation subgraphs)',
    startTimeoutMs: 60_000,
    packageVersions: () =>
      resolveVersions(meshDir, ['@graphql-mesh/cli', '@graphql-mesh/graphql', '@graphql-mesh/runtime', '@graphql-tools/delegate', 'graphql']),
    async prepare(context: GatewayContext): Promise<void> {
      await runToCompletion('mesh build', process.execPath, [bin(), 'build', '--fileType', 'js'], {
        cwd: meshDir,
        env: { ...process.env, ...context.env },
        logger: context.logger,
        timeoutMs: 120_000,
      });
    },
    launch(): GatewayLaunch {
      return { command: process.execPath, args: [bin(), 'start'], cwd: meshDir, isNodeScript: true };
    },
  };
}
