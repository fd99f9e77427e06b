import type { PublishedCompare } from '@gwprof/results';
import { commandLineText } from './facts.js';

/** Flags for one side's environment, repeatable K=V. */
function envFlags(flag: string, env: Record<string, string>): string[] {
  return Object.entries(env).flatMap(([k, v]) => [flag, `${k}=${v}`]);
}

/**
 * The command that reproduces this comparison: the recorded command line when there is one
 * (exact), otherwise one rebuilt from the config.
 */
export function reproduceCommand(compare: PublishedCompare): string {
  const argv = compare.environment?.commandLine ?? [];
  const at = argv.indexOf('compare');
  if (at >= 0) return `pnpm gwprof ${commandLineText(argv.slice(at))}`;
  const c = compare.config;
  const d = c.design;
  const args =
    d === null
      ? ['compare', '--baseline-run', compare.runs?.baseline ?? c.baseline, '--candidate-run', compare.runs?.candidate ?? c.candidate]
      : [
          'compare',
          '--baseline',
          c.baseline,
          '--candidate',
          c.candidate,
          ...envFlags('--baseline-env', c.baselineEnv),
          ...envFlags('--candidate-env', c.candidateEnv),
          ...(c.load.kind === 'closed' ? ['--concurrency', c.levels.join(',')] : ['--rate', c.levels.join(','), '--arrivals', c.load.arrivals]),
          '--window',
          String(d.windowSec),
          ...(c.scenarioFile ? ['--scenario', c.scenarioFile] : c.query ? ['--query', c.query] : []),
          // The design keeps the threshold as a fraction; the flag takes a percentage.
          '--threshold',
          String(Number((d.threshold * 100).toFixed(3))),
          '--budget',
          String(d.budgetMinutes),
        ];
  return `pnpm gwprof ${commandLineText(args)}`;
}
