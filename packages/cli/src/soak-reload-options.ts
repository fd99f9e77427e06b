/** `gwprof soak --reload-every`: the flags of a soak that swaps the gateway's supergraph while it serves. */
import { constants } from 'node:os';
import { type Command, InvalidArgumentError } from 'commander';
import { RELOADING_GATEWAYS } from '@gwprof/collect';
import { GwprofError } from '@gwprof/results';
import { parseDuration } from './options.js';

export interface ReloadFlags {
  reloadEvery?: number;
  reloadWindow: number;
  reloadCommand?: string;
  reloadSignal?: NodeJS.Signals;
  reloadSeen?: string;
}

const DEFAULT_WINDOW_SEC = 10;

function parseSignal(value: string): NodeJS.Signals {
  const name = (value.startsWith('SIG') ? value : `SIG${value}`).toUpperCase();
  if (!(name in constants.signals)) throw new InvalidArgumentError(`--reload-signal must be a signal name like HUP or USR1 (got "${value}")`);
  return name as NodeJS.Signals;
}

function parsePattern(value: string): string {
  try {
    new RegExp(value);
  } catch (error) {
    throw new InvalidArgumentError(`--reload-seen must be a regular expression (${(error as Error).message})`);
  }
  return value;
}

export function addReloadOptions(command: Command): Command {
  return command
    .option(
      '--reload-every <time>',
      "swap the gateway's supergraph this often while it serves, from the end of the warm-up (hive, grafbase, hive-router, apollo-router: their schema files, rewritten; a cmd: gateway: --reload-command or --reload-signal)",
      parseDuration('--reload-every'),
    )
    .option(
      '--reload-window <time>',
      'the stretch of load around each reload (1 s before it) compared with stretches as long without one',
      parseDuration('--reload-window'),
      DEFAULT_WINDOW_SEC,
    )
    .option('--reload-command <cmd>', 'cmd: gateways: a shell command that swaps its supergraph (GWPROF_RELOAD_VARIANT=a|b in its environment)')
    .option('--reload-signal <SIG>', "cmd: gateways: a signal to the gateway's server process that makes it reload (HUP)", parseSignal)
    .option('--reload-seen <regex>', 'cmd: gateways: a line the gateway logs once it has reloaded (an unseen swap is not counted as a reload)', parsePattern);
}

/** What a gateway needs to be reloaded, checked before anything starts. */
function checkReloadable(flags: ReloadFlags, gateway: string): void {
  if (gateway.startsWith('cmd:')) {
    if (!flags.reloadCommand === !flags.reloadSignal)
      throw new GwprofError('--reload-every with a cmd: gateway: give --reload-command <cmd> or --reload-signal <SIG>, one of them');
    if (!flags.reloadSeen)
      throw new GwprofError('--reload-every with a cmd: gateway: give --reload-seen <regex>, a line the gateway logs once it has reloaded');
    return;
  }
  if (flags.reloadCommand || flags.reloadSignal || flags.reloadSeen)
    throw new GwprofError(
      '--reload-command, --reload-signal and --reload-seen are for a cmd: gateway: a built-in one is reloaded by rewriting its schema files',
    );
  if (!RELOADING_GATEWAYS.includes(gateway.split('@')[0]!))
    throw new GwprofError(
      `--reload-every: gwprof cannot reload ${gateway} while it serves (it reloads ${RELOADING_GATEWAYS.join(', ')}, each watching its schema files, and a cmd: gateway given --reload-command or --reload-signal): see docs/soak-reload.md`,
    );
}

/** The soak's reload options, or null without --reload-every. */
export function reloadOptions(flags: ReloadFlags, gateway: string, intervalSec: number, calmSec: number) {
  if (flags.reloadEvery === undefined) {
    if (flags.reloadCommand || flags.reloadSignal || flags.reloadSeen)
      throw new GwprofError('--reload-command, --reload-signal and --reload-seen need --reload-every');
    return null;
  }
  checkReloadable(flags, gateway);
  if (flags.reloadEvery < flags.reloadWindow)
    throw new GwprofError(`--reload-every (${flags.reloadEvery} s) is shorter than --reload-window (${flags.reloadWindow} s): reloads' windows would overlap`);
  if (flags.reloadWindow + 1 > intervalSec - calmSec)
    throw new GwprofError(
      `--reload-window (${flags.reloadWindow} s) does not fit in an interval's load (${intervalSec - calmSec} s): give a longer --interval`,
    );
  return {
    everySec: flags.reloadEvery,
    windowSec: flags.reloadWindow,
    ...(flags.reloadCommand ? { command: flags.reloadCommand } : {}),
    ...(flags.reloadSignal ? { signal: flags.reloadSignal } : {}),
    ...(flags.reloadSeen ? { seenPattern: flags.reloadSeen } : {}),
  };
}
