/**
 * After a step's window, under the same load: V8's allocation sampler records physical frames
 * only, so a function TurboFan inlined has its bytes charged to its caller. Here inlining is
 * switched off (every optimised function dropped), the load re-warms the gateway so its hot
 * functions are optimised again without it, allocations alone are sampled, and inlining is
 * switched back on; the next step's warm-up optimises again. Nothing of it is in the step's
 * figures, which are the window's; publish takes from it only whose frames the bytes belong to.
 */
import path from 'node:path';
import type { AllocationAttribution } from '@gwprof/results';
import type { LoadRecorder } from '../load/recorder.js';
import type { StepContext } from './step-types.js';
import type { StepTimeline } from './timeline.js';

/** The inlining-off profile, or why there is none; undefined when it was not asked for or cannot be taken. */
export async function attributeAllocations(
  ctx: StepContext,
  timeline: StepTimeline,
  recorder: LoadRecorder,
): Promise<AllocationAttribution | { error: string } | undefined> {
  const plan = ctx.settings.allocationAttribution;
  const profiler = ctx.profiler;
  const bytes = ctx.settings.heapSamplingBytes;
  if (!plan || !bytes || !profiler?.setInlining || !profiler.startHeapSampling || !profiler.stopHeapSampling) return undefined;
  if (!ctx.gateway.isRunning() || ctx.settings.signal.aborted) return undefined;
  let switchMs = 0;
  let result: AllocationAttribution | { error: string };
  try {
    switchMs += (await profiler.setInlining(false)).ms;
    result = await sampleWithoutInlining(ctx, timeline, recorder, plan, bytes);
  } catch (error) {
    ctx.logs.harness.warn({ step: ctx.id, err: error }, 'no inlining-off allocation profile');
    result = { error: (error as Error).message };
  }
  // Whatever happened, the next step measures the gateway as it runs in production.
  if (ctx.gateway.isRunning()) {
    try {
      switchMs += (await profiler.setInlining(true)).ms;
    } catch (error) {
      ctx.logs.harness.warn({ step: ctx.id, err: error }, 'inlining could not be switched back on');
      result = { error: `inlining could not be switched back on: ${(error as Error).message}` };
    }
  }
  return 'error' in result ? result : { ...result, switchMs };
}

async function sampleWithoutInlining(
  ctx: StepContext,
  timeline: StepTimeline,
  recorder: LoadRecorder,
  plan: { rewarmSec: number; seconds: number },
  bytes: number,
): Promise<AllocationAttribution> {
  const profiler = ctx.profiler!;
  for (let i = 0; i < plan.rewarmSec && !ctx.settings.signal.aborted; i++) {
    await timeline.tick('attribution');
    progress(ctx, `allocations with inlining off: re-warm ${i + 1}/${plan.rewarmSec} s`);
  }
  const heapprofile = `step-${ctx.id}.attribution.heapprofile`;
  await profiler.startHeapSampling!(bytes);
  const start = timeline.seconds;
  for (let i = 0; i < plan.seconds && !ctx.settings.signal.aborted; i++) {
    await timeline.tick('attribution');
    progress(ctx, `allocations with inlining off: sampling ${i + 1}/${plan.seconds} s`);
  }
  const end = timeline.seconds;
  const { heapSamples } = await profiler.stopHeapSampling!(path.join(ctx.runDir, heapprofile));
  const okResponses = recorder.tally(start, end, ctx.settings.timeoutSec * 1000).ok;
  return { heapprofile, samples: heapSamples, rewarmSec: plan.rewarmSec, seconds: end - start, okResponses, switchMs: 0 };
}

function progress(ctx: StepContext, text: string): void {
  ctx.settings.onProgress(`${ctx.label ? `${ctx.label} ` : ''}${text}`, false);
}
