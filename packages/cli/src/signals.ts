/**
 * Ctrl-C and SIGTERM abort the work through an AbortSignal, so the sweep stops its load,
 * stops every child process and writes results.json with the finished steps. A second
 * signal exits at once (children are still stopped by the sweep's cleanup where possible).
 */
export async function withInterruptSignal<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let count = 0;
  const onSignal = (name: NodeJS.Signals): void => {
    count++;
    if (count === 1) {
      process.stderr.write(`\n${name}: stopping the step and every process started, keeping finished steps…\n`);
      controller.abort();
    } else {
      process.stderr.write(`${name} again: exiting now\n`);
      process.exit(130);
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await work(controller.signal);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
