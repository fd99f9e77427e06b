/**
 * How a Grafbase CLI's dev server takes its subgraphs and its address, read from the binary's own
 * `grafbase dev --help` (once per installed build, kept beside it), so that a version gwprof has
 * never seen starts too. The forms the CLI's releases of a year show:
 *   0.80–0.91: `-o/--graph-overrides <file>` holds the [subgraphs.*] tables, `-c/--gateway-config
 *     <file>` the gateway's settings (a table per subgraph, which 0.80.4 looks each subgraph up in),
 *     `-p/--port` only;
 *   0.92–0.102.4: `-c/--config <file>`, `-p/--port` only;
 *   0.102.5 on: `-c/--config <file>`, `--listen-address` too.
 * `-p` alone binds 127.0.0.1 (the CLI's changelog for 0.102.5), as gwprof's servers must.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { GwprofError } from '@gwprof/results';

export interface GrafbaseDevForm {
  /** The option naming the TOML file with the [subgraphs.*] tables. */
  subgraphsOption: '--config' | '--graph-overrides';
  /** Where the subgraphs are the graph overrides: the option naming the gateway's own settings. */
  gatewayConfigOption: '--gateway-config' | null;
  /** `--listen-address 127.0.0.1:PORT` where the CLI takes it, else `--port PORT`. */
  listen: 'listen-address' | 'port';
}

/** The long options a clap help text lists. */
function longOptions(help: string): Set<string> {
  return new Set([...help.matchAll(/(?:^|[\s,])--([a-z][a-z0-9-]*)/gm)].map((match) => match[1]!));
}

/** The form from `grafbase dev --help`; a help text with neither way to say where to listen is refused. */
export function grafbaseDevForm(help: string, binary = 'grafbase'): GrafbaseDevForm {
  const options = longOptions(help);
  const listen = options.has('listen-address') ? 'listen-address' : options.has('port') ? 'port' : null;
  // Before 0.92 `--gateway-config` took the gateway's settings and `--graph-overrides` the subgraphs.
  const subgraphsOption = options.has('graph-overrides') ? '--graph-overrides' : options.has('config') ? '--config' : null;
  if (!listen || !subgraphsOption)
    throw new GwprofError(
      `${binary} dev --help lists ${listen ? '' : 'neither --listen-address nor --port'}${!listen && !subgraphsOption ? ' and ' : ''}${subgraphsOption ? '' : 'neither --config nor --graph-overrides'}: gwprof cannot start this Grafbase CLI; pick another version`,
    );
  const gatewayConfigOption = subgraphsOption === '--graph-overrides' && options.has('gateway-config') ? '--gateway-config' : null;
  return { subgraphsOption, gatewayConfigOption, listen };
}

/** The dev server's arguments in that form: `files.gateway` holds the gateway's settings where a separate file takes them. */
export function grafbaseDevArgs(form: GrafbaseDevForm, files: { subgraphs: string; gateway: string }, port: number): string[] {
  const listen = form.listen === 'listen-address' ? ['--listen-address', `127.0.0.1:${port}`] : ['--port', String(port)];
  const gateway = form.gatewayConfigOption ? [form.gatewayConfigOption, files.gateway] : [];
  return ['dev', ...gateway, form.subgraphsOption, files.subgraphs, ...listen];
}

/** The gateway's settings for CLIs that take them apart from the subgraphs: a table per subgraph, nothing set. */
export function grafbaseGatewaySettings(subgraphs: readonly string[]): string {
  return subgraphs.map((name) => `[subgraphs.${name}]\n`).join('\n');
}

/** Kept beside the installed binary: asked once per build. */
export const DEV_HELP_FILE = 'gwprof-dev-help.txt';

/** The installed binary's `dev --help`, from the copy beside it or asked once and kept there. */
export function grafbaseDevHelp(binary: string): string {
  const kept = path.join(path.dirname(path.dirname(binary)), DEV_HELP_FILE);
  if (existsSync(kept)) return readFileSync(kept, 'utf8');
  let help: string;
  try {
    help = execFileSync(binary, ['dev', '--help'], { encoding: 'utf8', timeout: 30_000, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    throw new GwprofError(
      `${binary} dev --help failed (${(error as Error).message.split('\n')[0]}): reinstall it by removing ${path.dirname(path.dirname(binary))}`,
    );
  }
  writeFileSync(kept, help);
  return help;
}
