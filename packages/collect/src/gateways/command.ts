/**
 * Any gateway a maintainer builds: `cmd:<shell command>`. It is started with PORT and one
 * SUBGRAPH_<NAME>_URL per subgraph in its environment and must serve
 * http://127.0.0.1:$PORT/graphql.
 */
import { userFolder } from '../paths.js';
import type { GatewayAdapter, GatewayLaunch } from './types.js';

export function commandGateway(shellCommand: string, cwd = userFolder()): GatewayAdapter {
  return {
    spec: `cmd:${shellCommand}`,
    description: `custom gateway: ${shellCommand}`,
    startTimeoutMs: 120_000,
    packageVersions: () => ({}),
    prepare: async () => undefined,
    launch(): GatewayLaunch {
      // exec: the shell becomes the gateway when the command is a single program; a command list
      // (`cd build && exec ./gateway`) is run as written, its own exec making the gateway the process.
      const script = /[;&|\n]/.test(shellCommand) ? shellCommand : `exec ${shellCommand}`;
      return { command: 'sh', args: ['-c', script], cwd, isNodeScript: false };
    },
  };
}
