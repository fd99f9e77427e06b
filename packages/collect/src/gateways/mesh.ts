/**
 * Legacy GraphQL Mesh (@graphql-mesh/cli) with the four subgraphs as GraphQL sources and
 * the stitching merger (which detects federation from @key). `mesh build` introspects the
 * running subgraphs into JavaScript artifacts (no TS loader at run time), then `mesh start`
 * serves them in one process (serve.fork: false in .meshrc.yaml).
 *
 * A build is kept in gateways/mesh/.work/build-<key>/ (inside the gateway's folder so the artifacts
 * resolve its node_modules), keyed by what it reads (mesh-build-cache.ts): launches with the same
 * config, packages and subgraph schemas start from one build.
 */
import { readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { gatewayDir } from '../paths.js';
import { introspectSubgraphs, keepMeshBuild, meshBuildKey, reuseMeshBuild } from './mesh-build-cache.js';
import { resolvePackageFile, resolveVersions } from './package-versions.js';
import { runToCompletion } from './run-to-completion.js';
import { TRACE_CONTEXT_ENV, type GatewayAdapter, type GatewayContext, type GatewayLaunch } from './types.js';

const meshDir = gatewayDir('mesh');
const workRoot = path.join(meshDir, '.work');
/** Work folders older than this are from runs that died without cleaning up, or builds no run used since. */
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

/** Builds under way in this process, by key: both sides of a comparison prepare at once and share one. */
const building = new Map<string, Promise<string>>();

export function meshGateway(): GatewayAdapter {
  const bin = (): string => resolvePackageFile(meshDir, '@graphql-mesh/cli', 'cjs/bin.js');
  const packageVersions = () =>
    resolveVersions(meshDir, ['@graphql-mesh/cli', '@graphql-mesh/graphql', '@graphql-mesh/runtime', '@graphql-tools/delegate', 'graphql']);
  let artifacts: string | null = null;

  async function build(key: string, config: string, context: GatewayContext): Promise<string> {
    const scratch = path.join(workRoot, `${process.pid}-${++launches}`);
    return keepMeshBuild(workRoot, key, scratch, config, (dir) =>
      runToCompletion('mesh build', process.execPath, [bin(), 'build', '--fileType', 'js', '--dir', dir], {
        cwd: dir,
        env: { ...process.env, ...context.env },
        logger: context.logger,
        timeoutMs: 120_000,
      }),
    );
  }

  return {
    spec: 'mesh',
    description: 'legacy GraphQL Mesh (@graphql-mesh/cli, stitching merger over federation subgraphs)',
    startTimeoutMs: 60_000,
    packageVersions,
    async prepare(context: GatewayContext): Promise<void> {
      const config = meshConfig(readFileSync(path.join(meshDir, '.meshrc.yaml'), 'utf8'), context.env[TRACE_CONTEXT_ENV] === '1');
      const key = meshBuildKey(config, packageVersions(), await introspectSubgraphs(context.subgraphUrls));
      removeStaleWork();
      artifacts = reuseMeshBuild(workRoot, key);
      if (artifacts !== null) {
        context.logger.info(
          { step: 'mesh build', artifacts },
          'mesh build: the artifacts built before for this config, these packages and these subgraph schemas',
        );
        return;
      }
      if (!building.has(key))
        building.set(
          key,
          build(key, config, context).finally(() => building.delete(key)),
        );
      artifacts = await building.get(key)!;
    },
    launch(context: GatewayContext): GatewayLaunch {
      if (artifacts === null) throw new Error('mesh launched before it was prepared');
      return { command: context.node, args: [bin(), 'start', '--dir', artifacts], cwd: artifacts, isNodeScript: true };
    },
  };
}
