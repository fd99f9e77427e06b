/**
 * An error the user can act on: bad input, a busy port, a gateway that will not start, a file that
 * is not what it should be. The CLI prints its message as one line and exits 2; any other error is
 * a bug in gwprof and is printed with its stack.
 */
export class GwprofError extends Error {
  override name = 'GwprofError';
}

/** Whatever was thrown, as an Error (a thrown string or object keeps its text). */
export function asError(thrown: unknown): Error {
  return thrown instanceof Error ? thrown : new Error(String(thrown));
}
