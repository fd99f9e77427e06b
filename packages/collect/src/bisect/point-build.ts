/**
 * A point made ready to start: a published version installed (or built) into gwprof's cache, or a
 * commit checked out in a worktree of its own under the run folder and built there with the user's
 * command. What fails here is a skip, named with its stage and the failure's last line, never a count.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BisectPoint, BisectSkip, BisectSource } from '@gwprof/results';
import { gatewayFromSpec, installGateway, type GatewayAdapter } from '../gateways/index.js';
import { shellQuote } from '../services/gateway-process.js';
import { spawnGroup } from '../processes/process-group.js';

export type PreparedPoint = { adapter: GatewayAdapter } | { skip: BisectSkip };

/** The spec a point runs as: `name@version`, or the commit's run command in its worktree. */
export function pointSpec(source: BisectSource, id: string, runDir: string): string {
  if (source.kind === 'versions') return `${source.gateway}@${id}`;
  const worktree = worktreeOf(runDir, id);
  return `cmd:cd ${shellQuote(worktree)} && exec ${source.run}`;
}

export async function preparePoint(
  source: BisectSource,
  point: BisectPoint,
  runDir: string,
  signal: AbortSignal,
  onProgress: (line: string, final: boolean) => void,
): Promise<PreparedPoint> {
  if (source.kind === 'versions') {
    try {
      await installGateway(point.spec, onProgress, signal);
      return { adapter: gatewayFromSpec(point.spec) };
    } catch (error) {
      if (signal.aborted) throw error;
      return { skip: { stage: 'install', reason: lastLine((error as Error).message) } };
    }
  }
  const worktree = worktreeOf(runDir, point.id);
  const built = `${worktree}.built`;
  if (!existsSync(built)) {
    if (!existsSync(worktree)) addWorktree(source.repo, worktree, point.id);
    if (source.build) {
      onProgress(`building ${point.label}…`, false);
      const failure = await runBuild(source.build, worktree, `${worktree}.build.log`, signal);
      if (failure) return { skip: { stage: 'build', reason: failure } };
    }
    writeFileSync(built, `${new Date().toISOString()}\n`);
  }
  return { adapter: gatewayFromSpec(point.spec, worktree) };
}

export function worktreeOf(runDir: string, sha: string): string {
  return path.join(runDir, 'worktrees', sha.slice(0, 12));
}

function addWorktree(repo: string, worktree: string, sha: string): void {
  mkdirSync(path.dirname(worktree), { recursive: true });
  execFileSync('git', ['-C', repo, 'worktree', 'add', '--detach', '--force', worktree, sha], { stdio: 'ignore' });
}

/** The build command in the worktree, its output to a log; null when it exits 0, else why not. */
function runBuild(command: string, cwd: string, logFile: string, signal: AbortSignal): Promise<string | null> {
  const log = openSync(logFile, 'w');
  return new Promise((resolve, reject) => {
    const child = spawnGroup('sh', ['-c', command], { cwd, stdio: ['ignore', log, log] }, signal);
    child.once('error', (error) => {
      closeSync(log);
      if (signal.aborted) reject(error);
      else resolve(`the build did not run: ${error.message}`);
    });
    child.once('exit', (code, killed) => {
      closeSync(log);
      if (signal.aborted) return reject(new Error('interrupted'));
      if (code === 0) return resolve(null);
      const tail = lastLine(readFileSync(logFile, 'utf8'));
      resolve(`the build exited ${code ?? killed} (${path.basename(logFile)}): ${tail}`);
    });
  });
}

function lastLine(text: string): string {
  const lines = text
    .trim()
    .split('\n')
    .filter((l) => l.trim());
  return (lines[lines.length - 1] ?? '').trim().slice(0, 300);
}
