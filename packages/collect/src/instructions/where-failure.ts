/** Where the instructions went could not be shown: logged and recorded, the verdict untouched. */
import type { InstructionProfileRecord } from '@gwprof/results';
import type { ComparisonContext } from '../epochs/context.js';
import { PERF_MAP_V8_FLAGS } from './perf-map-files.js';

export function recordWhereFailure(
  ctx: ComparisonContext,
  error: unknown,
  how: Pick<InstructionProfileRecord, 'startedAt' | 'separateCallers' | 'callEdges'>,
  logLine: string,
): void {
  const message = (error as Error).message;
  ctx.session.logs.harness.warn({ err: error }, logLine);
  ctx.options.onProgress(`warning: no breakdown of the instructions: ${message}`, true);
  ctx.compare.instructionProfile = { error: message, ...how, finishedAt: new Date().toISOString(), v8Flags: PERF_MAP_V8_FLAGS, sides: null };
}
