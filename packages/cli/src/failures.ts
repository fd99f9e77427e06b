import { GwprofError } from '@gwprof/results';

/**
 * A run that stopped on a bug is re-thrown once its files are written, so the CLI prints the stack;
 * an error the user can act on (GwprofError) is already in the run's record and its one-line report.
 */
export function throwIfBug(failure: Error | null): void {
  if (failure && !(failure instanceof GwprofError)) throw failure;
}
