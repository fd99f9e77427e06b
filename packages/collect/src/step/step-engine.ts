/** Who sends a step's load: gwprof's closed or open loop on the scenario's requests, or a local k6 running the exported script. */
import path from 'node:path';
import { startK6Engine } from '../k6/k6-engine.js';
import { startClosedLoop } from '../load/closed-loop.js';
import { wireRequests } from '../load/http1-request.js';
import type { LoadEngine } from '../load/load-engine.js';
import { startOpenLoop } from '../load/open-loop.js';
import type { LoadRecorder } from '../load/recorder.js';
import type { RequestTraces } from '../load/request-traces.js';
import { RequestStream } from '../load/request-stream.js';
import type { StepContext } from './step-types.js';

export function startEngine(
  ctx: Pick<StepContext, 'gateway' | 'load' | 'scenario' | 'runDir' | 'settings'>,
  recorder: LoadRecorder,
  traces: RequestTraces | null,
): LoadEngine {
  const engine = ctx.settings.engine;
  if (engine?.kind === 'k6') {
    return startK6Engine({
      k6: engine.k6,
      url: ctx.gateway.url,
      load: ctx.load,
      timeoutSec: ctx.settings.timeoutSec,
      scenario: ctx.scenario,
      workDir: path.join(ctx.runDir, 'k6'),
      recorder,
    });
  }
  const stream = new RequestStream(ctx.scenario);
  const common = {
    wire: wireRequests(ctx.gateway.url, stream.bodies, { traced: traces !== null }),
    timeoutMs: ctx.settings.timeoutSec * 1000,
    stream,
    recorder,
    ...(traces ? { traces } : {}),
  };
  if (ctx.load.kind === 'closed') return startClosedLoop({ ...common, connections: ctx.load.concurrency });
  // The seed makes a step's arrivals the same every time the step runs.
  return startOpenLoop({ ...common, rate: ctx.load.targetRps, arrivals: ctx.load.arrivals, maxInFlight: ctx.load.maxInFlight, seed: ctx.load.targetRps });
}
