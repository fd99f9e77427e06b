/**
 * `gwprof compose`: the supergraph a router of your own serves, composed from running subgraphs with
 * the composition gwprof gives its built-in routers; from the installed package, with its own packages.
 */
import { Command } from 'commander';
import { DEFAULTS, FED2_PATH, SUBGRAPH_NAMES, composeSupergraph } from '@gwprof/collect';
import { GwprofError } from '@gwprof/results';
import { parsePortList } from './options.js';
import { ProgressLine } from './progress.js';
import { assertFileWritable } from './preflight.js';

interface ComposeFlags {
  subgraphPorts?: number[];
  routingPorts?: number[];
}

export function composeCommand(): Command {
  return new Command('compose')
    .description(
      "compose a Federation 2 supergraph from running subgraphs (the composition gwprof's built-in routers are given) and write it to <file>: the subgraphs named by SUBGRAPH_<NAME>_URL in the environment (what gwprof gives each side's cmd: gateway), else the demo's at --subgraph-ports",
    )
    .argument('<file>', 'where to write the supergraph (e.g. supergraph.graphql)')
    .option(
      '--subgraph-ports <list>',
      `the demo subgraphs' ports, accounts,reviews,products,inventory, as gwprof up or a run serves them (default ${Object.values(DEFAULTS.subgraphPorts).join(',')}; not with SUBGRAPH_<NAME>_URL)`,
      parsePortList('--subgraph-ports'),
    )
    .option(
      '--routing-ports <list>',
      "the demo subgraphs' ports written into the supergraph, when the router is to reach them elsewhere than where they answer now: a comparison's candidate reaches them at compare's --candidate-subgraph-ports (default: --subgraph-ports + 10)",
      parsePortList('--routing-ports'),
    )
    .action(async (file: string, flags: ComposeFlags) => {
      assertFileWritable(file, 'compose');
      const urls = subgraphUrls(flags);
      const progress = new ProgressLine();
      const line = await composeSupergraph(file, urls, routingUrls(flags), (text, final) => progress.update(text, final));
      process.stdout.write(`${line}\n`);
    });
}

/** SUBGRAPH_<NAME>_URL from the environment, else the demo's subgraphs in their Federation 2 form. */
function subgraphUrls(flags: ComposeFlags): Record<string, string> {
  const fromEnv = Object.fromEntries(
    Object.entries(process.env)
      .filter(([key, value]) => /^SUBGRAPH_[A-Z0-9_]+_URL$/.test(key) && !key.endsWith('_ROUTING_URL') && value)
      .map(([key, value]) => [key.slice('SUBGRAPH_'.length, -'_URL'.length).toLowerCase(), value!]),
  );
  if (Object.keys(fromEnv).length > 0) {
    if (flags.subgraphPorts) throw new GwprofError('give --subgraph-ports or SUBGRAPH_<NAME>_URL in the environment, not both');
    return fromEnv;
  }
  return demoUrls(flags.subgraphPorts ?? Object.values(DEFAULTS.subgraphPorts), '--subgraph-ports');
}

function routingUrls(flags: ComposeFlags): Record<string, string> {
  if (!flags.routingPorts) return {};
  if (flags.subgraphPorts === undefined && Object.keys(process.env).some((key) => /^SUBGRAPH_[A-Z0-9_]+_URL$/.test(key)))
    throw new GwprofError('--routing-ports moves the demo subgraphs: with SUBGRAPH_<NAME>_URL, compose the subgraphs at the URLs the router is to use');
  return demoUrls(flags.routingPorts, '--routing-ports');
}

/** The demo's subgraphs at `ports`, in their Federation 2 form (as the built-in routers reach them). */
function demoUrls(ports: number[], flag: string): Record<string, string> {
  if (ports.length !== SUBGRAPH_NAMES.length) throw new GwprofError(`${flag} needs ${SUBGRAPH_NAMES.length} ports (${SUBGRAPH_NAMES.join(',')})`);
  return Object.fromEntries(SUBGRAPH_NAMES.map((name, i) => [name, `http://127.0.0.1:${ports[i]}${FED2_PATH}`]));
}
