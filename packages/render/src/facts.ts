/** Facts of a run shown as label and value by every page, and the command line as a shell would read it. */
import type { RunEnvironment } from '@gwprof/results';
import { NONE, integer } from './format.js';

/** A labelled value as plain, unescaped text; each renderer escapes for its own format. */
export interface Fact {
  label: string;
  value: string;
}

export function keyValues(record: Record<string, string | number>): string {
  const entries = Object.entries(record);
  return entries.length === 0 ? NONE : entries.map(([k, v]) => `${k}=${v}`).join(' ');
}

/** Shell-like rendering of an argv, quoting arguments that need it, for "how to reproduce". */
export function commandLineText(argv: string[]): string {
  return argv.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/** Where and how a run was measured: the machine, the cores, the gateway's packages, the commit and the command line. */
export function environmentFacts(env: RunEnvironment): Fact[] {
  const memoryLimit =
    env.gatewayMemoryLimitMB === null ? 'none' : `${integer(env.gatewayMemoryLimitMB)} MB${env.memoryLimitMethod ? ` (${env.memoryLimitMethod})` : ''}`;
  return [
    { label: 'Node', value: env.node },
    { label: 'Platform', value: env.platform },
    { label: 'CPU', value: `${env.cpuModel} × ${env.cpuCount}` },
    { label: 'Memory', value: `${integer(env.totalMemMB)} MB` },
    { label: 'CPU set (gateway)', value: env.cpuSets.gateway ?? 'not pinned' },
    { label: 'CPU set (others)', value: env.cpuSets.others ?? 'not pinned' },
    { label: 'Gateway memory limit', value: memoryLimit },
    { label: 'File descriptors', value: `soft ${env.fdLimit.soft}, hard ${env.fdLimit.hard}` },
    { label: 'Gateway packages', value: keyValues(env.gatewayPackages) },
    { label: 'Git commit', value: env.gitCommit ?? 'unknown' },
    { label: 'Host', value: env.hostname },
    { label: 'Command line', value: commandLineText(env.commandLine) },
  ];
}
