/** Parsers for command-line values: each rejects bad input with a message that says what to fix. */
import { InvalidArgumentError } from 'commander';
import type { Slo } from '@gwprof/results';

export function parseIntegerList(name: string) {
  return (value: string): number[] => {
    const parts = value.split(',').map((p) => p.trim());
    const given = parts.filter(Boolean);
    if (given.length > 0 && given.length < parts.length) {
      throw new InvalidArgumentError(`${name} has an empty entry in "${value}": write ${given.join(',')}`);
    }
    const numbers = parts.map(Number);
    if (parts.length === 0 || numbers.some((n) => !Number.isInteger(n) || n < 1)) {
      throw new InvalidArgumentError(`${name} must be a comma-separated list of whole numbers ≥ 1, e.g. 10,100,300`);
    }
    return numbers;
  };
}

/** A comma-separated list of ports, each 1-65535. */
export function parsePortList(name: string) {
  return (value: string): number[] => {
    const parts = value
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
    const ports = parts.map(Number);
    if (parts.length === 0 || ports.some((n) => !Number.isInteger(n) || n < 1 || n > 65535)) {
      throw new InvalidArgumentError(`${name} must be a comma-separated list of port numbers 1-65535, e.g. 4001,4002,4003,4004 (got "${value}")`);
    }
    return ports;
  };
}

const SIZE_BYTES: Record<string, number> = { b: 1, kb: 1e3, mb: 1e6, gb: 1e9, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 };

/** A size such as 512MB, 1GB or 768MiB, or a bare number in the flag's unit (`unitBytes`); returned in that unit. */
export function parseSize(name: string, unitBytes: number, unitName: string) {
  return (value: string): number => {
    const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(value.trim());
    const scale = match ? (match[2] ? SIZE_BYTES[match[2].toLowerCase()] : unitBytes) : undefined;
    const bytes = match && scale !== undefined ? Number(match[1]) * scale : NaN;
    if (!(bytes > 0)) throw new InvalidArgumentError(`${name} must be a size like 512MB, 1GB or 768MiB, or a number of ${unitName} (got "${value}")`);
    return bytes / unitBytes;
  };
}

export function parsePositiveNumber(name: string, { allowZero = false } = {}) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < 0 || (!allowZero && n === 0)) {
      throw new InvalidArgumentError(`${name} must be a number ${allowZero ? '≥ 0' : '> 0'} (got "${value}")`);
    }
    return n;
  };
}

export function parsePort(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || n > 65535) throw new InvalidArgumentError(`${name} must be a port number 1-65535 (got "${value}")`);
    return n;
  };
}

export function parsePercent(name: string) {
  return (value: string): number => {
    const n = Number(value.replace(/%$/, ''));
    if (!Number.isFinite(n) || n < 0 || n > 100) throw new InvalidArgumentError(`${name} must be a percentage 0-100 (got "${value}")`);
    return n;
  };
}

/** Repeatable K=V option, collected into an object. */
/** A repeatable option's values, in the order given. */
export function collectList(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function collectKeyValue(name: string) {
  return (value: string, previous: Record<string, string> = {}): Record<string, string> => {
    const index = value.indexOf('=');
    if (index <= 0) throw new InvalidArgumentError(`${name} takes KEY=VALUE (got "${value}")`);
    return { ...previous, [value.slice(0, index)]: value.slice(index + 1) };
  };
}

export function parseWholeNumber(name: string, min = 1, why = '') {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`${name} must be a whole number ≥ ${min}${why} (got "${value}")`);
    return n;
  };
}

/** --rate: "auto", or a comma-separated list of positive request rates. */
export function parseRates(value: string): number[] | 'auto' {
  if (value.trim() === 'auto') return 'auto';
  const rates = value.split(',').map((p) => Number(p.trim()));
  if (rates.length === 0 || rates.some((r) => !Number.isFinite(r) || r <= 0)) {
    throw new InvalidArgumentError(`--rate must be auto or a comma-separated list of requests per second > 0, e.g. 50,100,200 (got "${value}")`);
  }
  return rates;
}

const SLO_LATENCY_KEYS = new Set(['mean', 'p50', 'p80', 'p95', 'p99']);

/** --slo: "p99=500ms,success=99.99%" (latency in ms or s, success in %). */
export function parseSlo(value: string): Slo {
  const slo: Slo = { latencyMs: {}, minSuccess: null };
  for (const part of value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const match = /^(mean|avg|p50|p80|p95|p99|success)\s*=\s*([\d.]+)\s*(ms|s|%)?$/.exec(part);
    const fail = () =>
      new InvalidArgumentError(`--slo takes targets like p99=500ms,success=99.99% (keys: mean, p50, p80, p95, p99, success); cannot read "${part}"`);
    if (!match) throw fail();
    const [, rawKey, number, unit] = match;
    const n = Number(number);
    if (rawKey === 'success') {
      if (unit !== undefined && unit !== '%') throw fail();
      if (!(n >= 0 && n <= 100)) throw fail();
      slo.minSuccess = n / 100;
    } else {
      const key = rawKey === 'avg' ? 'mean' : rawKey!;
      if (!SLO_LATENCY_KEYS.has(key) || unit === '%') throw fail();
      slo.latencyMs[key as keyof Slo['latencyMs']] = unit === 's' ? n * 1000 : n;
    }
  }
  return slo;
}

const UNIT_SECONDS: Record<string, number> = { us: 1e-6, µs: 1e-6, ms: 0.001, s: 1, m: 60, h: 3600, d: 86400 };

/**
 * A duration as k6 writes them ("90s", "30m", "24h", "7d", "1h30m", "500ms"), or a bare number in the
 * flag's own unit (`unitSeconds`: 1 for seconds, 60 for minutes). Returns it in that unit.
 */
export function parseDuration(name: string, unitSeconds = 1, { allowZero = false } = {}) {
  const unitName = unitSeconds === 60 ? 'minutes' : unitSeconds === 0.001 ? 'milliseconds' : unitSeconds === 1e-6 ? 'microseconds' : 'seconds';
  return (value: string): number => {
    const text = value.trim();
    let seconds: number;
    if (/^\d+(?:\.\d+)?$/.test(text)) seconds = Number(text) * unitSeconds;
    else if (/^(?:\d+(?:\.\d+)?(?:us|µs|ms|s|m|h|d))+$/.test(text)) {
      seconds = [...text.matchAll(/(\d+(?:\.\d+)?)(us|µs|ms|s|m|h|d)/g)].reduce((sum, [, n, unit]) => sum + Number(n) * UNIT_SECONDS[unit!]!, 0);
    } else {
      throw new InvalidArgumentError(`${name} must be a duration like 90s, 30m, 24h or 7d, or a number of ${unitName} (got "${value}")`);
    }
    if (!Number.isFinite(seconds) || (!allowZero && seconds === 0))
      throw new InvalidArgumentError(`${name} must be ${allowZero ? '≥ 0' : '> 0'} (got "${value}")`);
    // Rounded to a nanosecond: 0.003 s / 0.001 must read 3, not 3.0000000000000004.
    return Math.round((seconds / unitSeconds) * 1e9) / 1e9;
  };
}
