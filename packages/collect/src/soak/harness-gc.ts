/**
 * The harness's own heap after a full GC: what it really holds, where its RSS also counts garbage
 * not yet collected and memory the allocator keeps. A soak records it at every calm to show that the
 * harness stays bounded over days.
 */
import { fullGc } from '../profiler/full-gc.cjs';

export function harnessHeapAfterGc(): number {
  fullGc();
  return process.memoryUsage().heapUsed;
}
