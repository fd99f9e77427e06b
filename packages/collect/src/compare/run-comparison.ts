/**
 * `gwprof compare`: both builds on the same cores, subgraphs and request stream. Each epoch
 * restarts both (one pair of processes), warms each up, and measures a block at every level still
 * open: short windows of each side in random order. After every epoch, analysis's test on epoch
 * means says whether the verdict is in. compare.json is rewritten after every window.
 */
import { judgeComparison, mulberry32, type ComparisonVerdict } from '@gwprof/analysis';
import { GwprofError, compareLoadAt, loadLabel, writeCompareResult, type CompareConfig, type CompareResult } from '@gwprof/results';
import { checkGatewayForScenario, loadRequests, ownSubgraphsOf, recordedSource } from '../scenario-source.js';
import { gatewayFromSpec, installGateway } from '../gateways/index.js';
import { resolveNode } from '../node-binaries.js';
import { openSession, type Session } from '../session.js';
import { recordHeader } from '../record-header.js';
import { measureBlock, openLevels } from './blocks.js';
import type { CompareOptions, ComparisonContext } from './context.js';
import { budgetExceeded, finishEpoch, startEpoch } from './epochs.js';
import { GatewayPair, SIDES } from './gateway-pair.js';
import { ensureValgrind } from '../instructions/callgrind.js';
import { countUntilDecided } from '../instructions/count-epochs.js';
import { runLifecycle } from '../run-lifecycle.js';

export type { CompareOptions } from './context.js';

/** A comparison as measured; `failure` is what stopped it early, as for a sweep (`SweepOutcome`). */
export interface ComparisonOutcome {
  compare: CompareResult;
  runDir: string;
  failure: Error | null;
}

export async function runComparison(options: CompareOptions): Promise<ComparisonOutcome> {
  checkOptions(options);
  checkGatewayForScenario([options.baseline, options.candidate], options.scenario);
  const counting = options.design.measure === 'instructions';
  if (counting) ensureValgrind(options.onProgress);
  for (const spec of new Set([options.baseline, options.candidate])) await installGateway(spec, options.onProgress);
  const adapters = { baseline: gatewayFromSpec(options.baseline), candidate: gatewayFromSpec(options.candidate) };
  const nodes = { baseline: resolveNode(options.baselineNode), candidate: resolveNode(options.candidateNode) };
  const scenario = loadRequests(options.scenario);
  const session = openSession({
    ...options,
    label: 'compare',
    maxConcurrency: counting ? 1 : options.load.kind === 'open' ? options.load.maxInFlight : Math.max(...options.levels),
    gatewayPackages: Object.fromEntries(
      SIDES.flatMap((side) => Object.entries(adapters[side].packageVersions()).map(([name, version]) => [`${side}:${name}`, version])),
    ),
    // Counting needs the preload too: it forces the full GC before each batch.
    profiler: options.profile || counting ? 'inspector' : 'none',
    ownSubgraphs: ownSubgraphsOf(options.scenario),
  });
  const compare = newCompare(options, session, { baseline: nodes.baseline.version, candidate: nodes.candidate.version });
  writeCompareResult(session.runDir, compare);
  let pair: GatewayPair | null = null;
  const failure = await runLifecycle(
    {
      record: compare,
      session,
      signal: options.signal,
      write: () => writeCompareResult(session.runDir, compare),
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
        session.resources.memoryLimitMB,
      );
      const ctx: ComparisonContext = {
        options,
        scenario,
        session,
        pair,
        compare,
        random: mulberry32(seedOf(session.runId)),
        started: performance.now(),
        loadAt: (level) => compareLoadAt(options.load, level),
      };
      compare.stopReason = counting ? await countUntilDecided(ctx) : await measureUntilDecided(ctx);
    },
  );
  return { compare, runDir: session.runDir, failure };
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

/**
 * Epochs until the verdict is in (a window that failed validation ends it too: the verdict is
 * then `invalid`), the last look has passed, the budget runs out, or the run is interrupted.
 */
async function measureUntilDecided(ctx: ComparisonContext): Promise<string> {
  let verdict = judge(ctx);
  for (let epoch = 1; ; epoch++) {
    if (budgetExceeded(ctx)) return budgetReason(ctx, epoch - 1);
    const decided = new Set([...verdict.decisions].filter(([, d]) => d.outcome !== 'continue').map(([level]) => level));
    const levels = openLevels(ctx, decided);
    const gateways = await startEpoch(ctx, epoch, levels[0]!);
    if (!gateways) return 'interrupted';
    for (let block = 0; block < ctx.options.design.blocksPerEpoch; block++) {
      for (const level of levels) if (!(await measureBlock(ctx, gateways, epoch, level))) return 'interrupted';
    }
    finishEpoch(ctx, epoch);
    verdict = judge(ctx);
    progressAfterEpoch(ctx, epoch, verdict);
    if (verdict.done)
      return verdict.verdict === 'inconclusive' ? `the last look (${epoch} epochs) came without a verdict` : `${verdict.verdict} after ${epoch} epochs`;
  }
}

function judge(ctx: ComparisonContext): ComparisonVerdict {
  const { threshold, alpha, minEpochs, spendingPower, holdWithoutFarthest } = ctx.options.design;
  const maxEpochs = ctx.compare.plan?.maxEpochs ?? minEpochs;
  const label = (level: number) => loadLabel(ctx.loadAt(level));
  return judgeComparison(ctx.compare.windows, {
    levels: ctx.options.levels,
    label,
    threshold,
    alpha,
    minEpochs,
    maxEpochs,
    spendingPower,
    holdWithoutFarthest,
  });
}

function budgetReason(ctx: ComparisonContext, epochs: number): string {
  const minutes = ((performance.now() - ctx.started) / 60_000).toFixed(1);
  return `--budget ${ctx.options.design.budgetMinutes} min would be exceeded by another epoch (after ${epochs} epochs, ${minutes} min)`;
}

function progressAfterEpoch(ctx: ComparisonContext, epoch: number, verdict: ComparisonVerdict): void {
  const pct = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)}%`;
  const levels = [...verdict.decisions.entries()].map(([level, d]) => {
    const interval = d.interval ? ` [${pct(d.interval.low)}, ${pct(d.interval.high)}]` : '';
    return `${loadLabel(ctx.loadAt(level))} ${pct(d.relativeChange)}${interval}: ${d.outcome}`;
  });
  const plan = ctx.compare.plan ? ` of at most ${ctx.compare.plan.maxEpochs}` : '';
  ctx.options.onProgress(`after epoch ${epoch}${plan} · ${((performance.now() - ctx.started) / 60_000).toFixed(1)} min · ${levels.join(' · ')}`, true);
}

function newCompare(options: CompareOptions, session: Session, nodes: CompareConfig['nodes']): CompareResult {
  const { query, scenarioFile, ownSubgraphs, proxiedSubgraphs } = recordedSource(options.scenario);
  const config: CompareConfig = {
    baseline: options.baseline,
    candidate: options.candidate,
    baselineEnv: options.baselineEnv,
    candidateEnv: options.candidateEnv,
    load: options.load,
    levels: options.levels,
    query,
    scenarioFile,
    ownSubgraphs,
    proxiedSubgraphs,
    profile: options.profile,
    heapSamplingBytes: options.profile ? options.heapSamplingBytes : null,
    nodes,
    design: options.design,
  };
  return {
    ...recordHeader('compare', session.runId),
    mode: 'windows',
    config,
    environment: session.environment,
    runs: null,
    epochs: [],
    windows: [],
    plan: null,
    stopReason: 'still running',
    analysis: null,
  };
}
