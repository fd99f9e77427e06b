/** Starts fixtures/stub-gateway.mjs (a gateway with a known service time) for tests; stop() kills it. */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fixturesDir } from '../paths.js';
import { waitForPort } from '../processes/ports.js';
import { loadScenario, type Scenario } from '../scenario/fixtures.js';

export interface StubGateway {
  url: string;
  pid: number;
  stop(): void;
}

export async function startStubGateway(port: number, env: Record<string, string | number>): Promise<StubGateway> {
  const child = spawn(process.execPath, [path.join(fixturesDir, 'stub-gateway.mjs')], {
    env: { ...process.env, PORT: String(port), ...Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v)])) },
    stdio: 'ignore',
  });
  await waitForPort(port, 10_000, () => child.exitCode === null);
  return { url: `http://127.0.0.1:${port}/graphql`, pid: child.pid!, stop: () => child.kill('SIGKILL') };
}

export function stubScenario(): Scenario {
  return loadScenario({ query: path.join(fixturesDir, 'stub.graphql'), expect: path.join(fixturesDir, 'stub.expected.json') });
}
