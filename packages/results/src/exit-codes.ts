/**
 * What each exit code of gwprof means, the same for every command, so a CI step can act on it
 * without reading the output.
 */
export const EXIT = {
  /** Passed: every step ok, no change or improvement, no leak. */
  ok: 0,
  /** Measured and failed: a step failed, a regression, a leak or a crash. */
  failed: 1,
  /** Nothing to judge: bad input, or the harness could not run to the end (one line says why). */
  error: 2,
  /** Measured, but the budget ran out before the test could decide. */
  inconclusive: 3,
  /** Measured, but a response failed validation: the gateway's figures are not comparable, no verdict. */
  invalid: 4,
  /** Stopped by Ctrl-C or SIGTERM; results.json keeps what finished. */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
