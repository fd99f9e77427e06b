import { describe, expect, it } from 'vitest';
import { grafbaseTelemetry } from './grafbase.js';

describe("Grafbase's telemetry settings under sweep --trace", () => {
  it('are absent unless gwprof receives spans', () => {
    expect(grafbaseTelemetry(undefined)).toBe('');
  });

  it('forward the W3C trace context, sample parent-based and export OTLP/HTTP to the receiver', () => {
    const toml = grafbaseTelemetry('http://127.0.0.1:45678');
    expect(toml).toContain('[telemetry.tracing.propagation]\ntrace_context = true');
    expect(toml).toContain('parent_based_sampler = true');
    expect(toml).toContain('[telemetry.exporters.otlp]\nenabled = true\nendpoint = "http://127.0.0.1:45678"\nprotocol = "http"');
  });
});
