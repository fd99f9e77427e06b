/** The benchmarks' command lines: node's parseArgs, with --help and a one-line error that lists the flags. */
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Every flag with its default, as a usage line shows them. */
export function usageLine(tool: string, config: ParseArgsConfig): string {
  const flags = Object.entries(config.options ?? {}).map(([name, option]) => flagUsage(name, option));
  return `usage: node bench/dist/${tool}.js ${[...flags, ...(config.allowPositionals ? ['[ARG…]'] : [])].join(' ')} (bench/README.md says what each does)`;
}

function flagUsage(name: string, option: Options[string]): string {
  if (option.type === 'boolean') return `[--${name}]`;
  const value = option.default === undefined || option.default === '' ? 'VALUE' : String(option.default);
  return `[--${name} ${value}]`;
}

/**
 * The tool's flags, parsed as parseArgs parses them. `--help` prints the usage line and exits 0;
 * a flag it does not know, or one without its value, prints what was wrong and the usage, and exits 2.
 */
export function benchArgs<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  const tool = path.basename(process.argv[1] ?? 'bench', '.js');
  const args = config.args ?? process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${usageLine(tool, config)}\n`);
    process.exit(0);
  }
  try {
    return parseArgs(config);
  } catch (error) {
    const reason = (error as Error).message.split('. ')[0];
    process.stderr.write(`${tool}: ${reason}\n${usageLine(tool, config)}\n`);
    process.exit(2);
  }
}
