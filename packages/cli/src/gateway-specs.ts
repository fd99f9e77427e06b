/** The built-in gateways as every --help lists them. */
import { BUILT_IN_GATEWAYS } from '@gwprof/collect';

export const BUILT_IN_SPECS = Object.keys(BUILT_IN_GATEWAYS).join(', ');
