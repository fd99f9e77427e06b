/**
 * What each exit code of gwprof means, the same for every command, so a CI step can act on it
 * without reading the output.
 */
export const EXIT = {
  /** Passed: every step ok, no change or improvement, no leak. */
  ok: 0,
  /** Measured and failed: a step failed, a regression, a leak or a crash. */
  failed: 1,
  /** Nothing to judge: bad input, or the harness could not run to the end (one line says why). */
  error: 2,
  /** Measured, but the budget ran out before the test could decide. */
  inconclusive: 3,
  /** Measured, but a response failed validation: the gateway's figures are not comparable, no verdict. */
  invalid: 4,
  /** Stopped by Ctrl-C or SIGTERM; results.json keeps what finished. */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export type CommandName = 'sweep' | 'compare' | 'soak' | 'bisect' | 'up' | 'goldens' | 'compose' | 'export' | 'import' | 'buckets' | 'report' | 'open';

/**
 * What each command's exit codes mean, in its own words: every --help prints it (exitCodesHelp),
 * and a test holds README's and the docs' tables and mentions to it.
 */
export const COMMAND_EXITS: Readonly<Record<CommandName, ReadonlyArray<readonly [ExitCode, string]>>> = {
  sweep: [
    [EXIT.ok, 'every step ok (unsteady steps are flagged, not failed)'],
    [EXIT.failed, 'a step failed'],
    [EXIT.error, 'bad input or a harness error'],
    [EXIT.interrupted, 'interrupted'],
  ],
  compare: [
    [EXIT.ok, 'no change or improvement (or deltas only, for two finished runs)'],
    [EXIT.failed, 'regression (with --measure instructions: of instructions, or of allocations per request)'],
    [EXIT.error, 'bad input, or the comparison could not run to its end: no verdict'],
    [EXIT.inconclusive, 'inconclusive: the budget or the last look came before a verdict'],
    [EXIT.invalid, 'invalid: a response failed validation, no verdict on speed'],
    [EXIT.interrupted, 'interrupted'],
  ],
  soak: [
    [EXIT.ok, 'no leak'],
    [EXIT.failed, 'a leak, or the gateway crashed'],
    [EXIT.error, 'bad input or a harness error'],
    [EXIT.inconclusive, 'inconclusive'],
    [EXIT.interrupted, 'interrupted'],
  ],
  bisect: [
    [EXIT.ok, 'no regression step above the threshold between the good and the bad end'],
    [EXIT.failed, 'one or more regression steps above the threshold, each between two neighbouring points'],
    [EXIT.error, 'bad input, an end that could not be counted, or a harness error'],
    [EXIT.inconclusive, 'after the repeats, a step within the noise of the threshold, or a range the measured scatter cannot resolve: counted, not decided'],
    [EXIT.interrupted, 'interrupted: bisect.json keeps every counted point; --resume goes on'],
  ],
  up: [
    [EXIT.ok, 'stopped by Ctrl-C or SIGTERM'],
    [EXIT.error, 'bad input, or a service that did not start'],
  ],
  goldens: [
    [EXIT.ok, 'goldens written'],
    [EXIT.error, 'bad input, or an answer with errors or without data: nothing written'],
    [EXIT.interrupted, 'interrupted: nothing written'],
  ],
  compose: [
    [EXIT.ok, 'the supergraph written'],
    [EXIT.error, 'bad input, a subgraph that did not answer, or a composition error'],
  ],
  export: [
    [EXIT.ok, 'written'],
    [EXIT.error, 'bad input'],
  ],
  import: [
    [EXIT.ok, 'the step ok'],
    [EXIT.failed, 'the step failed'],
    [EXIT.error, 'bad input'],
  ],
  buckets: [
    [EXIT.ok, 'printed'],
    [EXIT.error, 'bad input'],
  ],
  report: [
    [EXIT.ok, 'as the run: passed'],
    [EXIT.failed, 'as the run: a step failed, a regression, a leak or a crash'],
    [EXIT.error, 'bad input, or as the run: no verdict'],
    [EXIT.inconclusive, 'as the run: inconclusive'],
    [EXIT.invalid, 'as the run: invalid'],
    [EXIT.interrupted, 'as the run: interrupted'],
  ],
  open: [
    [EXIT.ok, 'stopped by Ctrl-C'],
    [EXIT.error, 'bad input'],
  ],
};

/** A command's exit codes as its help shows them: a heading, then one line a code. */
export function exitCodesHelp(command: CommandName): string {
  return ['Exit codes:', ...COMMAND_EXITS[command].map(([code, meaning]) => `  ${String(code).padEnd(5)}${meaning}`)].join('\n');
}

/** A command's exit codes as a markdown table, as README and the docs show them. */
export function exitCodesMarkdown(command: CommandName): string {
  return ['| exit | meaning |', '| ---: | --- |', ...COMMAND_EXITS[command].map(([code, meaning]) => `| ${code} | ${meaning} |`)].join('\n');
}

const BLOCK = /(<!-- exit-codes:([a-z]+) -->\n)[\s\S]*?(<!-- \/exit-codes -->)/g;

/** A page with every marked exit-code block filled from `table` (the marker names the command). */
export function exitCodeBlocks(page: string, table: (command: CommandName) => string): string {
  return page.replace(BLOCK, (_block, open: string, command: string, close: string) => {
    if (!(command in COMMAND_EXITS)) throw new RangeError(`exit-code block for an unknown command: ${command}`);
    return `${open}${table(command as CommandName)}\n${close}`;
  });
}
