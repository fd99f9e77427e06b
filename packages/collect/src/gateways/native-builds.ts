/**
 * The native gateways gwprof knows, pinned, and how each is installed on first use into gwprof's
 * cache: Grafbase's published binary from the npm registry, Hive Router and Apollo Router built
 * from crates.io with cargo (pinned to the newest versions Rust 1.95 builds; `name@version` names
 * another, gateway-versions.ts). A cargo build
 * keeps its target folder, so another version builds in minutes; every build gets frame pointers,
 * so `perf` can walk its stacks.
 */
import { spawnGroup } from '../processes/process-group.js';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, readFileSync, readdirSync, readlinkSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { GwprofError, type GatewayBuild } from '@gwprof/results';

interface NpmBinary {
  source: 'npm';
  package: string;
  version: string;
  /** The binary inside the package. */
  file: string;
  licence: string;
}

export interface CargoBinary {
  source: 'cargo';
  crate: string;
  version: string;
  features: string[];
  /** The binary `cargo install` puts in <root>/bin. */
  file: string;
  licence: string;
  /** What the first build took on the 2-core machine the pin was chosen on. */
  buildMinutes: number;
}

export type NativeBinary = NpmBinary | CargoBinary;

/** Frame pointers, so that perf's stack walks reach the root; said in every record of the build. */
export const CARGO_RUSTFLAGS = '-C force-frame-pointers=yes';

export const NATIVE_BINARIES: Readonly<Record<string, NativeBinary>> = {
  // The CLI's dev server runs Grafbase's gateway; the npm registry serves no other build of it.
  grafbase: { source: 'npm', package: '@grafbase/cli-x86_64-unknown-linux-musl', version: '0.103.0', file: 'grafbase', licence: 'MPL-2.0' },
  // 0.3.x needs Rust 1.97 (its ntex 4 crates); `graphiql` skips a build script that runs npm for a package the registry lacks.
  'hive-router': { source: 'cargo', crate: 'hive-router', version: '0.2.14', features: ['graphiql'], file: 'hive_router', licence: 'MIT', buildMinutes: 11 },
  'apollo-router': { source: 'cargo', crate: 'apollo-router', version: '2.17.0', features: [], file: 'router', licence: 'Elastic-2.0', buildMinutes: 16 },
};

/** gwprof's cache of native builds: binaries and cargo's target folders, shared by every gwprof version. */
export function nativeCacheDir(): string {
  const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(cache, 'gwprof', 'native');
}

/**
 * A built-in native gateway at its pinned version, or at another published one (`grafbase@0.100.0`,
 * `hive-router@0.2.10`): the same package or crate, built the same way.
 */
export function nativeBinaryOf(name: string, version?: string): NativeBinary {
  const pinned = NATIVE_BINARIES[name];
  if (!pinned) throw new Error(`no native gateway named ${name}`);
  return version ? { ...pinned, version } : pinned;
}

/** `name` or `name@version` of a built-in native gateway; null for any other spec. */
export function nativeSpec(spec: string): { name: string; version?: string } | null {
  const match = /^([a-z-]+)(?:@(\d+\.\d+\.\d+(?:[-+][\w.-]+)?))?$/.exec(spec);
  if (!match || !(match[1]! in NATIVE_BINARIES)) return null;
  return match[2] ? { name: match[1]!, version: match[2] } : { name: match[1]! };
}

function installRoot(name: string, binary: NativeBinary): string {
  return path.join(nativeCacheDir(), `${name}-${binary.version}`);
}

/** Where the installed binary is (installed or not). */
export function nativeBinaryPath(name: string, version?: string): string {
  const binary = nativeBinaryOf(name, version);
  const root = installRoot(name, binary);
  return binary.source === 'npm' ? path.join(root, 'package', binary.file) : path.join(root, 'bin', binary.file);
}

/** Installs the binary once; returns its path. Progress says what runs and what it took. */
export async function installNativeBinary(
  name: string,
  onProgress: (line: string, final: boolean) => void,
  version?: string,
  signal?: AbortSignal,
): Promise<string> {
  const binary = nativeBinaryOf(name, version);
  const target = nativeBinaryPath(name, version);
  if (existsSync(target)) return target;
  const started = performance.now();
  const root = installRoot(name, binary);
  mkdirSync(root, { recursive: true });
  if (binary.source === 'npm') {
    onProgress(`fetching ${binary.package}@${binary.version} from the npm registry into ${root} (once)…`, true);
    await npmBinary(binary, root);
  } else {
    onProgress(
      `building ${binary.crate} ${binary.version} with cargo into ${root} (once; about ${binary.buildMinutes} minutes on 2 cores, less when its target folder is warm)…`,
      true,
    );
    await cargoInstall(binary, root, onProgress, signal);
  }
  if (!existsSync(target)) throw new GwprofError(`installing ${name} left no binary at ${target}`);
  onProgress(`${name} ${binary.version} installed in ${((performance.now() - started) / 1000).toFixed(0)} s`, true);
  return target;
}

function npmBinary(binary: NpmBinary, root: string): Promise<void> {
  return run('npm', ['pack', `${binary.package}@${binary.version}`, '--silent'], root, {}, `npm pack ${binary.package}`).then(async () => {
    const tarball = readdirSync(root).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new GwprofError(`npm pack ${binary.package} wrote no tarball in ${root}`);
    await run('tar', ['xzf', tarball], root, {}, `unpacking ${tarball}`);
    rmSync(path.join(root, tarball));
  });
}

async function cargoInstall(binary: CargoBinary, root: string, onProgress: (line: string, final: boolean) => void, signal?: AbortSignal): Promise<void> {
  const staging = `${root}.partial`;
  rmSync(staging, { recursive: true, force: true });
  const args = ['install', binary.crate, '--version', binary.version, '--locked', '--root', staging];
  if (binary.features.length > 0) args.push('--features', binary.features.join(','));
  const env = { CARGO_TARGET_DIR: path.join(nativeCacheDir(), 'target', binary.crate), RUSTFLAGS: CARGO_RUSTFLAGS };
  await run(
    'cargo',
    args,
    root,
    env,
    `cargo install ${binary.crate}`,
    (line) => {
      if (/^\s*Compiling /.test(line)) onProgress(`${binary.crate}: ${line.trim()}`, false);
    },
    signal,
  ).catch((error: Error) => {
    throw rustTooOld(binary, error.message) ?? missingProtoc(binary, error.message) ?? error;
  });
  // A build stopped halfway leaves no binary where a later run would take it for installed.
  renameSync(path.join(staging, 'bin'), path.join(root, 'bin'));
  rmSync(staging, { recursive: true, force: true });
}

/**
 * A build refused for the Rust it was given (a crate's `rust-version` above the installed rustc),
 * as one line naming both versions and the fix; null for any other failure.
 */
export function rustTooOld(binary: CargoBinary, failure: string): GwprofError | null {
  const needs = /requires rustc (\d+\.\d+(?:\.\d+)?)/.exec(failure)?.[1];
  if (!needs) return null;
  const have = /rustc (\d+\.\d+\.\d+) is not supported|currently active rustc version is (\d+\.\d+\.\d+)/.exec(failure);
  const pinned = NATIVE_BINARIES[binary.crate]?.version;
  return new GwprofError(
    `${binary.crate} ${binary.version} needs Rust ${needs} or newer${have ? ` (rustc here: ${have[1] ?? have[2]})` : ''}: update Rust (rustup update stable), or give a version your Rust builds${pinned && pinned !== binary.version ? ` (${binary.crate}@${pinned}, the default)` : ''}`,
  );
}

/** A build stopped by a crate's build script that needs protoc (Apollo Router's), as one line naming the fix; null otherwise. */
export function missingProtoc(binary: CargoBinary, failure: string): GwprofError | null {
  if (!/Could not find `protoc`|protoc.*(not found|No such file)/.test(failure)) return null;
  return new GwprofError(
    `${binary.crate} ${binary.version} needs protoc, the Protocol Buffers compiler, to build: install it (Debian: apt-get install protobuf-compiler; or set PROTOC to its path) and run again`,
  );
}

function run(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
  what: string,
  onLine?: (line: string) => void,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawnGroup(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] }, signal);
    const tail: string[] = [];
    // cargo's last lines say only that it failed; its first error lines say why.
    const causes: string[] = [];
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => {
        tail.push(line);
        if (tail.length > 10) tail.shift();
        if (causes.length < 2 && /^error[:[]|Could not find `\w+`/.test(line.trim()) && !/^error: failed to compile/.test(line.trim()))
          causes.push(line.trim());
        onLine?.(line);
      });
    }
    child.once('error', (error) => reject(new GwprofError(`${what} needs ${command} on the PATH: ${error.message}`)));
    child.once('exit', (code) => {
      if (code === 0) resolve();
      else if (signal?.aborted) reject(new Error('interrupted'));
      else reject(new GwprofError(`${what} failed (exit ${code}): ${[...causes, ...tail.slice(-3)].join(' | ')}`));
    });
  });
}

/**
 * A build made by hand into the cache (another build setting of a pinned version, say) says how in
 * BUILD_NOTE beside its bin/: {"source": …, "profile": …}; the record then says what it says.
 */
export const BUILD_NOTE = 'gwprof-build.json';

function buildNote(name: string, version?: string): { source?: string; profile?: string } {
  const file = path.join(installRoot(name, nativeBinaryOf(name, version)), BUILD_NOTE);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { source?: string; profile?: string }) : {};
}

/** What the record keeps of a native build: where it came from, how it was built, and its hash. */
export async function nativeBuildRecord(name: string, version?: string): Promise<GatewayBuild> {
  const binary = nativeBinaryOf(name, version);
  const file = nativeBinaryPath(name, version);
  const note = buildNote(name, version);
  return {
    name,
    version: binary.version,
    source:
      note.source ??
      (binary.source === 'npm'
        ? `npm ${binary.package}@${binary.version}`
        : `crates.io ${binary.crate} ${binary.version}${binary.features.length ? ` (features ${binary.features.join(',')})` : ''}`),
    profile: note.profile ?? (binary.source === 'npm' ? 'as published' : `cargo install --locked (release), RUSTFLAGS="${CARGO_RUSTFLAGS}"`),
    binary: file,
    sha256: await sha256Of(file),
    licence: binary.licence,
  };
}

/**
 * A native process gwprof did not build (a cmd: gateway, or one measured by URL with its pid): its
 * executable and hash, for the record; null for a Node process, whose packages say what it runs.
 */
export async function processBuild(pid: number, source: string): Promise<GatewayBuild | null> {
  let binary: string;
  try {
    binary = readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return null;
  }
  return buildOfBinary(binary, source);
}

/**
 * The same for a process valgrind runs: its executable is valgrind's tool, and the program it runs is
 * the first word of its command line after valgrind's own options (all of them `--name[=value]`).
 */
export async function callgrindClientBuild(pid: number, source: string): Promise<GatewayBuild | null> {
  let words: string[];
  let cwd: string;
  try {
    words = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    cwd = readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return null;
  }
  const program = words.slice(1).find((word) => !word.startsWith('-'));
  return program ? buildOfBinary(path.resolve(cwd, program), source) : null;
}

async function buildOfBinary(binary: string, source: string): Promise<GatewayBuild | null> {
  if (/^node(js)?(\d+)?$/.test(path.basename(binary)) || !existsSync(binary)) return null;
  return {
    name: path.basename(binary),
    version: 'unknown',
    source,
    profile: 'as built by its owner',
    binary,
    sha256: await sha256Of(binary),
    licence: 'unknown',
  };
}

export function sha256Of(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}
