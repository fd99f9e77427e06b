import { apolloGateway } from './apollo.js';
import { commandGateway } from './command.js';
import { hiveGateway } from './hive.js';
import { meshGateway } from './mesh.js';
import { grafbaseGateway } from './grafbase.js';
import { apolloRouterGateway, hiveRouterGateway } from './native-routers.js';
import type { GatewayAdapter } from './types.js';
import { GwprofError } from '@gwprof/results';

export * from './types.js';
export { installGateway } from './install.js';
export { NATIVE_BINARIES, installNativeBinary, nativeBinaryPath, nativeCacheDir } from './native-builds.js';

export const BUILT_IN_GATEWAYS: Record<string, () => GatewayAdapter> = {
  mesh: meshGateway,
  hive: hiveGateway,
  apollo: apolloGateway,
  grafbase: grafbaseGateway,
  'hive-router': hiveRouterGateway,
  'apollo-router': apolloRouterGateway,
};

/** Turns a gateway spec (mesh, hive, apollo, cmd:<shell command>) into its adapter. */
/** `cwd`: where a cmd: gateway runs (default the user's folder; a scenario file's own gateway runs from the file's). */
export function gatewayFromSpec(spec: string, cwd?: string): GatewayAdapter {
  if (spec.startsWith('cmd:')) {
    const command = spec.slice(4).trim();
    if (!command) throw new GwprofError('gateway spec cmd: needs a command, e.g. cmd:"node dist/server.js"');
    return commandGateway(command, cwd);
  }
  const factory = BUILT_IN_GATEWAYS[spec];
  if (!factory) {
    throw new GwprofError(`unknown gateway "${spec}": use one of ${Object.keys(BUILT_IN_GATEWAYS).join(', ')} or cmd:<shell command>`);
  }
  return factory();
}
