/** The reference point: @apollo/gateway (IntrospectAndCompose) on @apollo/server 5. */
import path from 'node:path';
import { gatewayDir } from '../paths.js';
import { resolveVersions } from './package-versions.js';
import type { GatewayAdapter, GatewayContext, GatewayLaunch } from './types.js';

/** `dir`: the folder of its packages (another published version's, for `apollo@2.9.0`). */
export function apolloGateway(dir = gatewayDir('apollo'), spec = 'apollo'): GatewayAdapter {
  const apolloDir = dir;
  return {
    spec,
    description: 'Apollo Gateway (@apollo/gateway, IntrospectAndCompose) on @apollo/server',
    startTimeoutMs: 60_000,
    packageVersions: () => resolveVersions(apolloDir, ['@apollo/gateway', '@apollo/server', '@apollo/query-planner', 'graphql']),
    prepare: async () => undefined,
    launch(context: GatewayContext): GatewayLaunch {
      return { command: context.node, args: [path.join(apolloDir, 'server.js')], cwd: apolloDir, isNodeScript: true };
    },
  };
}
