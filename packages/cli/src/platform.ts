/**
 * gwprof measures with Linux's tools (taskset, prlimit, setpriv, /proc, cgroups, callgrind): a
 * command that starts or measures processes says so in one line on another platform, before
 * anything runs. Reading files (buckets, report, open, export) works anywhere.
 */
import { GwprofError } from '@gwprof/results';

export const MEASURING_COMMANDS = new Set(['sweep', 'compare', 'soak', 'up']);

export function assertLinux(command: string, platform: string = process.platform): void {
  if (platform === 'linux' || !MEASURING_COMMANDS.has(command)) return;
  throw new GwprofError(
    `${command} runs on Linux only (it uses taskset, prlimit, setpriv, /proc and cgroups), and this is ${platform}: run it on a Linux machine or CI runner; buckets, report, open and export work here`,
  );
}
