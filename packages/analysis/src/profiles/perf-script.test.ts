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

  it('gives a function inlined at an address the binary of the function it was inlined into', () => {
    const text = [
      'stub-g 19542  9639.168036:    1000000 cpu-clock: ',
      '\t            1f85 gw_execute_plan_loop+0x45 (/tmp/nb/stub-g)',
      '\t            18b4 run_bucket_work+0x674 (inlined)',
      '\t            18b4 answer+0x674 (inlined)',
      '\t            18b4 main+0x674 (/tmp/nb/stub-g)',
      '\t           27304 __libc_start_main_impl+0x84 (inlined)',
      '\t            1cf0 _start+0x20 (/tmp/nb/stub-g)',
      '',
    ].join('\n');
    const [sample] = parsePerfScript(text);
    expect(sample!.frames.map((f) => `${f.functionName} ${f.url}`)).toEqual([
      'gw_execute_plan_loop /tmp/nb/stub-g',
      'run_bucket_work /tmp/nb/stub-g',
      'answer /tmp/nb/stub-g',
      'main /tmp/nb/stub-g',
      // The DWARF name of an outer function whose symbol is another (__libc_start_main): no frame names its binary.
      '__libc_start_main_impl inlined',
      '_start /tmp/nb/stub-g',
    ]);
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
