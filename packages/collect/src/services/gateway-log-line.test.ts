import { describe, expect, it } from 'vitest';
import { lastMeaningfulLine } from './gateway-log-line.js';
import { GatewayStartError, oneLineReason } from './gateway-process.js';

describe('lastMeaningfulLine', () => {
  it("takes clap's error over its closing usage and help lines (Grafbase 0.92.0 given --listen-address)", () => {
    const log = [
      "error: unexpected argument '--listen-address' found",
      '',
      'Usage: grafbase dev --config <CONFIG_PATH>',
      '',
      "For more information, try '--help'.",
    ];
    expect(lastMeaningfulLine(log)).toBe("error: unexpected argument '--listen-address' found");
  });

  it('takes the last error of several, not the first', () => {
    const log = ['WARN deprecated option', 'Error: cannot read config', 'listening…', 'Error: listen EADDRINUSE: address already in use 127.0.0.1:4000'];
    expect(lastMeaningfulLine(log)).toBe('Error: listen EADDRINUSE: address already in use 127.0.0.1:4000');
  });

  it("takes a Rust panic's place and message, not the backtrace hint after them", () => {
    const log = [
      "thread 'main' panicked at src/main.rs:10:5:",
      'no subgraphs configured',
      'note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace',
    ];
    expect(lastMeaningfulLine(log)).toBe("thread 'main' panicked at src/main.rs:10:5: no subgraphs configured");
  });

  it("passes over a Node stack's frames", () => {
    const log = [
      'Error: Cannot find module ./gateway.config.mjs',
      '    at Module._resolveFilename (node:internal/modules/cjs/loader:1140:15)',
      '    at node:internal/main:23:47',
    ];
    expect(lastMeaningfulLine(log)).toBe('Error: Cannot find module ./gateway.config.mjs');
  });

  it("reads a structured log line's message", () => {
    const log = ['{"level":50,"time":1,"msg":"Failed to compose the supergraph","err":{"message":"type Product has no @key"}}'];
    expect(lastMeaningfulLine(log)).toBe('Failed to compose the supergraph: type Product has no @key');
  });

  it('takes the last line with words when none reports an error', () => {
    expect(lastMeaningfulLine(['starting', 'Killed', '', '   '])).toBe('Killed');
  });

  it('is null for a silent process', () => {
    expect(lastMeaningfulLine([])).toBeNull();
    expect(lastMeaningfulLine(['', '  ', '----'])).toBeNull();
  });

  it('keeps one line of at most 200 characters', () => {
    const line = lastMeaningfulLine([`error: ${'x'.repeat(500)}`])!;
    expect(line).toHaveLength(200);
    expect(line.endsWith('…')).toBe(true);
  });
});

describe('GatewayStartError', () => {
  const clapTail = [
    "error: unexpected argument '--listen-address' found",
    '',
    'Usage: grafbase dev --config <CONFIG_PATH>',
    '',
    "For more information, try '--help'.",
  ];

  it("says in its first line why in gwprof's words and the gateway's own", () => {
    const error = new GatewayStartError('grafbase@0.92.0', 'process exited before it listened', clapTail);
    expect(error.message.split('\n')[0]).toBe(
      "gateway grafbase@0.92.0 failed to start: process exited before it listened; its log: error: unexpected argument '--listen-address' found",
    );
    expect(error.message).toContain("\n  last log lines:\n    error: unexpected argument '--listen-address' found");
    expect(oneLineReason(error)).toBe(error.message.split('\n')[0]);
  });

  it("keeps the gateway's line whole when a long reason must be cut to one short line", () => {
    const error = new GatewayStartError('grafbase', `did not answer: ${'x'.repeat(400)}`, clapTail);
    const line = oneLineReason(error, 300);
    expect(line).toHaveLength(300);
    expect(line.endsWith("…; its log: error: unexpected argument '--listen-address' found")).toBe(true);
  });

  it('cuts any other error at its first line', () => {
    expect(oneLineReason(new Error(`a\nb`))).toBe('a');
    expect(oneLineReason(new Error('y'.repeat(400)), 300)).toHaveLength(300);
  });
});
