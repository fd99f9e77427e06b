import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeVersionSpec } from '../gateways/node-versions.js';
import { commitPoints, compareVersions, versionPoints } from './bisect-points.js';

describe('the points of a bisection', () => {
  it('orders versions as releases, a prerelease before its release', () => {
    expect(['2.10.4', '1.0.5', '2.9.0', '2.10.4-alpha.1', '1.16.5'].sort(compareVersions)).toEqual(['1.0.5', '1.16.5', '2.9.0', '2.10.4-alpha.1', '2.10.4']);
  });

  it('takes the versions between the ends, both included, without prereleases, and refuses ends it does not have', async () => {
    const listed = ['1.0.5', '1.10.4', '2.0.0-rc.1', '2.5.1', '2.15.1', '3.0.0'];
    expect((await versionPoints('hive', '1.10.4', '2.15.1', listed)).map((p) => p.id)).toEqual(['1.10.4', '2.5.1', '2.15.1']);
    await expect(versionPoints('hive', '1.2.3', '2.15.1', listed)).rejects.toThrow(/hive has no published version 1\.2\.3/);
    await expect(versionPoints('hive', '2.15.1', '1.0.5', listed)).rejects.toThrow(/--good 2\.15\.1 must be older than --bad 1\.0\.5/);
    await expect(versionPoints('mesh', '1.0.0', '1.1.0')).rejects.toThrow(/bisect --gateway takes a built-in gateway with published versions/);
  });

  it("takes a repository's first-parent commits from good to bad, oldest first, with their subjects", () => {
    const repo = mkdtempSync(path.join(os.tmpdir(), 'gwprof-points-'));
    const git = (...args: string[]) => execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8' }).trim();
    git('init', '-q', '-b', 'main');
    const shas = ['one', 'two', 'three'].map((subject) => {
      writeFileSync(path.join(repo, 'f'), subject);
      git('add', '-A');
      git('commit', '-q', '-m', subject);
      return git('rev-parse', 'HEAD');
    });
    const points = commitPoints(repo, shas[0]!, 'main');
    expect(points.map((p) => p.id)).toEqual(shas);
    expect(points[2]!.label).toBe(`${shas[2]!.slice(0, 10)} three`);
    expect(() => commitPoints(repo, 'main', shas[0]!)).toThrow(/--good main must be an ancestor of --bad/);
  });

  it('reads another published version of a built-in Node gateway from its spec', () => {
    expect(nodeVersionSpec('hive@2.10.4')).toEqual({ name: 'hive', version: '2.10.4' });
    expect(nodeVersionSpec('mesh@0.103.2')).toBeNull();
    expect(nodeVersionSpec('hive')).toBeNull();
  });
});
