/** A run's folder and logs: named once here for sweeps and comparisons alike. */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createRunLogs, type RunLogs } from '../processes/log.js';

export interface RunFolder {
  runId: string;
  runDir: string;
  logs: RunLogs;
}

/** `2026-11-21T07-36-22-966-mesh`: sortable by time, then what ran. */
export function makeRunId(label: string, now = new Date()): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-').replace('Z', '');
  const slug = label
    .replace(/^cmd:/, 'cmd-')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .slice(0, 32)
    .replace(/-+$/, '');
  return `${stamp}-${slug}`;
}

export function openRunFolder(outDir: string, runId: string): RunFolder {
  const runDir = path.resolve(outDir, runId);
  mkdirSync(runDir, { recursive: true });
  return { runId, runDir, logs: createRunLogs(runDir) };
}
