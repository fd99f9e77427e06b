/**
 * One run's life, the same for a sweep, a comparison, a soak and a bisection: the body measures; an interruption
 * (Ctrl-C, SIGTERM) or a failure ends it with the record's state and error set; whatever happened,
 * the processes are stopped and the record is finished and written, so what was measured is kept.
 * A failure that is not an interruption is returned, for the caller to report (a bug with its stack).
 */
import { asError, type RecordHeader, type RecordKind } from '@gwprof/results';
import type { RecordJournal } from './record-journal.js';
import type { Session } from './session.js';

export interface Lifecycle<R extends RecordHeader<RecordKind>> {
  /** The record, saved once more at the end. */
  journal: RecordJournal<R>;
  session: Pick<Session, 'close' | 'logs'>;
  signal: AbortSignal;
  /** What the log calls this kind of run. */
  label: string;
  /** After a failure or interruption, before the processes stop (e.g. a stop reason). */
  onStopped?: (failure: Error | null) => void;
  /** Stops what the body started beside the session (a comparison's gateway pair). */
  release?: () => Promise<void>;
}

export async function runLifecycle<R extends RecordHeader<RecordKind>>(life: Lifecycle<R>, body: () => Promise<void>): Promise<Error | null> {
  const { journal, session, signal } = life;
  const { record } = journal;
  let failure: Error | null = null;
  try {
    if (signal.aborted) throw new Error('interrupted');
    await body();
    record.state = signal.aborted ? 'interrupted' : 'complete';
  } catch (caught) {
    record.state = signal.aborted ? 'interrupted' : 'failed';
    failure = signal.aborted ? null : asError(caught);
    record.error = failure?.message ?? null;
    life.onStopped?.(failure);
    session.logs.harness.error({ err: caught }, `${life.label} stopped`);
  } finally {
    await life.release?.();
    await session.close();
    record.finishedAt = new Date().toISOString();
    journal.save();
    session.logs.harness.info({ state: record.state }, `${life.label} finished`);
    session.logs.flush();
  }
  return failure;
}
