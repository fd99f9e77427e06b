import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sampleDurationsUs } from './cpuprofile.js';
import { parsePerfScript, perfProfile, symbolName } from './perf-script.js';

const real = readFileSync(new URL('../../fixtures/perf/grafbase-c10.perf.txt', import.meta.url), 'utf8');

describe('perf script as a CPU profile', () => {
  it("names frames as perf does, without the offset or Rust's legacy hash", () => {
    expect(symbolName('tokio::runtime::task::harness::Harness<T,S>::poll+0xbc')).toBe('tokio::runtime::task::harness::Harness<T,S>::poll');
    expect(symbolName('core::ptr::drop_in_place<http::Request>::h0123456789abcdef+0x10')).toBe('core::ptr::drop_in_place<http::Request>');
    expect(symbolName('[unknown]')).toBe('[unknown]');
  });

  it("reads every sample of Grafbase's real output: its thread, period and whole stack, kernel frames included", () => {
    const samples = parsePerfScript(real);
    expect(samples).toHaveLength(40);
    expect(samples[0]).toMatchObject({ thread: 'tokio-runtime-w', periodNs: 4_000_000 });
    expect(samples[0]!.frames[0]!.functionName).toMatch(/^<hyper::proto::h1::dispatch::Server</);
    expect(samples[0]!.frames.at(-1)!.url).toMatch(/grafbase$/);
    expect(samples.some((s) => s.frames.some((f) => f.url === '[kernel.kallsyms]'))).toBe(true);
  });

  it('weighs every sample by its period: the profile holds CPU time, with the thread as the outermost frame', () => {
    const samples = parsePerfScript(real);
    const profile = perfProfile(samples);
    expect(sampleDurationsUs(profile).every((us) => us === 4000)).toBe(true);
    expect(profile.endTime - profile.startTime).toBe(40 * 4000);
    const root = profile.nodes[0]!;
    const threads = root.children!.map((id) => profile.nodes[id - 1]!.callFrame.functionName);
    expect(threads).toContain('(thread tokio-runtime-w)');
    // Each sample's leaf is its innermost frame.
    const leaf = profile.nodes[profile.samples![0]! - 1]!;
    expect(leaf.callFrame.functionName).toBe(samples[0]!.frames[0]!.functionName);
  });
});
