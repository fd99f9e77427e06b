/** Each command's checks before it starts anything (preflight.ts): the gateway kinds it takes and the ports it listens on. */
import { candidatePorts, gatewayKindOf, servicePorts, withPreflight, type GatewayKinds, type Preflight } from './preflight.js';
import type { Command } from 'commander';

const ANY_GATEWAY: GatewayKinds = { kinds: ['node', 'native', 'cmd', 'url'], why: '' };

const STARTED_GATEWAY = (command: string, why: string): GatewayKinds => ({ kinds: ['node', 'native', 'cmd'], why: `${command} ${why}` });

const CHECKS: Record<string, Preflight> = {
  sweep: {
    gateways: { options: { gateway: '--gateway' }, accepted: ANY_GATEWAY },
    ports: (opts, gateways) => (gatewayKindOf(gateways.gateway ?? '') === 'url' ? [] : servicePorts(opts)),
  },
  compare: {
    gateways: {
      options: { baseline: '--baseline', candidate: '--candidate' },
      accepted: STARTED_GATEWAY('compare', 'starts both gateways afresh every epoch, so it cannot measure one already running'),
    },
    ports: (opts) => (opts.baselineRun || opts.candidateRun ? [] : [...servicePorts(opts), ...candidatePorts(opts)]),
  },
  soak: {
    gateways: {
      options: { gateway: '--gateway' },
      accepted: { kinds: ['node', 'cmd'], why: "soak forces GCs and takes heap snapshots through gwprof's Node preload, in a gateway it starts itself" },
    },
    ports: (opts) => servicePorts(opts),
  },
  up: {
    gateways: { options: { gateway: '--gateway' }, accepted: STARTED_GATEWAY('up', 'starts the gateway') },
    ports: (opts) => servicePorts(opts),
  },
  goldens: { gateways: { options: { reference: '--reference' }, accepted: ANY_GATEWAY } },
};

/** Adds its checks to a command of the CLI (every command checks the paths it writes). */
export function withChecks(command: Command): Command {
  return withPreflight(command, CHECKS[command.name()]);
}
