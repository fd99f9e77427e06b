/**
 * How a reload soak swaps the gateway's supergraph and sees that it was swapped. A built-in
 * gateway that watches its schema files (Hive Gateway's supergraph, Grafbase's subgraph schemas)
 * gets them rewritten in place, variant A and B in turn, and is seen by its introspection listing
 * B's marker field or not; a `cmd:` gateway gets the user's command or a signal, and is seen by a
 * line of its log.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { GwprofError, type SoakReloadConfig } from '@gwprof/results';
import { RELOADING_GATEWAYS } from '../gateways/index.js';
import type { GatewayAdapter } from '../gateways/types.js';
import type { RunningGateway } from '../services/gateway-process.js';
import { MARKER_QUERY, RELOAD_MARKER_FIELD, hasQueryBlock, markerInAnswer, withReloadMarker } from './reload-marker.js';

const run = promisify(execFile);

/** What the user asked: `--reload-every`, and for a cmd: gateway its command or signal and log line. */
export interface SoakReloadOptions {
  everySec: number;
  windowSec: number;
  command?: string;
  signal?: NodeJS.Signals;
  /** A regular expression a line of the gateway's log matches once it has reloaded. */
  seenPattern?: string;
}

export interface ReloadSwitch {
  config: SoakReloadConfig;
  /** Makes the swap to `variant`; resolves once made, rejects when it could not be. */
  swap(variant: 'a' | 'b', index: number): Promise<void>;
  /** Resolves true once the gateway is seen to serve `variant` (within `ms` of the call), false otherwise. */
  seen(variant: 'a' | 'b', ms: number): Promise<boolean>;
}

/** Seconds before a reload in its window: the swap is made at the start of a second, its effect after. */
const WINDOW_BEFORE_SEC = 1;

function windowOf(options: SoakReloadOptions): SoakReloadConfig['window'] {
  return { beforeSec: WINDOW_BEFORE_SEC, afterSec: Math.max(1, options.windowSec - WINDOW_BEFORE_SEC) };
}

const seenWithinSec = (options: SoakReloadOptions): number => Math.min(30, Math.max(2, options.everySec / 2));

/** The switch for this gateway, or a one-line refusal naming what it needs. */
export function reloadSwitch(options: SoakReloadOptions, adapter: GatewayAdapter, gateway: RunningGateway): ReloadSwitch {
  const isCommand = adapter.spec.startsWith('cmd:');
  if (isCommand) return commandSwitch(options, gateway);
  if (options.command || options.signal || options.seenPattern)
    throw new GwprofError(
      '--reload-command, --reload-signal and --reload-seen are for a cmd: gateway: a built-in one is reloaded by rewriting its schema files',
    );
  const files = adapter.reloadFiles?.() ?? [];
  const marked = files.find((file) => hasQueryBlock(readFileSync(file, 'utf8')));
  if (!marked)
    throw new GwprofError(
      `--reload-every: gwprof cannot reload ${adapter.spec} while it serves (it reloads ${RELOADING_GATEWAYS.join(', ')}, each watching its schema files; see docs/soak-reload.md): give another --gateway`,
    );
  return fileSwitch(options, marked, gateway);
}

function fileSwitch(options: SoakReloadOptions, file: string, gateway: RunningGateway): ReloadSwitch {
  const variants = { a: readFileSync(file, 'utf8'), b: '' };
  variants.b = withReloadMarker(variants.a);
  return {
    config: {
      everySec: options.everySec,
      how: 'files',
      detail: [file],
      seenBy: { kind: 'introspection', field: RELOAD_MARKER_FIELD },
      window: windowOf(options),
      seenWithinSec: seenWithinSec(options),
    },
    // In place, one write: Hive Gateway's watch of the file ends at a rename.
    swap: async (variant) => writeFileSync(file, variants[variant]),
    seen: (variant, ms) => introspectionShows(gateway.url, variant === 'b', ms),
  };
}

/** Asks every 100 ms whether introspection lists the marker as `present` says, until `ms` have gone. */
async function introspectionShows(url: string, present: boolean, ms: number): Promise<boolean> {
  const deadline = performance.now() + ms;
  while (performance.now() < deadline) {
    if ((await markerNow(url)) === present) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

/** Whether the gateway's introspection lists the marker now; null when it gave no introspection answer. */
export async function markerNow(url: string): Promise<boolean | null> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: MARKER_QUERY }),
      signal: AbortSignal.timeout(5_000),
    });
    return markerInAnswer(await response.json());
  } catch {
    return null;
  }
}

function commandSwitch(options: SoakReloadOptions, gateway: RunningGateway): ReloadSwitch {
  if (!options.command === !options.signal)
    throw new GwprofError('--reload-every with a cmd: gateway: give --reload-command <cmd> or --reload-signal <SIG>, one of them');
  if (!options.seenPattern)
    throw new GwprofError('--reload-every with a cmd: gateway: give --reload-seen <regex>, a line the gateway logs once it has reloaded');
  const pattern = new RegExp(options.seenPattern);
  const config: SoakReloadConfig = {
    everySec: options.everySec,
    how: options.command ? 'command' : 'signal',
    detail: [options.command ?? options.signal!],
    seenBy: { kind: 'log', pattern: options.seenPattern },
    window: windowOf(options),
    seenWithinSec: seenWithinSec(options),
  };
  // Only lines logged after the swap count: matches are counted, and each swap notes the count.
  let matches = 0;
  let matchesAtSwap = 0;
  gateway.process.onLine((line) => {
    if (pattern.test(line)) matches++;
  });
  return {
    config,
    swap: async (variant, index) => {
      matchesAtSwap = matches;
      if (options.signal) {
        process.kill(gateway.serverPid, options.signal);
        return;
      }
      await run('sh', ['-c', options.command!], {
        env: { ...process.env, GWPROF_RELOAD_VARIANT: variant, GWPROF_RELOAD_INDEX: String(index) },
        timeout: 60_000,
      });
    },
    seen: async (_variant, ms) => {
      const deadline = performance.now() + ms;
      while (performance.now() < deadline) {
        if (matches > matchesAtSwap) return true;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return false;
    },
  };
}

/** The switch, once the gateway is seen to serve variant A by the switch's own test (introspection answering without the marker). */
export async function openReloadSwitch(options: SoakReloadOptions, adapter: GatewayAdapter, gateway: RunningGateway): Promise<ReloadSwitch> {
  const reloads = reloadSwitch(options, adapter, gateway);
  if (reloads.config.seenBy.kind === 'introspection' && (await markerNow(gateway.url)) !== false)
    throw new GwprofError(
      `--reload-every: ${adapter.spec} gave no introspection answer to ${MARKER_QUERY}, which is how a reload is seen; turn its introspection on`,
    );
  return reloads;
}
