/** Failure kinds as every page names them. */
import type { FailureCounts } from '@gwprof/results';
import { NONE, integer } from './format.js';

/** Short labels of failure kinds, in the order a reader checks them. */
const FAILURE_LABELS: Array<[keyof FailureCounts, string]> = [
  ['non2xx', 'non2xx'],
  ['graphqlErrors', 'graphqlErrors'],
  ['mismatch', 'mismatch'],
  ['timeouts', 'timeouts'],
  ['socketErrors', 'socket'],
  ['protocolErrors', 'protocol'],
  ['badBody', 'badBody'],
];

export function failureLabel(kind: keyof FailureCounts): string {
  return FAILURE_LABELS.find(([k]) => k === kind)?.[1] ?? kind;
}

/** "non2xx 1,000, timeouts 3", or the placeholder when nothing failed. */
export function failureBreakdown(failures: FailureCounts): string {
  const parts = FAILURE_LABELS.filter(([kind]) => (failures[kind] ?? 0) > 0).map(([kind, label]) => `${label} ${integer(failures[kind])}`);
  return parts.length > 0 ? parts.join(', ') : NONE;
}
