/**
 * Legacy GraphQL Mesh (@graphql-mesh/cli) with the four subgraphs as GraphQL sources and
 * the stitching merger (which detects federation from @key). `mesh build` introspects the
 * running subgraphs into JavaScript artifacts (no TS loader at run time), then `mesh start`
 * serves them in one process (serve.fork: false in .meshrc.yaml).
 *
 * Each launch builds in a folder of its own, gateways/mesh/.work/<pid>-<n>/ (inside the gateway's
 * folder so the artifacts still resolve its node_modules), so two runs never share a `.mesh/`.
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gatewayDir } from '../paths.js';
import { resolvePackageFile, resolveVersions } from './package-versions.js';
import { runToCompletion } from './run-to-completion.js';
import { TRACE_CONTEXT_ENV, type GatewayAdapter, type GatewayContext, type GatewayLaunch } from './types.js';

const meshDir = gatewayDir('mesh');
const workRoot = path.join(meshDir, '.work');
/** Work folders older than this are from runs that died without cleaning up. */
const STALE_MS = 24 * 3600_000;
let launches = 0;

/**
 * The config as shipped; with gwprof --trace, each source's handler also sends the incoming
 * request's traceparent with its calls (the handler's operationHeaders, interpolated from the request).
 */
export function meshConfig(shipped: string, traceContext: boolean): string {
  if (!traceContext) return shipped;
  return shipped.replace(
    /^( +)endpoint: (.*)$/gm,
    (line, indent: string) => `${line}\n${indent}operationHeaders:\n${indent}  traceparent: "{context.headers['traceparent']}"`,
  );
}

function removeStaleWork(): void {
  let entries: string[];
  try {
    entries = readdirSync(workRoot);
  } catch {
    return;
  }
  for (const entry of entries) {
    const dir = path.join(workRoot, entry);
    try {
      if (Date.now() - statSync(dir).mtimeMs > STALE_MS) rmSync(dir, { recursive: true, force: true });
    } catch {
      // another run removed it
    }
  }
}

export function meshGateway(): GatewayAdapter {
  const bin = (): string => resolvePackageFile(meshDir, '@graphql-mesh/cli', 'cjs/bin.js');
  const workDir = path.join(workRoot, `${process.pid}-${++launches}`);
  // The artifacts depend only on the subgraphs' URLs: a restart against the same ones reuses them.
  let builtFor: string | null = null;
  return {
    spec: 'mesh',
    description: 'legacy GraphQL Mesh (@graphql-mesh/cli, stitching merger over federation subgraphs)',
    startTimeoutMs: 60_000,
    packageVersions: () =>
      resolveVersions(meshDir, ['@graphql-mesh/cli', '@graphql-mesh/graphql', '@graphql-mesh/runtime', '@graphql-tools/delegate', 'graphql']),
    async prepare(context: GatewayContext): Promise<void> {
      const traceContext = context.env[TRACE_CONTEXT_ENV] === '1';
      const key = JSON.stringify([context.subgraphUrls, traceContext]);
      if (builtFor === key) return;
      removeStaleWork();
      mkdirSync(workDir, { recursive: true });
      writeFileSync(path.join(workDir, '.meshrc.yaml'), meshConfig(readFileSync(path.join(meshDir, '.meshrc.yaml'), 'utf8'), traceContext));
      await runToCompletion('mesh build', process.execPath, [bin(), 'build', '--fileType', 'js', '--dir', workDir], {
        cwd: workDir,
        env: { ...process.env, ...context.env },
        logger: context.logger,
        timeoutMs: 120_000,
      });
      builtFor = key;
    },
    launch(context: GatewayContext): GatewayLaunch {
      return { command: context.node, args: [bin(), 'start', '--dir', workDir], cwd: workDir, isNodeScript: true };
    },
    dispose(): void {
      builtFor = null;
      rmSync(workDir, { recursive: true, force: true });
    },
  };
}
