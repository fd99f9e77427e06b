/**
 * The ordered points of a bisection, good end first: a built-in gateway's published versions between
 * two of them (Hive Gateway's, Apollo Gateway's and Grafbase's from the npm registry, the routers'
 * from crates.io's index, or a list given), or a repository's first-parent commits between two revisions.
 */
import { execFileSync } from 'node:child_process';
import { GwprofError, type BisectPoint } from '@gwprof/results';
import { compareVersions, publishedVersions, versionedGateways } from '../gateways/published-versions.js';

export { compareVersions };

export interface PointId {
  id: string;
  label: string;
}

/** Versions between good and bad (both included), oldest first; prereleases only when an end is one. */
export async function versionPoints(gateway: string, good: string, bad: string, listed?: string[]): Promise<PointId[]> {
  if (!listed && !versionedGateways().includes(gateway))
    throw new GwprofError(
      `bisect --gateway takes a built-in gateway with published versions (${versionedGateways().join(', ')}); bisect other gateways by commits with --repo, --build and --run`,
    );
  const published = listed ?? (await publishedVersions(gateway));
  const prerelease = (v: string) => /-/.test(v);
  const keep = published.filter((v) => !prerelease(v) || v === good || v === bad).sort(compareVersions);
  for (const end of [good, bad])
    if (!keep.includes(end)) throw new GwprofError(`${gateway} has no published version ${end} (have: ${keep.slice(-8).join(', ')}, …)`);
  if (compareVersions(good, bad) >= 0) throw new GwprofError(`--good ${good} must be older than --bad ${bad}`);
  return keep.filter((v) => compareVersions(v, good) >= 0 && compareVersions(v, bad) <= 0).map((v) => ({ id: v, label: v }));
}

/** First-parent commits from good to bad, both included, oldest first. */
export function commitPoints(repo: string, good: string, bad: string): PointId[] {
  const git = (...args: string[]) => {
    try {
      return execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
    } catch (error) {
      throw new GwprofError(
        `git ${args.join(' ')} failed in ${repo}: ${((error as { stderr?: string }).stderr ?? (error as Error).message).trim().split('\n')[0]}`,
      );
    }
  };
  const goodSha = git('rev-parse', '--verify', `${good}^{commit}`);
  const badSha = git('rev-parse', '--verify', `${bad}^{commit}`);
  const isAncestor = (() => {
    try {
      execFileSync('git', ['-C', repo, 'merge-base', '--is-ancestor', goodSha, badSha], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();
  if (!isAncestor || goodSha === badSha) throw new GwprofError(`--good ${good} must be an ancestor of --bad ${bad} in ${repo}`);
  const lines = git('log', '--first-parent', '--reverse', '--format=%H %s', `${goodSha}..${badSha}`).split('\n').filter(Boolean);
  const subject = (sha: string) => git('log', '-1', '--format=%s', sha);
  const point = (sha: string, title: string): PointId => ({ id: sha, label: `${sha.slice(0, 10)} ${title}`.slice(0, 80) });
  return [point(goodSha, subject(goodSha)), ...lines.map((line) => point(line.slice(0, 40), line.slice(41)))];
}

/** A point not counted yet. */
export function newPoint(index: number, point: PointId, spec: string): BisectPoint {
  return { index, id: point.id, label: point.label, spec, counts: [], skipped: null };
}
