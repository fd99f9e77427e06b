/** Failure kinds as every page names them. */
import { FAILURE_KINDS } from '@gwprof/analysis';
import type { FailureCounts } from '@gwprof/results';
import { NONE, integer } from './format.js';

export { failureLabel } from '@gwprof/analysis';

/** "non2xx 1,000, timeouts 3", or the placeholder when nothing failed. */
export function failureBreakdown(failures: FailureCounts): string {
  const parts = FAILURE_KINDS.filter(([kind]) => (failures[kind] ?? 0) > 0).map(([kind, label]) => `${label} ${integer(failures[kind])}`);
  return parts.length > 0 ? parts.join(', ') : NONE;
}
