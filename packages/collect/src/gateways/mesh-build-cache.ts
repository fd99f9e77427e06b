/**
 * `mesh build`'s artifacts, built once for each set of inputs and shared by every launch on this
 * machine: both sides of a comparison, every epoch, every run after it. The artifacts hold no
 * subgraph URL (the config reads them from the environment when Mesh starts) and no absolute path
 * (they resolve from their own folder), so what they depend on is Mesh's config, its packages'
 * versions and the schemas the subgraphs answer introspection with: the key is a hash of those.
 *
 * A build goes to a folder of its own and is then renamed to its key's folder, so a reader never
 * sees half a build and two runs building the same key keep the first that finished.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { getIntrospectionQuery } from 'graphql';

/** The folder a key's artifacts are kept in (under the gateway's folder, so they resolve its node_modules). */
export function meshBuildFolder(workRoot: string, key: string): string {
  return path.join(workRoot, `build-${key}`);
}

/** What `mesh build` reads, hashed: the config as written, the packages' versions, each subgraph's introspected schema. */
export function meshBuildKey(config: string, versions: Record<string, string>, schemas: Record<string, string>): string {
  const sorted = (record: Record<string, string>) => Object.entries(record).sort(([a], [b]) => a.localeCompare(b));
  return createHash('sha256')
    .update(JSON.stringify([config, sorted(versions), sorted(schemas)]))
    .digest('hex')
    .slice(0, 24);
}

/** Each subgraph's answer to the standard introspection query (the schema `mesh build` would read), by name. */
export async function introspectSubgraphs(subgraphUrls: Record<string, string>): Promise<Record<string, string>> {
  const body = JSON.stringify({ query: getIntrospectionQuery() });
  const schemas: Record<string, string> = {};
  for (const [name, url] of Object.entries(subgraphUrls)) {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(10_000) });
    if (!response.ok) throw new Error(`subgraph ${name} at ${url} answered introspection with HTTP ${response.status}`);
    schemas[name] = await response.text();
  }
  return schemas;
}

/** The key's folder when a build of it is there (marked as used now, so stale-folder removal spares it); null otherwise. */
export function reuseMeshBuild(workRoot: string, key: string): string | null {
  const folder = meshBuildFolder(workRoot, key);
  if (!existsSync(path.join(folder, '.mesh', 'index.mjs'))) return null;
  const now = new Date();
  utimesSync(folder, now, now);
  return folder;
}

/**
 * Runs `build(folder)` in `scratch` (with the config written there) and keeps its artifacts as the
 * key's; when another run kept the same key first, its folder is used and this one removed.
 */
export async function keepMeshBuild(workRoot: string, key: string, scratch: string, config: string, build: (folder: string) => Promise<void>): Promise<string> {
  const folder = meshBuildFolder(workRoot, key);
  mkdirSync(scratch, { recursive: true });
  try {
    writeFileSync(path.join(scratch, '.meshrc.yaml'), config);
    await build(scratch);
    renameSync(scratch, folder);
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    if (reuseMeshBuild(workRoot, key) === null) throw error;
  }
  return folder;
}
