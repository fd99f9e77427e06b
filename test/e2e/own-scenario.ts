/** What the tests of fixtures/own-scenario share: its ports, a short compare, copies to edit, a port check. */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { repoRoot, tempDir } from './cli.js';

export const GATEWAY_PORT = ['--gateway-port', '4780'];
/** Short epochs of one window a side, and a ±50% threshold: the stand-ins do the same work on both sides. */
export const FAST_COMPARE = [
  '--window',
  '2',
  '--lead-in',
  '1',
  '-w',
  '1',
  '--windows-per-side',
  '1',
  '--min-epochs',
  '3',
  '--budget',
  '3',
  '--threshold',
  '50',
];
export const COMPARE_PORTS = ['--candidate-port', '4782', '--subgraph-ports', '4783,4784,4785,4786', '--candidate-subgraph-ports', '4793,4794,4795,4796'];

export function copyScenario(): string {
  const dir = tempDir('own-scenario');
  cpSync(path.join(repoRoot, 'fixtures/own-scenario'), dir, { recursive: true });
  return path.join(dir, 'scenario.yaml');
}

/** Does anything accept connections on 127.0.0.1:port? */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The fixture with its subgraph behind gwprof's counting proxy. */
export function proxiedCopy(): string {
  const scenario = copyScenario();
  writeFileSync(scenario, readFileSync(scenario, 'utf8').replace('command: node catalog-subgraph.mjs', 'command: node catalog-subgraph.mjs\n    proxy: true'));
  return scenario;
}
