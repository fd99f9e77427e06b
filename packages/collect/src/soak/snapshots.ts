/**
 * Heap snapshots of a soak: written by the gateway's preload, summarised by class in a child
 * process (a snapshot can take hundreds of MB to read, and the harness's own memory must stay
 * flat), and removed from disk once older than the newest few, except the first: the summaries
 * stay in results.json, so the class trend needs no old file.
 */
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Logger } from 'pino';
import type { SoakSnapshot, SoakSnapshotClass } from '@gwprof/results';
import type { ProfilerClient } from '../profiler/controller.js';

const run = promisify(execFile);
const summarizer = fileURLToPath(new URL('./summarize-snapshot.js', import.meta.url));

export class SnapshotKeeper {
  private taken = 0;

  constructor(
    private readonly runDir: string,
    private readonly profiler: ProfilerClient,
    private readonly kept: number,
    private readonly log: Logger,
  ) {}

  /** A new snapshot at `atSec`, summarised; returns the list with older files pruned. */
  async take(atSec: number, snapshots: readonly SoakSnapshot[]): Promise<SoakSnapshot[]> {
    const file = `snapshot-${++this.taken}.heapsnapshot`;
    const { bytes, memoryAround } = await this.profiler.writeHeapSnapshot(path.join(this.runDir, file));
    let classes: SoakSnapshotClass[] | null = null;
    let error: string | null = null;
    try {
      classes = await summarize(path.join(this.runDir, file));
    } catch (cause) {
      error = (cause as Error).message.split('\n')[0] ?? 'summary failed';
      this.log.warn({ err: cause, file }, 'heap snapshot summary failed');
    }
    return this.prune([...snapshots, { atSec, file, bytes, memoryAround, classes, error }]);
  }

  /** Keeps the first file and the newest `kept`; the others keep their summary only. */
  private prune(snapshots: SoakSnapshot[]): SoakSnapshot[] {
    const withFiles = snapshots.map((s, i) => ({ s, i })).filter(({ s }) => s.file !== null);
    const keep = new Set([withFiles[0]?.i, ...withFiles.slice(-this.kept).map(({ i }) => i)]);
    return snapshots.map((snapshot, i) => {
      if (snapshot.file === null || keep.has(i)) return snapshot;
      rmSync(path.join(this.runDir, snapshot.file), { force: true });
      return { ...snapshot, file: null };
    });
  }
}

async function summarize(file: string): Promise<SoakSnapshotClass[]> {
  const { stdout } = await run(process.execPath, ['--max-old-space-size=8192', summarizer, file], { maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(stdout) as SoakSnapshotClass[];
}
