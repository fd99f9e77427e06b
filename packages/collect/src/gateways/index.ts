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
export { NATIVE_BINARIES, installNativeBinary, nativeBinaryPath, nativeCacheDir, nativeSpec } from './native-builds.js';
import { nativeSpec } from './native-builds.js';
import { nodeVersionSpec, versionedGatewayDir } from './node-versions.js';
import { parseVersionAsk, pinOf } from './gateway-versions.js';
export { gatewayPins, parseVersionAsk, resolveGatewaySpec, versionFor } from './gateway-versions.js';
export { VERSIONED_PACKAGE, nodeVersionSpec } from './node-versions.js';

export const BUILT_IN_GATEWAYS: Record<string, () => GatewayAdapter> = {
  mesh: meshGateway,
  hive: hiveGateway,
  apollo: apolloGateway,
  grafbase: grafbaseGateway,
  'hive-router': hiveRouterGateway,
  'apollo-router': apolloRouterGateway,
};

/**
 * The built-ins a soak's --reload-every reloads while they serve: each serves its schema files anew
 * when gwprof rewrites them (the routers once started to watch them: their adapters' `reloading()`).
 */
export const RELOADING_GATEWAYS: readonly string[] = ['hive', 'grafbase', 'hive-router', 'apollo-router'];

/** The native built-ins at another published version than their pin: `grafbase@0.100.0`. */
const NATIVE_AT_VERSION: Record<string, (version: string) => GatewayAdapter> = {
  grafbase: grafbaseGateway,
  'hive-router': hiveRouterGateway,
  'apollo-router': apolloRouterGateway,
};

/** The Node built-ins at another published version of their gateway package: `hive@2.10.4`. */
const NODE_AT_VERSION: Record<string, (dir: string, spec: string) => GatewayAdapter> = {
  hive: hiveGateway,
  apollo: apolloGateway,
};

/** Turns a gateway spec (mesh, hive, apollo, cmd:<shell command>) into its adapter. */
/** `cwd`: where a cmd: gateway runs (default the user's folder; a scenario file's own gateway runs from the file's). */
export function gatewayFromSpec(spec: string, cwd?: string): GatewayAdapter {
  if (spec.startsWith('cmd:')) {
    const command = spec.slice(4).trim();
    if (!command) throw new GwprofError('gateway spec cmd: needs a command, e.g. cmd:"node dist/server.js"');
    return commandGateway(command, cwd);
  }
  const native = nativeSpec(spec);
  if (native?.version) return NATIVE_AT_VERSION[native.name]!(native.version);
  const atVersion = nodeVersionSpec(spec);
  if (atVersion) return NODE_AT_VERSION[atVersion.name]!(versionedGatewayDir(atVersion.name, atVersion.version), spec);
  const factory = BUILT_IN_GATEWAYS[spec];
  const asked = /^([a-z-]+)@(.+)$/.exec(spec);
  if (!factory && asked && asked[1]! in BUILT_IN_GATEWAYS && parseVersionAsk(asked[2]!)) {
    // A line or `latest`: the commands turn it into one version before they start (resolveGatewaySpec).
    throw new GwprofError(
      `${spec} names no single version: give one (${asked[1]}@${pinOf(asked[1]!)}), or pass it to a gwprof command, which finds the newest`,
    );
  }
  if (!factory) {
    throw new GwprofError(
      `unknown gateway "${spec}": use one of ${Object.keys(BUILT_IN_GATEWAYS).join(', ')} or cmd:<shell command> (another version: hive-router@0.3.x, grafbase@0.100.0, hive@2.10.4)`,
    );
  }
  return factory();
}
