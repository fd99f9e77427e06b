/**
 * Starts a gateway adapter's process the same way for every gateway: its own CPU set and
 * memory cap, PORT and SUBGRAPH_<NAME>_URL in its environment plus the user's --gateway-env,
 * the profiler preload when profiling; then waits until it answers a GraphQL request.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { NodeBinary } from '../processes/node-binaries.js';
import { orphanGuardedCommand, type CpuQuota, type MemoryCap } from '../processes/isolation.js';
import { assertPortFree, waitForPort } from '../processes/ports.js';
import type { ManagedProcess, ProcessRegistry } from '../processes/processes.js';
import { processTree } from '../processes/proc-stats.js';
import { hasListener, pidListeningOn } from '../processes/listening-pid.js';
import { lastMeaningfulLine } from './gateway-log-line.js';
import { OTLP_ENDPOINT_ENV, TRACE_CONTEXT_ENV, type GatewayAdapter, type GatewayContext } from '../gateways/types.js';
import { GwprofError } from '@gwprof/results';

export interface GatewayStartOptions {
  adapter: GatewayAdapter;
  port: number;
  subgraphUrls: Record<string, string>;
  /** --gateway-env, for the gateway process only. */
  extraEnv: Record<string, string>;
  /** NODE_OPTIONS additions (profiler preload, heap cap), appended after the user's. */
  nodeOptions: string[];
  /** Extra environment from the harness (profiler socket directory). */
  harnessEnv: Record<string, string>;
  cpus: string | null;
  memoryCap: MemoryCap | null;
  /** A CPU quota below the gateway's cores (native gateways on a small machine). */
  cpuQuota?: CpuQuota | null;
  /** Wraps a Node gateway in clinic or 0x. */
  wrapNodeScript?: (command: string, args: string[]) => { command: string; args: string[] };
  runDir: string;
  registry: ProcessRegistry;
  logger: Logger;
  processName?: string;
  /** Another Node.js, or V8 flags for the gateway's node, through a shim written under shimDir. */
  node?: NodeChoice;
  /** Run the gateway under valgrind's callgrind (a comparison by instructions). */
  callgrind?: CallgrindLaunch;
}

/** valgrind's arguments before the program, and where its dumps go (%p: the pid). */
export interface CallgrindLaunch {
  valgrindArgs: readonly string[];
  outFile: string;
  /** The tool's option that names its output file: callgrind's unless given (DHAT's `--dhat-out-file`). */
  outFileOption?: string;
}

const outFileArg = (launch: CallgrindLaunch): string => `${launch.outFileOption ?? '--callgrind-out-file'}=${launch.outFile}`;

/** The Node.js a gateway runs on and the V8 flags it gets (flags NODE_OPTIONS may not carry). */
export interface NodeChoice {
  binary: NodeBinary;
  v8Flags: readonly string[];
  /** A folder of the harness's own, for the shim. */
  shimDir: string;
}

export interface RunningGateway {
  url: string;
  process: ManagedProcess;
  /** The process that owns the listening socket (for `sh -c` or npm-started gateways, not the wrapper). */
  serverPid: number;
  /** Every pid of the gateway's process tree. */
  pids(): number[];
  stop(): Promise<void>;
  /** Where its start went, ms: the adapter's preparation (a build, once), until it listened, until it answered. */
  startup: GatewayStartup;
}

export interface GatewayStartup {
  prepareMs: number;
  listenMs: number;
  readyMs: number;
}

/** A gateway as a step sees it: its url, its pid, whether it still runs and why not. */
export interface StepGateway {
  url: string;
  /** Root pid of the gateway's process tree; null for a gateway we cannot see (a URL). */
  pid: number | null;
  isRunning(): boolean;
  /** Why it is gone ("gateway exited (code 3) … last log lines: …"); null while it runs. */
  exitReason(): string | null;
}

/** A gateway process as a step sees it. */
export function stepGatewayOf(gateway: RunningGateway): StepGateway {
  let exit: string | null = null;
  void gateway.process.exited.then((info) => {
    const tail = gateway.process.tail().slice(-5).join(' | ');
    exit = `gateway exited (${info.signal ?? `code ${info.code}`}) during the step${tail ? `; last log lines: ${tail}` : ''}`;
  });
  return { url: gateway.url, pid: gateway.process.pid, isRunning: () => gateway.process.isRunning(), exitReason: () => exit };
}

/**
 * A `node` that execs the chosen binary with the V8 flags, in a folder of its own (exec keeps the
 * pid, so the gateway's process is still the one started); null when neither is asked for.
 */
function nodeShim(choice: NodeChoice, callgrind: CallgrindLaunch | undefined): string | null {
  if (choice.binary.path === process.execPath && choice.v8Flags.length === 0 && !callgrind) return null;
  mkdirSync(choice.shimDir, { recursive: true });
  const shim = path.join(choice.shimDir, 'node');
  const valgrind = callgrind ? ['valgrind', ...callgrind.valgrindArgs, outFileArg(callgrind)] : [];
  const words = [...valgrind, choice.binary.path, ...choice.v8Flags].map(shellQuote).join(' ');
  writeFileSync(shim, `#!/bin/sh\nexec ${words} "$@"\n`, { mode: 0o755 });
  return shim;
}

/**
 * A command that is not a node script (`cmd:`) under callgrind, its children and execs too: a
 * compiled gateway is counted as it is; a `node` it calls through PATH is the shim, which runs
 * natively and puts node under callgrind itself, with the V8 flags.
 */
function underCallgrind(callgrind: CallgrindLaunch, shim: string | null, command: string, args: string[]): { command: string; args: string[] } {
  const skip = shim ? [`--trace-children-skip=${shim}`] : [];
  return {
    command: 'valgrind',
    args: [...callgrind.valgrindArgs, outFileArg(callgrind), '--trace-children=yes', ...skip, command, ...args],
  };
}

/** A word as the shell reads it back: bare when it is plainly one, single-quoted otherwise. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export function gatewayEnvironment(port: number, subgraphUrls: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = { PORT: String(port) };
  for (const [name, url] of Object.entries(subgraphUrls)) env[`SUBGRAPH_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_URL`] = url;
  return env;
}

/** The readiness probe's answer: ready, not yet (and what came back), or a wrong answer that waiting will not fix. */
type ProbeAnswer = { kind: 'ready' } | { kind: 'not yet'; seen: string } | { kind: 'wrong'; seen: string };

const PROBE_QUERY = '{ __typename }';
/** How much of an answer an error message quotes. */
const QUOTED_CHARS = 200;

async function probeGraphQL(url: string): Promise<ProbeAnswer> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query: PROBE_QUERY }),
      signal: AbortSignal.timeout(5000),
    });
    text = await response.text();
  } catch (error) {
    return { kind: 'not yet', seen: (error as Error).message };
  }
  const seen = `HTTP ${response.status} ${JSON.stringify(text.slice(0, QUOTED_CHARS))}${text.length > QUOTED_CHARS ? '…' : ''}`;
  const body = parseJsonObject(text);
  if (response.ok && body && typeof body.data === 'object' && body.data !== null) {
    // A well-formed answer with data is final: a gateway still loading its schema answers with errors or an error status.
    return (body.data as { __typename?: unknown }).__typename === 'Query' ? { kind: 'ready' } : { kind: 'wrong', seen };
  }
  return { kind: 'not yet', seen };
}

function parseJsonObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Polls the probe until the gateway is ready; throws at a wrong answer, an exit or the deadline, saying what it saw. */
async function waitUntilReady(url: string, timeoutMs: number, isRunning: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await probeGraphQL(url);
    if (answer.kind === 'ready') return;
    if (answer.kind === 'wrong') {
      throw new Error(`it answered ${PROBE_QUERY} with ${answer.seen}; a GraphQL server answers {"data":{"__typename":"Query"}}`);
    }
    if (!isRunning()) throw new Error(`the process exited (its last answer to ${PROBE_QUERY}: ${answer.seen})`);
    if (Date.now() > deadline) throw new Error(`${url} did not answer ${PROBE_QUERY} within ${timeoutMs / 1000} s (its last answer: ${answer.seen})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * A gateway that did not start. The first line says why in gwprof's words and the gateway's own
 * (the line of its log that reports the error); the log's last lines follow, for a reader.
 */
export class GatewayStartError extends GwprofError {
  readonly gatewayLine: string | null;

  constructor(
    spec: string,
    readonly reason: string,
    tail: readonly string[],
  ) {
    const gatewayLine = lastMeaningfulLine(tail);
    const lastLines = tail.slice(-15);
    super(
      `gateway ${spec} failed to start: ${reason}${gatewayLine ? `; its log: ${gatewayLine}` : ''}${lastLines.length ? `\n  last log lines:\n    ${lastLines.join('\n    ')}` : ''}`,
    );
    this.gatewayLine = gatewayLine;
  }
}

/** An error's first line within `max` characters; a failed start keeps the gateway's own line whole. */
export function oneLineReason(error: Error, max = 300): string {
  const first = error.message.split('\n')[0]!;
  if (first.length <= max) return first;
  if (!(error instanceof GatewayStartError) || !error.gatewayLine) return `${first.slice(0, max - 1)}…`;
  const ending = `; its log: ${error.gatewayLine}`;
  return `${first.slice(0, max - ending.length - 1)}…${ending}`;
}

export async function startGateway(options: GatewayStartOptions): Promise<RunningGateway> {
  const { adapter, port, logger } = options;
  await assertPortFree(port, `gateway ${adapter.spec}`);
  // Whether it forwards trace context is part of how a gateway is built (legacy Mesh bakes its headers in).
  const traced: Record<string, string> = options.extraEnv[TRACE_CONTEXT_ENV] === '1' ? { [TRACE_CONTEXT_ENV]: '1' } : {};
  const otlp = options.extraEnv[OTLP_ENDPOINT_ENV];
  if (otlp) traced[OTLP_ENDPOINT_ENV] = otlp;
  const baseEnv = { ...gatewayEnvironment(port, options.subgraphUrls), ...traced };
  const node = options.node ? nodeShim(options.node, options.callgrind) : null;
  const context: GatewayContext = { port, subgraphUrls: options.subgraphUrls, env: baseEnv, runDir: options.runDir, logger, node: node ?? process.execPath };
  const t0 = performance.now();
  try {
    await adapter.prepare(context);
  } catch (error) {
    adapter.dispose?.();
    throw new GwprofError(`gateway ${adapter.spec} failed to prepare: ${(error as Error).message}`);
  }

  const launch = adapter.launch(context);
  let { command, args } = launch;
  if (options.wrapNodeScript) {
    if (!launch.isNodeScript) throw new GwprofError(`gateway ${adapter.spec} is not a node script: clinic and 0x can only wrap Node gateways`);
    ({ command, args } = options.wrapNodeScript(command, args));
  }
  if (options.callgrind && !launch.isNodeScript) ({ command, args } = underCallgrind(options.callgrind, node, command, args));
  ({ command, args } = orphanGuardedCommand(command, args));
  if (options.memoryCap) ({ command, args } = options.memoryCap.wrap(command, args));
  if (options.cpuQuota) ({ command, args } = options.cpuQuota.wrap(command, args));

  const nodeOptions = [options.extraEnv.NODE_OPTIONS ?? process.env.NODE_OPTIONS, ...options.nodeOptions].filter(Boolean).join(' ');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...launch.env,
    ...options.extraEnv,
    ...baseEnv,
    ...options.harnessEnv,
    ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}),
    ...(node ? { PATH: `${path.dirname(node)}:${options.extraEnv.PATH ?? process.env.PATH ?? ''}` } : {}),
  };
  const name = options.processName ?? 'gateway';
  const child = options.registry.spawn({ name, command, args, cwd: launch.cwd, env, logger, cpus: options.cpus });
  const url = `http://127.0.0.1:${port}/graphql`;

  const failure = (reason: string): GatewayStartError => new GatewayStartError(adapter.spec, reason, child.tail());

  const spawned = performance.now();
  let listening = spawned;
  try {
    await waitForPort(port, adapter.startTimeoutMs, () => child.isRunning());
    listening = performance.now();
    await waitUntilReady(url, adapter.startTimeoutMs, () => child.isRunning());
  } catch (error) {
    await child.stop();
    throw failure((error as Error).message);
  }

  const tree = processTree(child.pid);
  const listener = pidListeningOn(port, tree);
  // Another process took the port while the gateway was starting (its readiness probe answered for
  // it): every figure would be that process's. A Node gateway's socket is always in its own tree; a
  // command may hand the port to a process outside it (a container's proxy), which is only logged.
  if (listener === null && hasListener(port)) {
    if (launch.isNodeScript || options.callgrind) {
      await child.stop();
      throw failure(`port ${port} is served by a process gwprof did not start (it took the port while the gateway was starting)`);
    }
    logger.warn({ port, pid: child.pid }, 'the listening socket is not in the gateway process tree');
  }
  const serverPid = listener ?? child.pid;
  logger.info({ event: 'gateway-ready', url, pid: child.pid, serverPid }, `gateway ${adapter.spec} ready`);
  const startup = { prepareMs: spawned - t0, listenMs: listening - spawned, readyMs: performance.now() - listening };
  return {
    url,
    process: child,
    serverPid,
    pids: () => processTree(child.pid),
    stop: async () => {
      await child.stop();
    },
    startup,
  };
}
