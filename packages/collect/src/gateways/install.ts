/**
 * A built-in gateway's packages, installed on first use when gwprof runs as an installed package:
 * its shipped folder (package.json with pinned versions and npm overrides, configuration) is copied
 * into a cache folder and `npm install` runs there once. In the monorepo they are installed already.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { GwprofError } from '@gwprof/results';
import { gatewayDir, gatewaysDir, inMonorepo } from '../paths.js';
import { installNativeBinary, nativeSpec } from './native-builds.js';
import { SUPERGRAPH_HELPER } from './native-routers.js';
import { installNodeVersion, nodeVersionSpec } from './node-versions.js';

const MARKER = '.gwprof-installed';

/**
 * Installs what a built-in gateway needs on first use: a native one's binary (and, for the routers,
 * the composition helper's packages), a Node one's pinned packages; a no-op for cmd: and url:.
 */
export async function installGateway(spec: string, onProgress: (line: string, final: boolean) => void, signal?: AbortSignal): Promise<void> {
  if (spec.startsWith('cmd:') || spec.startsWith('url:')) return;
  const atVersion = nodeVersionSpec(spec);
  if (atVersion) {
    await installNodeVersion(atVersion.name, atVersion.version, copyShippedGateway, npmInstall, onProgress);
    return;
  }
  const native = nativeSpec(spec);
  if (native) {
    await installNativeBinary(native.name, onProgress, native.version, signal);
    if (native.name !== 'grafbase') await installPackages(SUPERGRAPH_HELPER, onProgress);
    return;
  }
  await installPackages(spec, onProgress);
}

/** The supergraph composition's packages (the routers' and `gwprof compose`'s), into the cache once. */
export function installSupergraphHelper(onProgress: (line: string, final: boolean) => void): Promise<void> {
  return installPackages(SUPERGRAPH_HELPER, onProgress);
}

/** A gateway folder's pinned packages, into the cache; in the monorepo they are installed already. */
async function installPackages(spec: string, onProgress: (line: string, final: boolean) => void): Promise<void> {
  if (inMonorepo) return;
  const target = gatewayDir(spec);
  if (existsSync(path.join(target, MARKER))) return;
  const shipped = path.join(gatewaysDir, spec);
  if (!existsSync(path.join(shipped, 'package.json'))) return;
  onProgress(`installing the ${spec} gateway's pinned packages into ${target} (once)…`, true);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  copyShippedGateway(shipped, target);
  await npmInstall(target, spec);
  writeFileSync(path.join(target, MARKER), `${new Date().toISOString()}\n`);
}

/** A built-in gateway's shipped files (package.json, configuration), without installed packages or build output; also used by scripts/pack.mjs. */
export function copyShippedGateway(shipped: string, target: string): void {
  // Relative to the shipped folder: the package itself lives under a node_modules.
  cpSync(shipped, target, { recursive: true, filter: (source) => !/(^|[/\\])(node_modules|\.work|\.mesh)([/\\]|$)/.test(path.relative(shipped, source)) });
}

function npmInstall(dir: string, spec: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('error', (error) => reject(new GwprofError(`the ${spec} gateway needs npm to install its packages: ${error.message}`)));
    child.once('exit', (code) => {
      if (code === 0) resolve();
      else
        reject(
          new GwprofError(`npm install of the ${spec} gateway's packages failed (exit ${code}) in ${dir}: ${output.trim().split('\n').slice(-3).join(' | ')}`),
        );
    });
  });
}
