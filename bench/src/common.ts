/** What the benchmarks share: where the repository is, and the sweep's closed-loop load for a while. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LoadRecorder, RequestStream, startClosedLoop, type loadScenario } from '@gwprof/collect';

/** The repository's root (this file runs from bench/dist/). */
export const repoRoot = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

export type WindowStats = ReturnType<LoadRecorder['window']>;

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The sweep's own engine: a closed loop of `connections` for `seconds`, every response validated. */
export async function closedLoopFor(options: {
  url: string;
  connections: number;
  seconds: number;
  timeoutMs: number;
  scenario: ReturnType<typeof loadScenario>;
}): Promise<WindowStats> {
  const recorder = new LoadRecorder(performance.now());
  const engine = startClosedLoop({ url: options.url, connections: options.connections, timeoutMs: options.timeoutMs, stream: new RequestStream(options.scenario), recorder });
  await sleep(options.seconds * 1000 + 20);
  await engine.stop();
  return recorder.window(0, options.seconds);
}

/** `value` with `digits` decimals, or '–' when there is none. */
export const fixed = (value: number | null | undefined, digits: number): string => (value === null || value === undefined ? '–' : Number(value).toFixed(digits));
