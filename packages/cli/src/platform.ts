/**
 * gwprof measures with Linux's tools (taskset, prlimit, setpriv, /proc, cgroups, callgrind): a
 * command that starts or measures processes says so in one line on another platform, before
 * anything runs. The package installs everywhere, and the commands that only read and write files
 * (buckets, report, open, export, import, and compare of two finished runs) work anywhere.
 */
import { GwprofError } from '@gwprof/results';

/** The commands that start gateways and subgraphs, or measure them. */
export const LINUX_ONLY_COMMANDS: ReadonlySet<string> = new Set(['sweep', 'compare', 'bisect', 'soak', 'up', 'goldens']);

const PLATFORM_NAMES: Record<string, string> = { darwin: 'macOS', win32: 'Windows' };

/** Whether the command, with these options, starts or measures processes. */
export function needsLinux(command: string, options: Record<string, unknown> = {}): boolean {
  // Two finished runs compared (--baseline-run, --candidate-run) are read, not measured.
  if (command === 'compare' && (options.baselineRun !== undefined || options.candidateRun !== undefined)) return false;
  return LINUX_ONLY_COMMANDS.has(command);
}

export function assertLinux(command: string, options: Record<string, unknown> = {}, platform: string = process.platform): void {
  if (platform === 'linux' || !needsLinux(command, options)) return;
  throw new GwprofError(
    `${command} runs on Linux only (it starts processes and measures them with taskset, prlimit, setpriv, /proc and cgroups), and this is ${PLATFORM_NAMES[platform] ?? platform}: run it on a Linux machine, container or CI runner; buckets, report, open, export and import work here`,
  );
}
