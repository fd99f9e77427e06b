/**
 * `gwprof compare`: both builds on the same cores, subgraphs and request stream. Each epoch
 * restarts both (one pair of processes), warms each up, and measures a block at every level still
 * open: short windows of each side in random order. After every epoch, analysis's test on epoch
 * means says whether the verdict is in. compare.json is rewritten after every window.
 */
import path from 'node:path';
import { mulberry32 } from '@gwprof/analysis';
import { GwprofError, compareLoadAt, sideBuildKey, type CompareResult } from '@gwprof/results';
import { candidateRequests } from '../run/scenario-source.js';
import { gatewayFromSpec } from '../gateways/index.js';
import { resolveNode } from '../processes/node-binaries.js';
import type { CompareOptions, ComparisonContext } from '../epochs/context.js';
import { epochsUntilDecided, type EpochMeasure } from '../epochs/epoch-loop.js';
import { GatewayPair, SIDES } from '../epochs/gateway-pair.js';
import { ensureValgrind } from '../instructions/callgrind.js';
import { countedEpochs } from '../instructions/counted-epochs.js';
import { openRun } from '../run/run-opening.js';
import { timedEpochs } from './timed-epochs.js';
import { newCompareRecord } from './compare-record.js';

export type { CompareOptions } from '../epochs/context.js';

/** A comparison as measured; `failure` is what stopped it early, as for a sweep (`SweepOutcome`). */
export interface ComparisonOutcome {
  compare: CompareResult;
  runDir: string;
  failure: Error | null;
}

export async function runComparison(options: CompareOptions): Promise<ComparisonOutcome> {
  checkOptions(options);
  const counting = options.design.measure === 'instructions';
  const candidateGoldens = options.candidateGoldens ? path.resolve(options.candidateGoldens) : null;
  const opened = await openRun({
    options,
    scenario: options.scenario,
    specs: [options.baseline, options.candidate],
    check: ({ scenario }) => {
      const candidate = candidateRequests(options.scenario, scenario, candidateGoldens);
      if (counting) ensureValgrind(options.onProgress);
      return { candidate, nodes: { baseline: resolveNode(options.baselineNode), candidate: resolveNode(options.candidateNode) } };
    },
    install: [...new Set([options.baseline, options.candidate])],
    adapters: () => SIDES.map((side) => gatewayFromSpec(options[side])),
    session: (adapters) => ({
      label: 'compare',
      maxConcurrency: counting ? 1 : options.load.kind === 'open' ? options.load.maxInFlight : Math.max(...options.levels),
      gatewayPackages: Object.fromEntries(
        SIDES.flatMap((side, index) => Object.entries(adapters[index]!.packageVersions()).map(([name, version]) => [`${side}:${name}`, version])),
      ),
      // Counting needs the preload too: it forces the full GC before each batch.
      profiler: options.profile || counting ? 'inspector' : 'none',
    }),
    newRecord: ({ checked: { nodes }, session, recorded, nativeSubgraphs }) =>
      newCompareRecord(
        options,
        session,
        { ...recorded, candidateExpect: candidateGoldens, subgraphs: nativeSubgraphs ? 'native' : 'node' },
        { baseline: nodes.baseline.version, candidate: nodes.candidate.version },
      ),
  });
  const { session, journal, scenario, checked } = opened;
  const { nodes } = checked;
  const compare = journal.record;
  const scenarios = { baseline: scenario, candidate: checked.candidate };
  const adapters = { baseline: opened.adapters[0]!, candidate: opened.adapters[1]! };
  let pair: GatewayPair | null = null;
  const failure = await opened.live(
    {
      label: 'compare',
      onStopped: () => {
        compare.stopReason = compare.error ?? 'interrupted';
      },
      release: async () => {
        await pair?.stop();
        pair?.release();
      },
    },
    async () => {
      const bed = await session.startBed();
      pair = new GatewayPair(
        bed,
        {
          baseline: { adapter: adapters.baseline, env: options.baselineEnv, port: options.gatewayPort, node: nodes.baseline },
          candidate: { adapter: adapters.candidate, env: options.candidateEnv, port: options.candidatePort, node: nodes.candidate },
        },
        { memoryLimitMB: session.resources.memoryLimitMB, cpuQuotaCores: session.resources.cpuQuota?.cores ?? null },
        (side, build) => {
          compare.environment!.gatewayBuilds = { ...compare.environment!.gatewayBuilds, [sideBuildKey(side, options[side])]: build };
        },
      );
      const ctx: ComparisonContext = {
        options,
        scenarios,
        session,
        pair,
        compare,
        journal,
        random: mulberry32(seedOf(session.runId)),
        started: performance.now(),
        loadAt: (level) => compareLoadAt(options.load, level),
      };
      compare.stopReason = await epochsUntilDecided(ctx, measureOf(ctx));
    },
  );
  return { compare, runDir: session.runDir, failure };
}

/** What the design measures, as the loop's epochs. */
function measureOf(ctx: ComparisonContext): EpochMeasure {
  const { measure, instructions } = ctx.options.design;
  return measure === 'instructions' && instructions ? countedEpochs(ctx, instructions) : timedEpochs(ctx);
}

function checkOptions(options: CompareOptions): void {
  const ports = [options.gatewayPort, options.candidatePort, ...Object.values(options.subgraphPorts), ...Object.values(options.candidateSubgraphPorts ?? {})];
  if (new Set(ports).size !== ports.length)
    throw new GwprofError(`the two gateway ports and both sides' subgraph ports must all differ (got ${ports.join(', ')})`);
  if (options.design.measure === 'instructions') {
    if (!options.design.instructions) throw new Error('a comparison by instructions needs design.instructions');
    if (options.load.kind !== 'closed' || options.levels.length !== 1 || options.levels[0] !== 1) {
      throw new GwprofError('--measure instructions sends requests one at a time: leave out --concurrency and --rate');
    }
  }
  if (options.design.minEpochs < 3) throw new GwprofError('--min-epochs must be at least 3: the test needs a variance with degrees of freedom');
}

/** A 32-bit seed from the run id: the draws of a run are reproducible from its name. */
function seedOf(runId: string): number {
  let hash = 2166136261;
  for (const char of runId) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  return hash >>> 0;
}
