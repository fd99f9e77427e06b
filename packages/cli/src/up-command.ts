import { BUILT_IN_SPECS } from './gateway-specs.js';
import { Command } from 'commander';
import { DEFAULTS, bringUp } from '@gwprof/collect';
import { collectKeyValue } from './options.js';
import { addServiceOptions, serviceOptions, type ServiceFlags } from './service-options.js';
import { withInterruptSignal } from './signals.js';
import { ProgressLine } from './progress.js';
import { JSON_OPTION_HELP, writeJsonFlag, type JsonFlag } from './json-option.js';

interface UpFlags extends ServiceFlags {
  gateway: string;
  gatewayEnv?: Record<string, string>;
  json?: JsonFlag;
}

export function upCommand(): Command {
  const command = new Command('up')
    .description('start the subgraphs and a gateway as a sweep would (same isolation), print their URLs and pids, and keep them up until Ctrl-C or SIGTERM')
    .option('-g, --gateway <spec>', `gateway: ${BUILT_IN_SPECS}, or cmd:<shell command> (run in the folder you started gwprof from)`, DEFAULTS.gateway)
    .option('--gateway-env <KEY=VALUE>', 'environment variable for the gateway process only (repeatable)', collectKeyValue('--gateway-env'))
    .option('--json [file]', `the services' URLs and pids, once they are up, ${JSON_OPTION_HELP}`);
  return addServiceOptions(command, { profiling: false }).action(async (flags: UpFlags) => {
    const progress = new ProgressLine();
    await withInterruptSignal(async (signal) => {
      const bed = await bringUp({
        ...serviceOptions(flags),
        gateway: flags.gateway,
        gatewayEnv: flags.gatewayEnv ?? {},
        onProgress: (line, final) => progress.update(line, final),
      });
      try {
        const lines = [
          '',
          `gateway   ${bed.gateway.url}  pid ${bed.gateway.pid}${bed.gateway.cpus ? `  cpus ${bed.gateway.cpus}` : ''}`,
          ...Object.entries(bed.subgraphs).map(([name, s]) => `subgraph  ${s.url}  pid ${s.pid ?? '?'}  (${name})`),
          `logs      ${bed.runDir}/logs`,
          '',
          `measure it:  gwprof sweep --gateway url:${bed.gateway.url} --gateway-pid ${bed.gateway.pid}${flags.subgraphPorts.join(',') === Object.values(DEFAULTS.subgraphPorts).join(',') ? '' : ` --subgraph-ports ${flags.subgraphPorts.join(',')}`}`,
          'Ctrl-C (or SIGTERM) stops everything.',
          '',
        ];
        const services = {
          gateway: bed.gateway,
          subgraphs: bed.subgraphs,
          logs: `${bed.runDir}/logs`,
        };
        if (!writeJsonFlag(flags.json, services)) process.stdout.write(lines.join('\n'));
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      } finally {
        await bed.close();
      }
    });
    process.stderr.write('stopped the gateway and the subgraphs\n');
  });
}
