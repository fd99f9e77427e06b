/**
 * How every kind of run opens (sweep, comparison, soak, bisection), in one order: the requests and
 * their goldens, the gateways installed, the demo subgraphs their fan-out needs, the session
 * (resources, run folder, logs, environment), and the new record, saved before anything starts.
 * `live` then runs the body through the one lifecycle (`run-lifecycle.ts`).
 */
import type { RecordHeader, RecordKind, RequestSourceRecord } from '@gwprof/results';
import { installGateway } from '../gateways/index.js';
import type { GatewayAdapter } from '../gateways/types.js';
import { demoSubgraphsBinary } from '../services/native-subgraphs.js';
import { recordJournal, type RecordJournal } from './record-journal.js';
import { runLifecycle, type Lifecycle } from './run-lifecycle.js';
import type { Scenario } from '../scenario/scenario.js';
import { openRequests, type OpenedRequests, type ScenarioSource } from './scenario-source.js';
import { openSession, type RunRequest, type Session, type SessionOptions } from './session.js';
import type { OwnSubgraphs, ServiceOptions } from '../services/test-bed.js';

/** What the new record is made from beside its options. */
export interface RunSetup<C = void> {
  /** What the run's `check` found. */
  checked: C;
  session: Session;
  /** Where the requests came from, for the record. */
  recorded: RequestSourceRecord;
  /** The Rust demo subgraphs' binary, or null for the Node ones (or none of the demo's). */
  nativeSubgraphs: string | null;
}

export interface RunOpening<R extends RecordHeader<RecordKind>, C = void> {
  options: ServiceOptions & RunRequest;
  scenario: ScenarioSource;
  /** The gateways the requests' goldens are checked for. */
  specs: readonly string[];
  /** Bad input and what the machine may refuse (ports, valgrind), once the requests are read and before anything is installed. */
  check?: (requests: OpenedRequests) => Promise<C> | C;
  /** Installed on first use, in this order, before anything starts. */
  install: readonly string[];
  /** The gateways gwprof starts, made once installed (their fan-out picks the demo subgraphs); null: it starts none. */
  adapters: (() => readonly GatewayAdapter[]) | null;
  /** What the session is opened with beside the options, knowing the adapters. */
  session: (
    adapters: readonly GatewayAdapter[],
  ) => Pick<SessionOptions, 'label' | 'maxConcurrency' | 'gatewayPackages' | 'profiler'> & Partial<Pick<SessionOptions, 'attached' | 'outDir' | 'runId'>>;
  newRecord: (setup: RunSetup<C>) => R;
}

export interface OpenedRun<R extends RecordHeader<RecordKind>, C = void> {
  checked: C;
  session: Session;
  journal: RecordJournal<R>;
  record: R;
  scenario: Scenario;
  adapters: readonly GatewayAdapter[];
  ownSubgraphs: OwnSubgraphs | null;
  nativeSubgraphs: string | null;
  /** Runs the body in the run's lifecycle; what stopped it early (not an interruption), or null. */
  live(life: Omit<Lifecycle<R>, 'journal' | 'session' | 'signal'>, body: () => Promise<void>): Promise<Error | null>;
}

export async function openRun<R extends RecordHeader<RecordKind>, C = void>(opening: RunOpening<R, C>): Promise<OpenedRun<R, C>> {
  const { options } = opening;
  const requests = openRequests(opening.scenario, opening.specs);
  const { scenario, recorded, ownSubgraphs } = requests;
  const checked = (await opening.check?.(requests)) as C;
  for (const spec of opening.install) await installGateway(spec, options.onProgress, options.signal);
  const adapters = opening.adapters?.() ?? [];
  const nativeSubgraphs =
    opening.adapters === null || ownSubgraphs ? null : await demoSubgraphsBinary(options.subgraphs ?? 'auto', adapters, options.onProgress);
  const session = openSession({ ...options, ...opening.session(adapters), ownSubgraphs, nativeSubgraphs });
  const record = opening.newRecord({ checked, session, recorded, nativeSubgraphs });
  const journal = recordJournal(session.runDir, record);
  journal.save();
  return {
    checked,
    session,
    journal,
    record,
    scenario,
    adapters,
    ownSubgraphs,
    nativeSubgraphs,
    live: (life, body) => runLifecycle({ ...life, journal, session, signal: options.signal }, body),
  };
}
