/**
 * k6 as the load engine of a step (`sweep --engine k6`): the exported script runs under a local k6
 * for as long as the step's load runs, and its samples, streamed as JSON lines on k6's stdout, are
 * filed in the step's recorder like gwprof's own completions, so settle, warm-up, window, profile
 * and buckets are unchanged. What k6 reports as validated (gwprof_ok_duration) is a success with its
 * latency; gwprof_failed a failure of its kind; dropped_iterations a send the cap refused.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { GwprofError, type FailureCounts, type LoadShape } from '@gwprof/results';
import type { Scenario } from '../scenario/scenario.js';
import { emptyFailureCounts } from '../load/failure-log.js';
import type { LoadEngine } from '../load/load-engine.js';
import type { LoadRecorder } from '../load/recorder.js';
import { k6Data, k6Script } from './k6-script.js';

export interface K6EngineOptions {
  k6: string;
  url: string;
  load: LoadShape;
  timeoutSec: number;
  scenario: Scenario;
  /** Where the script, its data and k6's log go. */
  workDir: string;
  recorder: LoadRecorder;
}

/** Long enough that the step, not k6, ends the load (k6 is stopped with SIGINT). */
const UNTIL_STOPPED_SEC = 24 * 3600;
const STREAMED_METRICS = ['gwprof_ok_duration', 'gwprof_failed', 'dropped_iterations'].map((name) => `{"metric":"${name}","type":"Point"`);
const KINDS = new Set(Object.keys(emptyFailureCounts()));

/** k6 on PATH or at `--k6 PATH`, or a one-line error that says how to get it. */
export function findK6(explicit: string | undefined): string {
  const candidates = explicit ? [explicit] : (process.env.PATH ?? '').split(path.delimiter).map((dir) => path.join(dir, 'k6'));
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found)
    throw new GwprofError(
      `${explicit ? `--k6 ${explicit} does not exist` : 'k6 is not on PATH'}: install it with \`go install go.k6.io/k6@v1.8.1\` (it lands in $(go env GOPATH)/bin), or give --k6 PATH`,
    );
  // k6 runs in the step's folder: a relative path must not be read from there.
  return path.resolve(found);
}

function writeScript(options: K6EngineOptions): string {
  mkdirSync(options.workDir, { recursive: true });
  const dataFile = 'gwprof-k6-data.json';
  const data = path.join(options.workDir, dataFile);
  if (!existsSync(data)) writeFileSync(data, k6Data(options.scenario));
  const script = path.join(options.workDir, `gwprof-k6-${options.load.kind === 'closed' ? `c${options.load.concurrency}` : `r${options.load.targetRps}`}.js`);
  writeFileSync(
    script,
    k6Script({ url: options.url, load: options.load, durationSec: UNTIL_STOPPED_SEC, timeoutSec: options.timeoutSec, dataFile, source: 'sweep --engine k6' }),
  );
  return script;
}

/** One k6 sample line into the recorder, at the moment k6 took it on gwprof's clock. */
function fileSample(recorder: LoadRecorder, line: string): void {
  // k6 writes about a dozen samples per request: only gwprof's own are parsed.
  if (!STREAMED_METRICS.some((prefix) => line.startsWith(prefix))) return;
  let sample: { type?: string; metric?: string; data?: { time?: string; value?: number; tags?: Record<string, string> } };
  try {
    sample = JSON.parse(line);
  } catch {
    return;
  }
  if (sample.type !== 'Point' || !sample.data?.time) return;
  const at = performance.now() - (Date.now() - Date.parse(sample.data.time));
  const value = sample.data.value ?? 0;
  if (sample.metric === 'gwprof_ok_duration') {
    recorder.onSend(at - value);
    recorder.onComplete(at, { ok: true, latencyMs: value, orderWarning: false, bytes: 0 });
  } else if (sample.metric === 'gwprof_failed') {
    const kind = (KINDS.has(sample.data.tags?.kind ?? '') ? sample.data.tags!.kind : 'socketErrors') as keyof FailureCounts;
    recorder.onSend(at);
    recorder.onComplete(at, { ok: false, kind, message: `k6: ${kind}`, bytes: 0 });
  } else if (sample.metric === 'dropped_iterations') {
    for (let i = 0; i < value; i++) recorder.onDrop(at);
  }
}

export function startK6Engine(options: K6EngineOptions): LoadEngine {
  const script = writeScript(options);
  const child: ChildProcess = spawn(options.k6, ['run', '--quiet', '--summary-mode=disabled', '--no-usage-report', '--out', 'json=-', script], {
    cwd: options.workDir,
    env: { ...process.env, GWPROF_URL: options.url, K6_NO_USAGE_REPORT: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  // If the harness dies before stop(), k6 must not outlive it.
  const killNow = () => {
    if (child.pid && child.exitCode === null) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };
  process.on('exit', killNow);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines = readline.createInterface({ input: child.stdout! });
  lines.on('line', (line) => fileSample(options.recorder, line));
  // k6's own messages (request errors, warnings) stay readable beside the script.
  child.stderr!.pipe(createWriteStream(path.join(options.workDir, 'k6.log'), { flags: 'a' }));
  return {
    answered: () => null,
    pids: () => (child.pid ? [child.pid] : []),
    async stop() {
      // SIGINT: k6 ends the test gracefully and flushes its samples; its process group, so nothing stays behind.
      if (child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGINT');
      const timer = setTimeout(() => child.pid && child.exitCode === null && process.kill(-child.pid, 'SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
      process.off('exit', killNow);
      lines.close();
    },
  };
}
