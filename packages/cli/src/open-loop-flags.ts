/**
 * Flags that shape an open loop (--rate): how arrivals are spaced, the cap on outstanding
 * requests, the targets for the highest rate. A closed loop (--concurrency) has no use for them,
 * so giving them there is refused rather than silently ignored.
 */
import type { Command } from 'commander';
import { GwprofError } from '@gwprof/results';

interface LoadFlags {
  rate?: unknown;
  concurrency?: unknown;
}

/** Refuses the open-loop `flags` (long names, "--slo") given on the command line when `closed(opts)` says the loop is closed. */
export function refuseOpenLoopFlags(command: Command, flags: readonly string[], closed: (load: LoadFlags) => boolean): Command {
  return command.hook('preAction', (self) => {
    if (!closed(self.opts<LoadFlags>())) return;
    const given = flags.filter((flag) => self.getOptionValueSource(attributeOf(flag)) === 'cli');
    if (given.length === 0) return;
    const names = given.join(' and ');
    throw new GwprofError(
      `${names} ${given.length === 1 ? 'shapes' : 'shape'} an open loop (--rate), and this ${self.name()} is a closed loop (--concurrency): leave ${given.length === 1 ? 'it' : 'them'} out, or give --rate instead`,
    );
  });
}

/** "--max-in-flight" → "maxInFlight", as commander names the option's value. */
function attributeOf(flag: string): string {
  return flag.replace(/^--/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}
