/**
 * V8's perf map (which JIT code is which JavaScript function) of a Node gateway counted under
 * callgrind: the flags that make V8 write it, where its event log goes instead of the user's folder,
 * and the map moved from /tmp into the run folder.
 */
import { copyFileSync, existsSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** V8 names its JIT code in /tmp/perf-<pid>.map; interpreted functions get code of their own to be named by. */
export const PERF_MAP_V8_FLAGS = ['--perf-basic-prof', '--interpreted-frames-native-stack'];
const V8_LOG_PREFIX = 'v8-events-';

/**
 * --perf-basic-prof also opens V8's event log, by default isolate-*.log in the working folder: the
 * user's repository. It goes to the run folder instead, and is removed once the map is kept.
 */
export function v8LogFlags(runDir: string): string[] {
  return ['--no-logfile-per-isolate', `--logfile=${path.join(runDir, 'callgrind', V8_LOG_PREFIX)}%p.log`];
}

export function removeV8Logs(runDir: string): void {
  const dir = path.join(runDir, 'callgrind');
  for (const name of readdirSync(dir)) if (name.startsWith(V8_LOG_PREFIX)) rmSync(path.join(dir, name), { force: true });
}

/** A process's perf map, moved into the run folder as callgrind/<name>.perf.map; null when there is none. */
export function keepPerfMap(runDir: string, pid: number, name: string): string | null {
  const source = path.join(os.tmpdir(), `perf-${pid}.map`);
  if (!existsSync(source)) return null;
  const target = path.join(runDir, 'callgrind', `${name}.perf.map`);
  copyFileSync(source, target);
  rmSync(source, { force: true });
  return path.relative(runDir, target);
}
