/** Waits for whole seconds of a step's timeline (second k starts at startedAt + k·1000 ms). */

/** Resolves when second `second` begins, or at once when the signal aborts. */
export function untilSecond(startedAt: number, second: number, signal: AbortSignal): Promise<void> {
  const wait = Math.max(0, startedAt + second * 1000 - performance.now());
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, wait);
    signal.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
