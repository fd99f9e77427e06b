/**
 * Before a step: wait until the gateway has worked off what came before (the requests the
 * previous step abandoned, start-up work), so no step starts on a busy gateway. Quiet means two
 * readings in a row below IDLE_PERCENT of a core with nothing waiting in its accept queue (a
 * backlog there would make the next step's connections wait their turn for seconds); the wait
 * is bounded, and the step records how long it took and whether it got there.
 */
import { CpuSampler } from './gateway-cpu.js';
import { acceptQueueLength } from '../processes/listening-pid.js';
import { sleep } from './ticks.js';

const READING_MS = 250;
const IDLE_PERCENT = 10;
const QUIET_READINGS = 2;

export interface Settled {
  /** When the settle began: a step's start, what its settleSec counts from. */
  startedAt: string;
  seconds: number;
  settled: boolean;
  /** The last reading, % of one core; null for a gateway we cannot see. */
  cpuPercent: number | null;
}

/**
 * `pids`: the gateway (or both gateways of a comparison, sharing a core); [] for one we cannot see.
 * `ports`: where they listen, for their accept queues.
 */
export async function settleGateway(
  pids: number | null | readonly number[],
  maxSeconds: number,
  signal: AbortSignal,
  ports: readonly number[] = [],
): Promise<Settled> {
  const startedAt = new Date().toISOString();
  const started = performance.now();
  const watched = pids === null ? [] : typeof pids === 'number' ? [pids] : [...pids];
  if (watched.length === 0) return { startedAt, seconds: 0, settled: true, cpuPercent: null };
  const sampler = new CpuSampler(watched);
  let quiet = 0;
  let last: number | null = null;
  while (!signal.aborted) {
    await sleep(READING_MS);
    last = sampler.read();
    const backlog = ports.reduce((sum, port) => sum + acceptQueueLength(port), 0);
    quiet = last !== null && last < IDLE_PERCENT && backlog === 0 ? quiet + 1 : 0;
    const seconds = (performance.now() - started) / 1000;
    if (quiet >= QUIET_READINGS) return { startedAt, seconds: round(seconds), settled: true, cpuPercent: last };
    if (seconds >= maxSeconds) return { startedAt, seconds: round(seconds), settled: false, cpuPercent: last };
  }
  return { startedAt, seconds: round((performance.now() - started) / 1000), settled: false, cpuPercent: last };
}

const round = (x: number): number => Math.round(x * 10) / 10;
