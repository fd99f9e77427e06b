/**
 * The harness's own heap after a full GC: what it really holds, where its RSS also counts garbage
 * not yet collected and memory the allocator keeps. A soak records it at every calm to show that the
 * harness stays bounded over days.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | null = null;

/** `gc` exposed at run time (the harness runs without --expose-gc): setting the flag makes new contexts get it. */
function fullGc(): () => void {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  return collect;
}

export function harnessHeapAfterGc(): number {
  fullGc()();
  return process.memoryUsage().heapUsed;
}
