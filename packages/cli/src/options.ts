/** Parsers for command-line values: each rejects bad input with a message that says what to fix. */
import { InvalidArgumentError } from 'commander';

export function parseIntegerList(name: string) {
  return (value: string): number[] => {
    const parts = value.split(',').map((p) => p.trim()).filter(Boolean);
    const numbers = parts.map(Number);
    if (parts.length === 0 || numbers.some((n) => !Number.isInteger(n) || n < 1)) {
      throw new InvalidArgumentError(`${name} must be a comma-separated list of whole numbers ≥ 1, e.g. 10,100,300`);
    }
    return numbers;
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
