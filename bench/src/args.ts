/** The benchmarks' command lines: node's parseArgs, with --help and a one-line error that lists the flags. */
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

/** What a tool takes besides its flags: how the usage line names it, and how many it needs. */
export interface Positionals {
  usage: string;
  min: number;
}

/** Every flag with its default, as a usage line shows them, then the positional arguments. */
export function usageLine(tool: string, config: ParseArgsConfig, positionals?: Positionals): string {
  const flags = Object.entries(config.options ?? {}).map(([name, option]) => flagUsage(name, option));
  const rest = positionals ? [positionals.usage] : config.allowPositionals ? ['[ARG…]'] : [];
  return `usage: node bench/dist/${tool}.js ${[...flags, ...rest].join(' ')} (bench/README.md says what each does)`;
}

function flagUsage(name: string, option: Options[string]): string {
  if (option.type === 'boolean') return `[--${name}]`;
  const value = option.default === undefined || option.default === '' ? 'VALUE' : String(option.default);
  return `[--${name} ${value}]`;
}

/**
 * The tool's flags, parsed as parseArgs parses them. `--help` prints the usage line and exits 0;
 * a flag it does not know, one without its value, or fewer positional arguments than it needs
 * prints what was wrong and the usage, and exits 2.
 */
export function benchArgs<T extends ParseArgsConfig>(config: T, positionals?: Positionals): ReturnType<typeof parseArgs<T>> {
  const tool = path.basename(process.argv[1] ?? 'bench', '.js');
  const args = config.args ?? process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${usageLine(tool, config, positionals)}\n`);
    process.exit(0);
  }
  const fail = (reason: string): never => {
    process.stderr.write(`${tool}: ${reason}\n${usageLine(tool, config, positionals)}\n`);
    process.exit(2);
  };
  let parsed: ReturnType<typeof parseArgs<T>>;
  try {
    parsed = parseArgs(config);
  } catch (error) {
    return fail((error as Error).message.split('. ')[0]!);
  }
  if (positionals && (parsed.positionals?.length ?? 0) < positionals.min) fail(`needs ${positionals.usage}`);
  return parsed;
}
