/** A comparison's compare.json as it opens: its config (the options as recorded) and no window yet. */
import type { CompareConfig, CompareResult, RequestSourceRecord } from '@gwprof/results';
import type { CompareOptions } from '../epochs/context.js';
import { recordHeader } from '../run/record-header.js';
import type { Session } from '../run/session.js';

export function newCompareRecord(
  options: CompareOptions,
  session: Session,
  recorded: RequestSourceRecord & Pick<CompareConfig, 'candidateExpect' | 'subgraphs'>,
  nodes: CompareConfig['nodes'],
): CompareResult {
  const config: CompareConfig = {
    baseline: options.baseline,
    candidate: options.candidate,
    baselineEnv: options.baselineEnv,
    candidateEnv: options.candidateEnv,
    load: options.load,
    levels: options.levels,
    ...recorded,
    profile: options.profile,
    heapSamplingBytes: options.profile ? options.heapSamplingBytes : null,
    nodes,
    design: options.design,
  };
  return {
    ...recordHeader('compare', session.runId),
    mode: 'windows',
    config,
    environment: session.environment,
    runs: null,
    epochs: [],
    windows: [],
    plan: null,
    budgetFit: null,
    stopReason: 'still running',
    analysis: null,
  };
}
