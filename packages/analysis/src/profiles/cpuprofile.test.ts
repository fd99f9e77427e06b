import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GwprofError } from '@gwprof/results';
import { parseCpuProfile, readCpuProfile, sampleDurationsUs } from './cpuprofile.js';
import { frame, profileOf } from '../testing/profiles.js';

const valid = profileOf([{ stack: [frame('main', '/app/main.js')], count: 3 }]);

function parseError(text: string): GwprofError {
  try {
    parseCpuProfile(text, 'step-10.cpuprofile');
  } catch (error) {
    expect(error).toBeInstanceOf(GwprofError);
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    expect(message.startsWith('step-10.cpuprofile: ')).toBe(true);
    return error as GwprofError;
  }
  throw new Error('expected a GwprofError');
}

describe('parseCpuProfile', () => {
  it('accepts a V8 profile and keeps its content', () => {
    expect(parseCpuProfile(JSON.stringify(valid), 'x')).toEqual(valid);
  });

  it('accepts a profile that has hit counts instead of samples', () => {
    const { samples: _s, timeDeltas: _t, ...rest } = valid;
    const withHits = { ...rest, nodes: rest.nodes.map((n) => ({ ...n, hitCount: 1 })) };
    expect(parseCpuProfile(JSON.stringify(withHits), 'x').samples).toBeUndefined();
  });

  it('names the file and the problem in one line', () => {
    const text = JSON.stringify(valid);
    expect(parseError(text.slice(0, text.length / 2)).message).toMatch(/truncated or invalid JSON/);
    expect(parseError('').message).toMatch(/empty file/);
    expect(parseError('[1, 2]').message).toMatch(/not a V8 CPU profile: top level is not a JSON object/);
    expect(parseError('{"traceEvents": []}').message).toMatch(/missing "nodes" array/);
    expect(parseError(JSON.stringify({ ...valid, samples: [2, 99] })).message).toMatch(/samples\[1\] = 99 names no node/);
    expect(parseError(JSON.stringify({ ...valid, samples: undefined, timeDeltas: undefined })).message).toMatch(/no "samples" array and no node "hitCount"/);
    expect(parseError(JSON.stringify({ ...valid, timeDeltas: [1] })).message).toMatch(/"timeDeltas" has 1 entries but "samples" has 3/);
    expect(parseError(JSON.stringify({ ...valid, startTime: 'soon' })).message).toMatch(/startTime/);
    const orphanChild = { ...valid, nodes: [{ ...valid.nodes[0]!, children: [42] }, ...valid.nodes.slice(1)] };
    expect(parseError(JSON.stringify(orphanChild)).message).toMatch(/lists child 42, which names no node/);
    const noFrame = { ...valid, nodes: [{ id: 1 }] };
    expect(parseError(JSON.stringify(noFrame)).message).toMatch(/nodes\[0\] has no "callFrame"/);
  });
});

describe('readCpuProfile', () => {
  it('reads a file and names it when it is missing or broken', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gwprof-analysis-'));
    const good = join(dir, 'good.cpuprofile');
    const broken = join(dir, 'broken.cpuprofile');
    await writeFile(good, JSON.stringify(valid));
    await writeFile(broken, '{"nodes": [');
    expect((await readCpuProfile(good)).samples).toEqual(valid.samples);
    await expect(readCpuProfile(broken)).rejects.toThrow(`${broken}: truncated or invalid JSON`);
    await expect(readCpuProfile(join(dir, 'missing.cpuprofile'))).rejects.toThrow(`${join(dir, 'missing.cpuprofile')}: cannot read CPU profile (ENOENT)`);
  });
});

describe('sampleDurationsUs', () => {
  const withDeltas = (timeDeltas: number[], endTime?: number) => {
    const profile = profileOf([{ stack: [frame('main', '/app/main.js')], count: timeDeltas.length }]);
    const last = timeDeltas.reduce((sum, d) => sum + d, 0);
    return { ...profile, timeDeltas, endTime: endTime ?? last + 500 };
  };

  it('gives each sample half of each neighbouring gap', () => {
    // The first gap (profiler start-up, 150 ms) is not charged: edge samples mirror their inner gap.
    expect(sampleDurationsUs(withDeltas([150_000, 1000, 3000, 1000]))).toEqual([1000, 2000, 2000, 1000]);
  });

  it('counts out-of-order timestamps as zero gaps', () => {
    expect(sampleDurationsUs(withDeltas([1000, -200, 1200]))).toEqual([0, 600, 1200]);
  });

  it('uses the span for one sample and the mean gap without timeDeltas', () => {
    expect(sampleDurationsUs({ ...withDeltas([700], 2000), startTime: 0 })).toEqual([2000]);
    const { timeDeltas: _t, ...noDeltas } = withDeltas([1000, 1000, 1000, 1000], 8000);
    expect(sampleDurationsUs(noDeltas)).toEqual([2000, 2000, 2000, 2000]);
    expect(sampleDurationsUs({ ...noDeltas, samples: [] })).toEqual([]);
  });
});
