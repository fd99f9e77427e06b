/**
 * `gwprof compose`: the Federation 2 supergraph of running subgraphs, written to a file, with the
 * composition the built-in routers are given (gateways/supergraph/compose.mjs). Its packages come
 * from gwprof's own install (the cache, as for the routers), never from the user's folder.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { GwprofError } from '@gwprof/results';
import { gatewayDir } from '../paths.js';
import { installSupergraphHelper } from './install.js';
import { SUPERGRAPH_HELPER } from './native-routers.js';

/**
 * Composes the subgraphs asked at `urls` (name → GraphQL URL) into `outFile`, each routed at
 * `routing[name]` when given (a comparison's candidate reaches them on ports of its own); resolves
 * with the helper's line.
 */
export async function composeSupergraph(
  outFile: string,
  urls: Record<string, string>,
  routing: Record<string, string>,
  onProgress: (line: string, final: boolean) => void,
): Promise<string> {
  await installSupergraphHelper(onProgress);
  const helper = gatewayDir(SUPERGRAPH_HELPER);
  const variables = (suffix: string, of: Record<string, string>) => Object.entries(of).map(([name, url]) => [`SUBGRAPH_${name.toUpperCase()}_${suffix}`, url]);
  const env = { ...withoutSubgraphUrls(process.env), ...Object.fromEntries([...variables('URL', urls), ...variables('ROUTING_URL', routing)]) };
  const { code, output } = await run(process.execPath, [path.join(helper, 'compose.mjs'), path.resolve(outFile)], helper, env);
  const lines = output.trim().split('\n');
  if (code !== 0) {
    // compose.mjs ends on its reason, one line.
    throw new GwprofError(`composing the supergraph failed: ${lines.at(-1) || `exit ${code}`}`);
  }
  return lines.at(-1) ?? '';
}

/** Only the subgraphs given are composed, whatever the caller's environment holds. */
function withoutSubgraphUrls(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([key]) => !/^SUBGRAPH_[A-Z0-9_]+_(ROUTING_)?URL$/.test(key)));
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}
