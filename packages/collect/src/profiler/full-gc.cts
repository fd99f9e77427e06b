/**
 * A full GC on demand, as `global.gc()` makes it, in a process started without --expose-gc: setting
 * the flag at run time gives `gc` to contexts created after it. Shared by the gateway preload and the
 * harness (a soak's own heap after GC). Plain CommonJS with no side effect on load, so the preload
 * can require it.
 */
import v8 = require('node:v8');
import vm = require('node:vm');

let collect: (() => void) | null = null;

export function fullGc(): void {
  if (!collect) {
    v8.setFlagsFromString('--expose-gc');
    collect = vm.runInNewContext('gc') as () => void;
  }
  collect();
}
