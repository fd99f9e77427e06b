/**
 * `gwprof bisect`: instructions per validated request counted at the points analysis's plan asks
 * for, two at a time, until every step between the good and the bad end is placed between two
 * neighbouring points; then each step confirmed by a full comparison of its two points (the
 * caller's `confirm`). bisect.json is rewritten after every round, and a bisection resumes from it.
 */
import path from 'node:path';
import { planOf } from '@gwprof/analysis';
import {
  GwprofError,
  readBisectResult,
  type BisectConfig,
  type BisectConfirmation,
  type BisectResult,
  type BisectSource,
  type RequestSourceRecord,
} from '@gwprof/results';
import { gatewayFromSpec } from '../gateways/index.js';
import { resolveNode } from '../processes/node-binaries.js';
import { recordHeader } from '../run/record-header.js';
import { openRun } from '../run/run-opening.js';
import type { RecordJournal } from '../run/record-journal.js';
import type { ScenarioSource } from '../run/scenario-source.js';
import type { RunRequest, Session } from '../run/session.js';
import type { ServiceOptions } from '../services/test-bed.js';
import { ensureValgrind } from '../instructions/callgrind.js';
import { commitPoints, newPoint, versionPoints, type PointId } from './bisect-points.js';
import { countRound, skip, type RoundContext, type RoundPoint } from './count-round.js';
import { pointSpec, preparePoint } from './point-build.js';

export interface BisectOptions extends ServiceOptions, RunRequest {
  /** A new bisection's settings; absent when resuming (the record keeps them). */
  config: Omit<BisectConfig, keyof RequestSourceRecord> | null;
  /** The explicit versions to bisect over (instead of the registry's), oldest first. */
  versions?: string[];
  scenario: ScenarioSource;
  /** A bisection's run folder to go on with. */
  resume?: string;
  candidatePort: number;
  timeoutSec: number;
  /** Confirms one step by a full comparison of its two points, in `runDir`; absent: no confirmation. */
  confirm?: (bisect: BisectResult, step: { good: number; bad: number }, runDir: string) => Promise<BisectConfirmation>;
}

export interface BisectOutcome {
  bisect: BisectResult;
  runDir: string;
  failure: Error | null;
}

export async function runBisect(options: BisectOptions): Promise<BisectOutcome> {
  const resumed = options.resume ? resumeRecord(options.resume) : null;
  // Bad ends are bad input: said before anything starts or any folder is made.
  const ids = resumed ? null : await pointIds(options);
  ensureValgrind(options.onProgress);
  const source = resumed?.config.source ?? options.config!.source;
  const representative = gatewayFromSpec(source.kind === 'versions' ? source.gateway : `cmd:${source.run}`);
  const opened = await openRun({
    options,
    scenario: options.scenario,
    specs: [representative.spec],
    install: [],
    adapters: () => [representative],
    session: () => ({
      ...(options.resume ? { outDir: path.dirname(path.resolve(options.resume)), runId: path.basename(path.resolve(options.resume)) } : {}),
      label: 'bisect',
      maxConcurrency: 1,
      // Each point is its own version: the pinned packages would say nothing of them.
      gatewayPackages: source.kind === 'versions' ? {} : representative.packageVersions(),
      profiler: 'inspector',
    }),
    newRecord: ({ session, recorded }) => {
      const bisect = resumed ?? newBisect(options.config!, ids!, session, recorded);
      bisect.state = 'running';
      bisect.error = null;
      bisect.finishedAt = null;
      return bisect;
    },
  });
  const { session, journal, scenario } = opened;
  const bisect = journal.record;
  const failure = await opened.live(
    {
      label: 'bisect',
      onStopped: () => {
        bisect.stopReason = bisect.error ?? 'interrupted';
      },
    },
    async () => {
      const bed = await session.startBed();
      const ctx: RoundContext = {
        scenarios: { baseline: scenario, candidate: scenario },
        session,
        options,
        bed,
        design: bisect.config.instructions,
        measure: bisect.config.measure ?? 'instructions',
        node: resolveNode(undefined),
        ports: { baseline: options.gatewayPort, candidate: options.candidatePort },
        limits: { memoryLimitMB: session.resources.memoryLimitMB, cpuQuotaCores: session.resources.cpuQuota?.cores ?? null },
      };
      bisect.stopReason = await countUntilPlaced(ctx, journal, source);
    },
  );
  // The lifecycle set the state.
  // A resumed bisection confirms as it was first asked to.
  if (!failure && (bisect.state as BisectResult['state']) === 'complete' && options.confirm && bisect.config.confirm) await confirmSteps(journal, options);
  return { bisect, runDir: session.runDir, failure };
}

function resumeRecord(runDir: string): BisectResult {
  const bisect = readBisectResult(path.resolve(runDir));
  bisect.resumes += 1;
  return bisect;
}

async function pointIds(options: BisectOptions): Promise<PointId[]> {
  const config = options.config;
  if (!config) throw new GwprofError('bisect needs --good and --bad, or --resume with a bisection folder');
  const ids =
    config.source.kind === 'versions'
      ? await versionPoints(config.source.gateway, config.good, config.bad, options.versions)
      : commitPoints(config.source.repo, config.good, config.bad);
  if (ids.length < 2) throw new GwprofError('a bisection needs at least the two ends');
  return ids;
}

function newBisect(config: NonNullable<BisectOptions['config']>, ids: PointId[], session: Session, recorded: RequestSourceRecord): BisectResult {
  return {
    ...recordHeader('bisect', session.runId),
    config: { ...config, ...recorded },
    environment: session.environment,
    points: ids.map((id, index) => newPoint(index, id, pointSpec(config.source, id.id, session.runDir))),
    confirmations: [],
    resumes: 0,
    stopReason: 'still running',
    analysis: null,
  };
}

/** Rounds of up to two points until the plan has nothing pending; the stop reason. */
async function countUntilPlaced(ctx: RoundContext, journal: RecordJournal<BisectResult>, source: BisectSource): Promise<string> {
  const bisect = journal.record;
  for (let round = 1; ; round++) {
    const plan = planOf(bisect);
    if (plan.skippedEnd !== null) {
      const end = bisect.points[plan.skippedEnd]!;
      return `the ${plan.skippedEnd === 0 ? 'good' : 'bad'} end (${end.label}) could not be counted${end.skipped ? `: ${end.skipped.reason}` : ''}`;
    }
    if (plan.pending.length === 0) return 'every step placed';
    const ready: RoundPoint[] = [];
    for (const index of plan.pending) {
      if (ready.length === 2) break;
      const point = bisect.points[index]!;
      const prepared = await preparePoint(source, point, ctx.session.runDir, ctx.options.signal, ctx.options.onProgress);
      if ('skip' in prepared) {
        skip(ctx, point, prepared.skip);
        journal.save();
      } else ready.push({ point, adapter: prepared.adapter });
    }
    if (ready.length === 0) continue;
    const { measuredSd, df } = plan.noise;
    const note = measuredSd === null ? '' : ` (scatter between processes so far ${(measuredSd * 100).toFixed(2)}%, ${df} df)`;
    const counted = await countRound(ctx, round, ready, note);
    journal.save();
    if (!counted) return 'interrupted';
  }
}

/** Each step not yet confirmed, by the caller's full comparison in a folder inside the bisection's. */
async function confirmSteps(journal: RecordJournal<BisectResult>, options: BisectOptions): Promise<void> {
  const { record: bisect, runDir } = journal;
  const plan = planOf(bisect);
  for (const step of plan.steps) {
    if (options.signal.aborted) return;
    if (bisect.confirmations.some((c) => c.good === step.good && c.bad === step.bad)) continue;
    const folder = `confirm-${step.good}-${step.bad}`;
    options.onProgress(`confirming the step ${bisect.points[step.good]!.label} → ${bisect.points[step.bad]!.label} by a full comparison…`, true);
    const confirmation = await options.confirm!(bisect, step, path.join(runDir, folder)).catch(
      (error: Error): BisectConfirmation => ({
        good: step.good,
        bad: step.bad,
        runDir: folder,
        verdict: null,
        relativeChange: null,
        interval: null,
        exitCode: null,
        moves: null,
        error: error.message,
      }),
    );
    bisect.confirmations.push({ ...confirmation, good: step.good, bad: step.bad, runDir: folder });
    journal.save();
  }
}
