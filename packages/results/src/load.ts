import type { CompareConfig, LoadShape } from './types.js';

/** A load's level as one number: connections (closed loop) or requests per second (open loop). */
export function loadLevel(load: LoadShape): number {
  return load.kind === 'closed' ? load.concurrency : load.targetRps;
}

/** How a load is named everywhere: "c=100" (closed loop) or "500 req/s" (open loop). */
export function loadLabel(load: LoadShape): string {
  return load.kind === 'closed' ? `c=${load.concurrency}` : `${load.targetRps} req/s`;
}

/** The load of one level of a comparison: connections, or an arrival rate with its arrivals and cap. */
export function compareLoadAt(load: CompareConfig['load'], level: number): LoadShape {
  return load.kind === 'closed'
    ? { kind: 'closed', concurrency: level }
    : { kind: 'open', targetRps: level, arrivals: load.arrivals, maxInFlight: load.maxInFlight };
}
