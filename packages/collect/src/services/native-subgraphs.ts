/**
 * The demo's four subgraphs in Rust (async-graphql on axum, `subgraphs-native/`), for a native
 * gateway's fan-out that the Node ones cannot serve: built on first use with cargo into gwprof's
 * native cache, one binary per state of the sources (`gwprof-subgraphs <name>`, the Node
 * subgraphs' contract), cargo's target folder kept so that a change rebuilds in a minute or two.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { GwprofError } from '@gwprof/results';
import { CARGO_RUSTFLAGS, nativeCacheDir } from '../gateways/native-builds.js';
import { repoRoot } from '../paths.js';
import type { GatewayAdapter } from '../gateways/types.js';

export const NATIVE_SUBGRAPHS_BINARY = 'gwprof-subgraphs';

export interface NativeSubgraphsBuildOptions {
  onProgress: (line: string, final: boolean) => void;
  /** The crate; default: `subgraphs-native/` beside gwprof's fixtures. */
  sourceDir?: string;
  /** gwprof's native cache; default: `$XDG_CACHE_HOME/gwprof/native` (or `~/.cache/…`). */
  cacheDir?: string;
  /** The cargo to run; default: `cargo` on the PATH. */
  cargo?: string;
}

/** Which demo subgraphs serve a run: `auto` takes the native ones when a built-in native gateway is measured. */
export type SubgraphsChoice = 'node' | 'native' | 'auto';

/**
 * The native subgraphs' binary when the run's demo subgraphs are the native ones (built on first
 * use), null for the Node ones: asked for, or by default in front of a built-in native gateway,
 * whose fan-out the Node subgraphs cannot serve on the harness's cores.
 */
export async function demoSubgraphsBinary(
  choice: SubgraphsChoice,
  adapters: ReadonlyArray<GatewayAdapter | null>,
  onProgress: (line: string, final: boolean) => void,
): Promise<string | null> {
  const native = choice === 'native' || (choice === 'auto' && adapters.some((adapter) => adapter?.build !== undefined));
  return native ? buildNativeSubgraphs({ onProgress }) : null;
}

/** Builds the native subgraphs unless this state of their sources is built already; returns the binary's path. */
export async function buildNativeSubgraphs(options: NativeSubgraphsBuildOptions): Promise<string> {
  const sourceDir = options.sourceDir ?? path.join(repoRoot, 'subgraphs-native');
  const cacheDir = options.cacheDir ?? nativeCacheDir();
  const cargo = options.cargo ?? 'cargo';
  const binaryDir = path.join(cacheDir, `subgraphs-${nativeSubgraphsSourceHash(sourceDir)}`);
  const binary = path.join(binaryDir, NATIVE_SUBGRAPHS_BINARY);
  if (existsSync(binary)) return binary;
  const version = cargoVersion(cargo);
  const started = performance.now();
  options.onProgress(`building the native subgraphs (async-graphql, axum) with ${version} into ${binaryDir} (once; a few minutes on 2 cores)…`, true);
  const targetDir = path.join(cacheDir, 'target', 'subgraphs');
  await cargoBuild(cargo, sourceDir, targetDir, (line) => {
    if (/^\s*Compiling /.test(line)) options.onProgress(`native subgraphs: ${line.trim()}`, false);
  });
  mkdirSync(binaryDir, { recursive: true });
  // Copied under another name and renamed: a build stopped halfway leaves nothing a later run would take for built.
  const partial = `${binary}.partial-${process.pid}`;
  copyFileSync(path.join(targetDir, 'release', NATIVE_SUBGRAPHS_BINARY), partial);
  chmodSync(partial, 0o755);
  renameSync(partial, binary);
  options.onProgress(`native subgraphs built in ${((performance.now() - started) / 1000).toFixed(0)} s: ${binary}`, true);
  return binary;
}

/** A short hash of what the binary is built from: manifest, lockfile, Rust sources and the flags. */
export function nativeSubgraphsSourceHash(sourceDir: string): string {
  const hash = createHash('sha256').update(`RUSTFLAGS=${CARGO_RUSTFLAGS}\n`);
  const files = ['Cargo.toml', 'Cargo.lock', ...filesUnder(sourceDir, 'src')].sort();
  for (const file of files) {
    const full = path.join(sourceDir, file);
    if (!existsSync(full)) throw new GwprofError(`the native subgraphs' sources are incomplete: ${full} is missing`);
    hash.update(`${file}\n`).update(readFileSync(full)).update('\n');
  }
  return hash.digest('hex').slice(0, 16);
}

function filesUnder(root: string, dir: string): string[] {
  const entries = readdirSync(path.join(root, dir), { withFileTypes: true });
  return entries.flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(root, relative) : [relative];
  });
}

function cargoVersion(cargo: string): string {
  const result = spawnSync(cargo, ['--version'], { encoding: 'utf8' });
  if (result.error || result.status !== 0) {
    throw new GwprofError(
      `the native subgraphs are built with cargo (Rust 1.88 or later), and ${cargo} ${result.error ? 'is not on the PATH' : 'did not run'}: install Rust (https://rustup.rs), or keep the Node subgraphs`,
    );
  }
  return result.stdout.trim();
}

/** `cargo build --release --locked` at the lowest CPU priority: a first build must not slow what else runs. */
function cargoBuild(cargo: string, sourceDir: string, targetDir: string, onLine: (line: string) => void): Promise<void> {
  const args = ['-n', '19', cargo, 'build', '--release', '--locked', '--manifest-path', path.join(sourceDir, 'Cargo.toml')];
  return new Promise((resolve, reject) => {
    const child = spawn('nice', args, {
      cwd: sourceDir,
      env: { ...process.env, CARGO_TARGET_DIR: targetDir, RUSTFLAGS: CARGO_RUSTFLAGS },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const tail: string[] = [];
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => {
        tail.push(line);
        if (tail.length > 10) tail.shift();
        onLine(line);
      });
    }
    child.once('error', (error) => reject(new GwprofError(`building the native subgraphs could not start nice: ${error.message}`)));
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new GwprofError(`building the native subgraphs failed (${signal ?? `exit ${code}`}) in ${sourceDir}: ${tail.slice(-3).join(' | ')}`));
    });
  });
}
