/** A counted batch for tests: `ok` of 30 requests passed, each at `perRequest` instructions. */
import type { InstructionBatch } from '@gwprof/results';

export function instructionBatch(epoch: number, side: InstructionBatch['side'], perRequest: number, ok = 30): InstructionBatch {
  return {
    epoch,
    side,
    batch: 1,
    startedAt: '',
    requests: 30,
    ok,
    failureCounts: { non2xx: 0, badBody: 0, graphqlErrors: 0, mismatch: 30 - ok, timeouts: 0, socketErrors: 0, protocolErrors: 0 },
    failureSamples: ok < 30 ? [{ kind: 'mismatch', message: 'data differs', count: 30 - ok }] : [],
    instructions: perRequest * ok,
    instructionsPerOkRequest: ok > 0 ? perRequest : null,
    seconds: 1,
    forcedGcMs: 1,
    dumpFile: 'x',
  };
}
