/** The built-in gateways as every --help lists them, with how to ask for another version and which runs by default. */
import { BUILT_IN_GATEWAYS, gatewayPins } from '@gwprof/collect';

export const BUILT_IN_SPECS = `${Object.keys(BUILT_IN_GATEWAYS).join(', ')} (at another version: hive-router@0.3.10, hive-router@0.3.x for the newest of a line, or @latest; by default ${gatewayPins()})`;
