/**
 * `gwprof compose`: the demo's four subgraphs (started here on ports the kernel chose) composed into
 * a supergraph a router of one's own can serve, routed where they answer or at another side's ports;
 * a subgraph that does not answer is one line and exit 2.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli, tempDir } from './e2e/cli.js';
import { freePort } from '../packages/collect/src/processes/ports.js';

const NAMES = ['accounts', 'reviews', 'products', 'inventory'];

async function answering(port: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"query":"{__typename}"}',
    })
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`subgraph on ${port} did not answer`);
}

/** The supergraph's routing: subgraph name → URL. */
function routing(file: string): Record<string, string> {
  const text = readFileSync(file, 'utf8');
  return Object.fromEntries([...text.matchAll(/@join__graph\(name: "(\w+)", url: "([^"]+)"\)/g)].map((m) => [m[1]!, m[2]!]));
}

describe('gwprof compose', () => {
  const children: ChildProcess[] = [];
  const ports: number[] = [];
  let dir: string;

  beforeAll(async () => {
    for (const name of NAMES) {
      const port = await freePort();
      ports.push(port);
      children.push(
        spawn(process.execPath, [path.join(repoRoot, 'subgraphs', name, 'dist/main.js')], { env: { ...process.env, PORT: String(port) }, stdio: 'ignore' }),
      );
    }
    await Promise.all(ports.map(answering));
    dir = tempDir('compose');
  });

  afterAll(() => {
    for (const child of children) child.kill();
  });

  it('composes the running subgraphs, routed where they answer', async () => {
    const file = path.join(dir, 'supergraph.graphql');
    const result = await runCli(['compose', file, '--subgraph-ports', ports.join(',')]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe(`supergraph of accounts, reviews, products, inventory written to ${file}`);
    expect(routing(file)).toEqual(Object.fromEntries(NAMES.map((name, i) => [name, `http://127.0.0.1:${ports[i]}/fed2/graphql`])));
    expect(readFileSync(file, 'utf8')).toMatch(/type Query[\s\S]*topProducts/);
  });

  it("routes them at another side's ports, and from SUBGRAPH_<NAME>_URL as a cmd: gateway gets them", async () => {
    const file = path.join(dir, 'candidate.graphql');
    const result = await runCli(['compose', file, '--subgraph-ports', ports.join(','), '--routing-ports', '5011,5012,5013,5014']);
    expect(result.code, result.stderr).toBe(0);
    expect(routing(file)).toEqual({
      accounts: 'http://127.0.0.1:5011/fed2/graphql',
      reviews: 'http://127.0.0.1:5012/fed2/graphql',
      products: 'http://127.0.0.1:5013/fed2/graphql',
      inventory: 'http://127.0.0.1:5014/fed2/graphql',
    });
    const env = Object.fromEntries(NAMES.map((name, i) => [`SUBGRAPH_${name.toUpperCase()}_URL`, `http://127.0.0.1:${ports[i]}/fed2/graphql`]));
    const fromEnv = await runCli(['compose', path.join(dir, 'env.graphql')], env);
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    expect(routing(path.join(dir, 'env.graphql'))).toEqual(routing(path.join(dir, 'supergraph.graphql')));
  });

  it('names a subgraph that does not answer, in one line', async () => {
    const silent = await freePort();
    const result = await runCli(['compose', path.join(dir, 'none.graphql'), '--subgraph-ports', [silent, ...ports.slice(1)].join(',')]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toMatch(
      new RegExp(
        `^gwprof: composing the supergraph failed: subgraph accounts at http://127.0.0.1:${silent}/fed2/graphql did not answer \\(ECONNREFUSED\\): start the subgraphs first \\(gwprof up\\)$`,
      ),
    );
  });
});
