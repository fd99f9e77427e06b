/**
 * Why responses failed validation, in the words every failed verdict carries: the failure kinds
 * with their counts, the first sample's message, and the command that fixes it when one does.
 */
import type { FailureCounts, FailureSample, RequestSourceRecord } from '@gwprof/results';

/** Failure kinds and their short labels, in the order a reader checks them. */
export const FAILURE_KINDS: ReadonlyArray<readonly [keyof FailureCounts, string]> = [
  ['non2xx', 'non2xx'],
  ['graphqlErrors', 'graphqlErrors'],
  ['mismatch', 'mismatch'],
  ['timeouts', 'timeouts'],
  ['socketErrors', 'socket'],
  ['protocolErrors', 'protocol'],
  ['badBody', 'badBody'],
];

export function failureLabel(kind: keyof FailureCounts): string {
  return FAILURE_KINDS.find(([k]) => k === kind)?.[1] ?? kind;
}

/** A gateway's message is quoted up to this many characters: enough for a path and two values. */
const SAMPLE_MAX = 200;

export interface ValidationFailures {
  failureCounts?: FailureCounts;
  failureSamples?: readonly FailureSample[];
}

/** The kinds that failed, in reading order: "mismatch ×363, timeouts ×2"; '' when none. */
export function failureKindCounts(counts: FailureCounts | undefined): string {
  if (!counts) return '';
  return FAILURE_KINDS.filter(([kind]) => (counts[kind] ?? 0) > 0)
    .map(([kind, label]) => `${label} ×${counts[kind]}`)
    .join(', ');
}

/** "mismatch ×363; first: data.topProducts[0].upc: expected "1166", got "2166""; '' when nothing is known. */
export function failureDetail({ failureCounts, failureSamples }: ValidationFailures): string {
  const kinds = failureKindCounts(failureCounts);
  const sample = failureSamples?.[0];
  const first = sample ? `first ${failureLabel(sample.kind)}: ${oneLine(sample.message)}` : '';
  return [kinds, first].filter((part) => part !== '').join('; ');
}

/** The gateway's text on one line, without control characters (a reason reaches the terminal as it is). */
function oneLine(message: string): string {
  const flat = message.replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  return flat.length > SAMPLE_MAX ? `${flat.slice(0, SAMPLE_MAX - 1)}…` : flat;
}

/** The words a shell reads as one argument. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function hasMismatch(failures: readonly ValidationFailures[]): boolean {
  return failures.some((f) => (f.failureCounts?.mismatch ?? 0) > 0);
}

/** The command that fixes a sweep whose answers differ from the goldens, when the gateway's answers are right. */
export function sweepValidationFixes(failures: readonly ValidationFailures[], source: Partial<RequestSourceRecord> | undefined): string[] {
  if (!hasMismatch(failures)) return [];
  if (source?.scenarioFile) {
    return [`if the gateway's answers are right, record the goldens again: gwprof goldens --scenario ${shellWord(source.scenarioFile)}`];
  }
  return ["if the gateway's answers are right, give them with --expect FILE (or --expect-none to check status, JSON and errors only)"];
}

export interface SideFailures extends ValidationFailures {
  side: 'baseline' | 'candidate';
}

/**
 * The commands that fix a comparison whose answers differ from the goldens: the candidate's own
 * goldens when only its answers differ (a PR that changes answers on purpose), the goldens
 * recorded again when the baseline's differ too.
 */
export function compareValidationFixes(
  failures: readonly SideFailures[],
  config: Partial<RequestSourceRecord> & { candidate?: string; candidateExpect?: string | null },
): string[] {
  const baseline = hasMismatch(failures.filter((f) => f.side === 'baseline'));
  const candidate = hasMismatch(failures.filter((f) => f.side === 'candidate'));
  const scenario = config.scenarioFile ? shellWord(config.scenarioFile) : null;
  const fixes: string[] = [];
  if (baseline) {
    fixes.push(
      scenario
        ? `if the baseline's answers are right, record the goldens again: gwprof goldens --scenario ${scenario}`
        : "if the baseline's answers are right, give them with --expect FILE (or --expect-none to check status, JSON and errors only)",
    );
  }
  if (candidate && !baseline) {
    const reference = config.candidate ? ` --reference ${shellWord(config.candidate)}` : '';
    if (config.candidateExpect) {
      const own = shellWord(config.candidateExpect);
      fixes.push(
        scenario
          ? `if the candidate's answers are right, record its goldens again: gwprof goldens --scenario ${scenario}${reference} --goldens ${own}`
          : `if the candidate's answers are right, put them in ${own} (--candidate-goldens)`,
      );
      return fixes;
    }
    fixes.push(
      scenario
        ? `if the candidate's answers differ on purpose, record its own goldens (gwprof goldens --scenario ${scenario}${reference} --goldens FILE) and give them with --candidate-goldens FILE`
        : "if the candidate's answers differ on purpose, give its expected answers with --candidate-goldens FILE",
    );
  }
  return fixes;
}
