import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { introspectSubgraphs, keepMeshBuild, meshBuildFolder, meshBuildKey, reuseMeshBuild } from './mesh-build-cache.js';

const versions = { '@graphql-mesh/cli': '0.103.2', graphql: '16.11.0' };
const schemas = { accounts: '{"data":{"__schema":1}}', reviews: '{"data":{"__schema":2}}' };

/** A stand-in for `mesh build`: writes the artifact a reuse looks for, and counts its calls. */
function fakeBuild(calls: string[]) {
  return async (dir: string) => {
    calls.push(dir);
    mkdirSync(path.join(dir, '.mesh'));
    writeFileSync(path.join(dir, '.mesh', 'index.mjs'), `built in ${path.basename(dir)}`);
  };
}

describe("mesh build's key", () => {
  it('is the same for the same config, packages and schemas, in any order', () => {
    const key = meshBuildKey('config', versions, schemas);
    expect(meshBuildKey('config', { graphql: '16.11.0', '@graphql-mesh/cli': '0.103.2' }, { reviews: schemas.reviews, accounts: schemas.accounts })).toBe(key);
  });

  it("changes with the config, a package's version or one subgraph's schema", () => {
    const key = meshBuildKey('config', versions, schemas);
    expect(meshBuildKey('config with trace headers', versions, schemas)).not.toBe(key);
    expect(meshBuildKey('config', { ...versions, graphql: '16.12.0' }, schemas)).not.toBe(key);
    expect(meshBuildKey('config', versions, { ...schemas, reviews: '{"data":{"__schema":3}}' })).not.toBe(key);
  });
});

describe("mesh build's artifacts kept by key", () => {
  it('builds a key once, with the config beside it, and reuses that build after', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'mesh-cache-'));
    const calls: string[] = [];
    expect(reuseMeshBuild(root, 'k')).toBeNull();
    const folder = await keepMeshBuild(root, 'k', path.join(root, 'scratch-1'), 'the config', fakeBuild(calls));
    expect(folder).toBe(meshBuildFolder(root, 'k'));
    expect(readFileSync(path.join(folder, '.meshrc.yaml'), 'utf8')).toBe('the config');
    expect(reuseMeshBuild(root, 'k')).toBe(folder);
    expect(calls).toHaveLength(1);
    expect(readdirSync(root)).toEqual([path.basename(folder)]);
  });

  it('keeps the first of two builds of one key that ran at once, and removes the other', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'mesh-cache-'));
    const calls: string[] = [];
    const folders = await Promise.all([1, 2].map((n) => keepMeshBuild(root, 'k', path.join(root, `scratch-${n}`), 'config', fakeBuild(calls))));
    expect(calls).toHaveLength(2);
    expect(folders[0]).toBe(folders[1]);
    expect(readdirSync(root)).toEqual([path.basename(folders[0]!)]);
    expect(readFileSync(path.join(folders[0]!, '.mesh', 'index.mjs'), 'utf8')).toMatch(/^built in scratch-/);
  });

  it('throws what a failed build threw, keeps nothing and leaves no scratch folder', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'mesh-cache-'));
    const failing = async () => {
      throw new Error('mesh build failed (exit 1)');
    };
    await expect(keepMeshBuild(root, 'k', path.join(root, 'scratch'), 'config', failing)).rejects.toThrow('mesh build failed (exit 1)');
    expect(readdirSync(root)).toEqual([]);
    expect(existsSync(meshBuildFolder(root, 'k'))).toBe(false);
  });
});

describe("the subgraphs' schemas for the key", () => {
  it("are each subgraph's answer to the introspection query, by name", async () => {
    const server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        const { query } = JSON.parse(body) as { query: string };
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ data: { path: request.url, introspection: query.includes('__schema') } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const answers = await introspectSubgraphs({ accounts: `http://127.0.0.1:${port}/a`, reviews: `http://127.0.0.1:${port}/r` });
      expect(answers).toEqual({ accounts: '{"data":{"path":"/a","introspection":true}}', reviews: '{"data":{"path":"/r","introspection":true}}' });
    } finally {
      server.close();
    }
  });
});
