/**
 * What a command checks before it builds, starts or writes anything: that the paths it will write
 * can be written, that the gateways it is given are of a kind it takes (a native build takes
 * minutes: refusing it afterwards wastes them), that a `url:` gateway answers, and that the ports
 * it will listen on are free. Each failure is one line naming the flag and the fix.
 */
import { accessSync, constants, statSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Command } from 'commander';
import { DEFAULTS, NATIVE_BINARIES, SUBGRAPH_NAMES, looksLikeScenarioFile, readScenarioFile, resolveGatewaySpec } from '@gwprof/collect';
import { GwprofError } from '@gwprof/results';

/** What a gateway spec starts: a built-in Node gateway, a native one (built or downloaded), a command of the user's, or one already running. */
export type GatewayKind = 'node' | 'native' | 'cmd' | 'url';

export function gatewayKindOf(spec: string): GatewayKind {
  if (spec.startsWith('url:')) return 'url';
  if (spec.startsWith('cmd:')) return 'cmd';
  return spec.replace(/@.*$/, '') in NATIVE_BINARIES ? 'native' : 'node';
}

const KIND_NAMES: Record<GatewayKind, string> = {
  node: 'a built-in Node gateway (mesh, hive, apollo)',
  native: `a built-in native gateway (${Object.keys(NATIVE_BINARIES).join(', ')})`,
  cmd: 'cmd:<shell command>',
  url: 'url:<http://127.0.0.1:…>',
};

/** The gateway kinds a command takes, and why it takes no other. */
export interface GatewayKinds {
  kinds: readonly GatewayKind[];
  why: string;
}

export function assertGatewayKind(command: string, flag: string, spec: string, accepted: GatewayKinds): void {
  const kind = gatewayKindOf(spec);
  if (accepted.kinds.includes(kind)) return;
  const takes = accepted.kinds.map((k) => KIND_NAMES[k]).join(' or ');
  throw new GwprofError(`${command} ${flag} ${spec}: ${accepted.why}; give ${takes}`);
}

/** A folder the command creates run folders in: its nearest existing ancestor must be a folder we may write. */
export function assertFolderWritable(dir: string, flag: string): void {
  const target = path.resolve(dir);
  let existing = target;
  while (!exists(existing)) existing = path.dirname(existing);
  if (!statSync(existing).isDirectory()) {
    throw new GwprofError(`${flag} ${dir}: ${existing} is a file, not a folder: give a folder (or a path that does not exist yet)`);
  }
  assertWritable(existing, flag, dir);
}

/** A file the command writes: its folder must exist and be writable, and the file must not be a folder. */
export function assertFileWritable(file: string, flag: string): void {
  const target = path.resolve(file);
  if (exists(target) && statSync(target).isDirectory()) throw new GwprofError(`${flag} ${file} is a folder: give a file name`);
  const dir = path.dirname(target);
  if (!exists(dir)) throw new GwprofError(`${flag} ${file}: the folder ${dir} does not exist: create it first, or give a file in a folder that exists`);
  if (!statSync(dir).isDirectory()) throw new GwprofError(`${flag} ${file}: ${dir} is a file, not a folder: give a file in a folder`);
  assertWritable(dir, flag, file);
}

function assertWritable(dir: string, flag: string, given: string): void {
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    throw new GwprofError(`${flag} ${given}: ${dir} is not writable: give a path you may write`);
  }
}

function exists(file: string): boolean {
  try {
    statSync(file);
    return true;
  } catch {
    return false;
  }
}

/** Every option that names a file or folder a command writes, checked once the flags are parsed. */
const WRITTEN_FILES = [
  { attribute: 'json', flag: '--json' },
  { attribute: 'markdown', flag: '--markdown' },
  { attribute: 'goldens', flag: '--goldens' },
] as const;

export function assertOutputsWritable(opts: Record<string, unknown>): void {
  if (typeof opts.out === 'string') assertFolderWritable(opts.out, '--out');
  for (const { attribute, flag } of WRITTEN_FILES) {
    const value = opts[attribute];
    if (typeof value === 'string' && value !== '-') assertFileWritable(value, flag);
  }
}

/** A port a command will listen on, what for, and the flag that chose it. */
export interface PortUse {
  port: number;
  what: string;
  flag: string;
}

/** The gateway's port and the demo subgraphs' ports a command starts services on (none of the demo's when a scenario file brings its own subgraphs). */
export function servicePorts(opts: Record<string, unknown>): PortUse[] {
  return [
    { port: opts.gatewayPort as number, what: 'gateway', flag: '--gateway-port' },
    ...subgraphPortUses(opts, opts.subgraphPorts as number[], '--subgraph-ports', ''),
  ];
}

/** A comparison's candidate: its own gateway port and its own addresses of the demo subgraphs. */
export function candidatePorts(opts: Record<string, unknown>): PortUse[] {
  const subgraphs =
    (opts.candidateSubgraphPorts as number[] | undefined) ?? (opts.subgraphPorts as number[]).map((p) => p + DEFAULTS.compare.candidateSubgraphPortOffset);
  return [
    { port: opts.candidatePort as number, what: 'candidate gateway', flag: '--candidate-port' },
    ...subgraphPortUses(opts, subgraphs, '--candidate-subgraph-ports', "candidate's "),
  ];
}

function subgraphPortUses(opts: Record<string, unknown>, ports: number[], flag: string, side: string): PortUse[] {
  const scenario = opts.scenario;
  if (typeof scenario === 'string' && looksLikeScenarioFile(scenario) && readScenarioFile(scenario).subgraphs.length > 0) return [];
  return ports.map((port, i) => ({ port, what: `${side}subgraph ${SUBGRAPH_NAMES[i] ?? i + 1}`, flag }));
}

/** The ports must differ from each other and be free now: found before anything starts, not after. */
export async function assertPortsFree(uses: readonly PortUse[]): Promise<void> {
  const seen = new Map<number, PortUse>();
  for (const use of uses) {
    const other = seen.get(use.port);
    if (other !== undefined)
      throw new GwprofError(`port ${use.port} is given twice (${other.what} by ${other.flag}, ${use.what} by ${use.flag}): give each service its own port`);
    seen.set(use.port, use);
  }
  for (const { port, what, flag } of uses) {
    const refused = await listenRefused(port);
    if (refused === 'EADDRINUSE') throw new GwprofError(`port ${port} (${what}) is already in use: stop what listens there, or give ${flag} another port`);
    if (refused) throw new GwprofError(`port ${port} (${what}) cannot be opened (${refused}): give ${flag} a port ≥ 1024`);
  }
}

/** Null when 127.0.0.1:port can be listened on now, else the error's code. */
function listenRefused(port: number): Promise<string | null> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(null)));
  });
}

/** A `url:` gateway must accept a connection before any warm-up is spent on it. */
export async function assertUrlAnswers(spec: string, flag: string): Promise<void> {
  let url: URL;
  try {
    url = new URL(spec.slice('url:'.length).trim());
  } catch {
    return; // collect says what a url: spec must look like
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // Load goes to loopback only: collect refuses any other host, and nothing else is probed.
  if (url.protocol !== 'http:' || !['127.0.0.1', 'localhost', '::1'].includes(host)) return;
  const port = Number(url.port || 80);
  const open = await new Promise<boolean>((resolve) => {
    const socket = net.connect({ port, host, timeout: 3000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
  if (!open)
    throw new GwprofError(`${flag} ${spec}: nothing listens at ${url.host}: start the gateway first (gwprof up starts one), or give the URL it listens on`);
}

/** The gateway a run will start: the flag's, or when the flag is left at its default, a scenario file's `gateway:`. */
function effectiveGateway(opts: Record<string, unknown>, attribute: string, source: string | undefined): string | undefined {
  const spec = opts[attribute];
  const scenario = opts.scenario;
  if (source === 'default' && typeof scenario === 'string' && looksLikeScenarioFile(scenario)) return readScenarioFile(scenario).gateway ?? (spec as string);
  return typeof spec === 'string' ? spec : undefined;
}

/**
 * A built-in gateway asked for at a line of versions or `latest` runs at one published version,
 * chosen now and said, so that the build, the record and both sides of a comparison name it; a
 * version that is not published is refused before anything is built.
 */
async function oneVersion(command: Command, attribute: string, spec: string): Promise<string> {
  const resolved = await resolveGatewaySpec(spec);
  if (resolved.spec === spec) return spec;
  command.setOptionValueWithSource(attribute, resolved.spec, 'cli');
  process.stderr.write(`${resolved.note}\n`);
  return resolved.spec;
}

/** What one command checks before its action runs. */
export interface Preflight {
  /** The flags that name gateways (attribute → flag), and the kinds the command takes. */
  gateways?: { options: Record<string, string>; accepted: GatewayKinds };
  /** The ports it will listen on, from its parsed options and the gateways it will run (attribute → spec); none when it starts nothing. */
  ports?: (opts: Record<string, unknown>, gateways: Record<string, string>) => PortUse[];
}

/** Adds the checks to `command`, run after its flags are parsed and before its action. */
export function withPreflight(command: Command, preflight: Preflight = {}): Command {
  return command.hook('preAction', async (self) => {
    const opts = self.opts<Record<string, unknown>>();
    assertOutputsWritable(opts);
    const gateways: Record<string, string> = {};
    for (const [attribute, flag] of Object.entries(preflight.gateways?.options ?? {})) {
      const given = effectiveGateway(opts, attribute, self.getOptionValueSource(attribute));
      if (given === undefined) continue;
      assertGatewayKind(self.name(), flag, given, preflight.gateways!.accepted);
      const spec = await oneVersion(self, attribute, given);
      gateways[attribute] = spec;
      if (gatewayKindOf(spec) === 'url') await assertUrlAnswers(spec, flag);
    }
    if (preflight.ports) await assertPortsFree(preflight.ports(opts, gateways));
  });
}
