#!/usr/bin/env node
/** gwprof: profiling harness for GraphQL federation gateways. */
import { Command, CommanderError } from 'commander';
import { TOOL_VERSION } from '@gwprof/collect';
import { EXIT, GwprofError, exitCodesHelp, type CommandName } from '@gwprof/results';
import { sweepCommand } from './sweep-command.js';
import { bucketsCommand } from './buckets-command.js';
import { reportCommand } from './report-command.js';
import { compareCommand } from './compare-command.js';
import { bisectCommand } from './bisect-command.js';
import { openCommand } from './open-command.js';
import { upCommand } from './up-command.js';
import { soakCommand } from './soak-command.js';
import { exportCommand } from './export-command.js';
import { importCommand } from './import-command.js';
import { goldensCommand } from './goldens-command.js';
import { composeCommand } from './compose-command.js';
import { assertLinux } from './platform.js';
import { unknownHelpTopic } from './help-topic.js';
import { withChecks } from './command-checks.js';

// A closed pipe (`gwprof … | head`, a parent that died) must not crash the harness before it
// has stopped its processes and written results.json.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}

const program = new Command('gwprof')
  .description('load-test and CPU-profile GraphQL federation gateways: sweeps, CPU buckets, flame graphs, pre-merge comparisons')
  .version(TOOL_VERSION, '-v, --version', 'print the version')
  .showHelpAfterError('(run with --help for usage)')
  .exitOverride()
  .hook('preAction', (_program, action) => assertLinux(action.name(), action.opts()));

// One prefix for every error, commander's own included ("error: …" by default).
const output = { outputError: (text: string, write: (text: string) => void) => write(text.replace(/^error: /, 'gwprof: ')) };
program.configureOutput(output);
for (const command of [
  sweepCommand(),
  compareCommand(),
  bisectCommand(),
  soakCommand(),
  upCommand(),
  goldensCommand(),
  composeCommand(),
  exportCommand(),
  importCommand(),
  bucketsCommand(),
  reportCommand(),
  openCommand(),
]) {
  // Every command's exit codes from the one table (COMMAND_EXITS), never written by hand.
  command.addHelpText('after', `\n${exitCodesHelp(command.name() as CommandName)}`);
  program.addCommand(withChecks(command).exitOverride().configureOutput(output).showHelpAfterError('(run with --help for usage)'));
}

try {
  const helpTopic = unknownHelpTopic(program, process.argv.slice(2));
  if (helpTopic) throw helpTopic;
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // commander already printed its message (or help / version)
    process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.error;
  } else if (error instanceof GwprofError) {
    // Expected failures (bad input, busy port, gateway that won't start) are one line, no stack.
    process.stderr.write(`gwprof: ${error.message}\n`);
    process.exitCode = EXIT.error;
  } else {
    // Anything else is a bug in gwprof: keep the stack so it can be reported.
    process.stderr.write(`gwprof: unexpected error (a bug in gwprof): ${(error as Error)?.stack ?? String(error)}\n`);
    process.exitCode = EXIT.error;
  }
}
