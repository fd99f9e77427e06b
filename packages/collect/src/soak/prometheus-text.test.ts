import { describe, expect, it } from 'vitest';
import { gaugeValue, parseSamples, parseSelector } from './prometheus-text.js';

/** As Apollo Router's exporter writes its jemalloc gauges (OpenTelemetry's scope labels), and others. */
const EXPOSITION = [
  '# HELP apollo_router_jemalloc_allocated Total allocated bytes in jemalloc',
  '# TYPE apollo_router_jemalloc_allocated gauge',
  'apollo_router_jemalloc_allocated{otel_scope_name="apollo/router"} 48123904',
  'apollo_router_jemalloc_resident{otel_scope_name="apollo/router"} 6.5011712e+07',
  'apollo_router_jemalloc_retained{otel_scope_name="apollo/router",} 20971520 1732870000000',
  'memory_bytes{kind="live",note="a \\"quoted\\" \\\\ value, {braced}"} 100',
  'memory_bytes{kind="kept"} 300',
  'up 1',
  'broken{kind="x} 5',
  '',
].join('\n');

describe('Prometheus text', () => {
  it('reads samples with labels, escapes, exponents, trailing commas and timestamps, skipping what is not one', () => {
    const samples = parseSamples(EXPOSITION);
    expect(samples.map((s) => [s.name, s.value])).toEqual([
      ['apollo_router_jemalloc_allocated', 48123904],
      ['apollo_router_jemalloc_resident', 65011712],
      ['apollo_router_jemalloc_retained', 20971520],
      ['memory_bytes', 100],
      ['memory_bytes', 300],
      ['up', 1],
    ]);
    expect(samples[3]!.labels).toEqual({ kind: 'live', note: 'a "quoted" \\ value, {braced}' });
  });

  it('takes the first selector found, by name and by labels', () => {
    expect(gaugeValue(EXPOSITION, ['apollo_router_jemalloc_allocated_bytes', 'apollo_router_jemalloc_allocated', 'up'])).toEqual({
      value: 48123904,
      selector: 'apollo_router_jemalloc_allocated',
    });
    expect(gaugeValue(EXPOSITION, ['memory_bytes{kind="kept"}'])).toEqual({ value: 300, selector: 'memory_bytes{kind="kept"}' });
  });

  it('refuses a name that matches several series, and says when none matches', () => {
    expect(gaugeValue(EXPOSITION, ['memory_bytes'])).toEqual({ error: '2 series match memory_bytes: name one by its labels' });
    expect(gaugeValue(EXPOSITION, ['jemalloc_allocated', 'jemalloc_allocated_bytes'])).toEqual({
      error: 'no metric jemalloc_allocated or jemalloc_allocated_bytes on the endpoint',
    });
  });

  it('parses a selector only when the whole text is one', () => {
    expect(parseSelector('jemalloc_allocated_bytes')).toEqual({ name: 'jemalloc_allocated_bytes', labels: {} });
    expect(parseSelector('mem{kind="live",pool="a"}')).toEqual({ name: 'mem', labels: { kind: 'live', pool: 'a' } });
    for (const bad of ['', '9lives', 'mem{kind=live}', 'mem{kind="live"', 'mem extra']) expect(parseSelector(bad)).toBeNull();
  });
});
