import type { RunConfig } from '@gwprof/results';
import { keyValues, type Fact } from '../facts.js';
import { NONE } from '../format.js';

/**
 * A threshold given either as a fraction (0.99) or a percentage (99); shown as a percentage.
 * Values ≤ 1 are read as fractions.
 */
export function thresholdPercent(value: number): string {
  const pct = value <= 1 ? value * 100 : value;
  return `${Number(pct.toFixed(3))}%`;
}

export function configFacts(config: RunConfig): Fact[] {
  return [
    { label: 'Gateway', value: config.gateway },
    { label: 'Gateway env', value: keyValues(config.gatewayEnv) },
    { label: 'Scenario', value: config.scenario },
    config.rates.length > 0 || config.autoRate
      ? {
          label: 'Rates',
          value: `${config.autoRate ? 'auto: from about 10% to 120% of a closed-loop peak probe' : `${config.rates.join(', ')} req/s`}, ${config.arrivals ?? 'poisson'} arrivals`,
        }
      : { label: 'Concurrency', value: config.concurrency.join(', ') },
    { label: 'Window per step', value: `${config.durationSec}–${config.maxDurationSec} s, after a warm-up of at most ${config.warmupSec} s` },
    ...(config.scenarioFile
      ? [{ label: 'Scenario file', value: config.scenarioFile }]
      : [
          { label: 'Query', value: config.query ?? NONE },
          { label: 'Variables', value: config.variables ?? NONE },
          { label: 'Expected response', value: config.expect ?? 'none (status, JSON and errors only)' },
        ]),
    { label: 'Minimum success', value: thresholdPercent(config.minSuccess) },
    { label: 'Request timeout', value: `${config.timeoutSec} s` },
    {
      label: 'Subgraph delay',
      value: config.subgraphDelaysMs
        ? `${keyValues(Object.fromEntries(Object.entries(config.subgraphDelaysMs).map(([n, ms]) => [n, `${ms} ms`])))}, the others none`
        : `${config.subgraphDelayMs} ms`,
    },
    { label: 'Subgraph ports', value: keyValues(config.subgraphPorts) },
    { label: 'Gateway port', value: String(config.gatewayPort) },
    {
      label: 'Profiler',
      value: config.profile
        ? `${config.profiler}, sampling every ${config.samplingIntervalUs} µs${config.heapSamplingBytes ? `, allocations every ${config.heapSamplingBytes} bytes` : ''}`
        : 'off',
    },
    { label: 'Load engine', value: config.engine === 'k6' ? 'k6 (the exported script)' : 'gwprof' },
    { label: 'Quick run', value: config.quick ? 'yes' : 'no' },
  ];
}
