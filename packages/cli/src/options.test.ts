import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { compareCommand } from './compare-command.js';
import { exportCommand } from './export-command.js';
import { parseDuration, parseIntegerList, parsePortList, parseSize } from './options.js';

describe('command-line values with units', () => {
  it("reads durations with a unit, and a bare number in the flag's own unit", () => {
    expect(parseDuration('--timeout')('10s')).toBe(10);
    expect(parseDuration('--timeout')('1m')).toBe(60);
    expect(parseDuration('--timeout')('7')).toBe(7);
    expect(parseDuration('--budget', 60)('90s')).toBe(1.5);
    expect(parseDuration('--budget', 60)('20')).toBe(20);
    expect(parseDuration('--subgraph-delay', 0.001, { allowZero: true })('5ms')).toBe(5);
    expect(parseDuration('--subgraph-delay', 0.001, { allowZero: true })('3')).toBe(3);
    expect(parseDuration('--subgraph-delay', 0.001, { allowZero: true })('0.1s')).toBe(100);
    expect(() => parseDuration('--subgraph-delay', 0.001)('5 parsecs')).toThrow(/number of milliseconds/);
  });

  it("reads sizes in decimal and binary units, and a bare number in the flag's unit", () => {
    const mb = parseSize('--gateway-memory', 1e6, 'MB');
    expect(mb('512')).toBe(512);
    expect(mb('512MB')).toBe(512);
    expect(mb('1GB')).toBe(1000);
    expect(mb('1GiB')).toBeCloseTo(1073.741824, 6);
    expect(() => mb('12XB')).toThrow(InvalidArgumentError);
    expect(() => mb('0')).toThrow(/a size like 512MB/);
  });

  it('refuses a port outside 1-65535 in a list', () => {
    expect(parsePortList('--subgraph-ports')('4001,4002,4003,4004')).toEqual([4001, 4002, 4003, 4004]);
    expect(() => parsePortList('--subgraph-ports')('70000,4002,4003,4004')).toThrow(/port numbers 1-65535/);
  });

  it('refuses a list with an empty entry, naming the list it meant', () => {
    expect(parseIntegerList('--concurrency')('10, 100')).toEqual([10, 100]);
    expect(() => parseIntegerList('--concurrency')('10,,100')).toThrow('--concurrency has an empty entry in "10,,100": write 10,100');
    expect(() => parseIntegerList('--concurrency')('10,')).toThrow(/write 10$/);
  });

  it('takes --timeout with a unit on export k6, as on every other command', () => {
    let timeout: unknown;
    exportCommand()
      .exitOverride()
      .action((_tool: string, flags: { timeout: number }) => {
        timeout = flags.timeout;
      })
      .parse(['k6', '--timeout', '10s'], { from: 'user' });
    expect(timeout).toBe(10);
  });

  it('takes -w as a duration with a unit on compare, as on sweep, and a bare number as seconds', () => {
    const warmupOf = (value: string) => {
      let warmup: unknown;
      compareCommand()
        .exitOverride()
        .action((flags: { warmup: number }) => {
          warmup = flags.warmup;
        })
        .parse(['-w', value], { from: 'user' });
      return warmup;
    };
    expect(warmupOf('1m')).toBe(60);
    expect(warmupOf('30')).toBe(30);
  });
});
