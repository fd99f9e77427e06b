/**
 * The one writer of a run's record while it runs (results.json, compare.json or bisect.json): every
 * part of a run that adds a step, a window, an interval or a round saves through it, so an
 * interrupted run keeps everything finished and the file is named in one place.
 */
import { writeRecord, type RecordHeader, type RecordKind } from '@gwprof/results';

export interface RecordJournal<R extends RecordHeader<RecordKind>> {
  readonly record: R;
  readonly runDir: string;
  /** Rewrites the record's file (atomically) as the record stands now. */
  save(): void;
}

export function recordJournal<R extends RecordHeader<RecordKind>>(runDir: string, record: R): RecordJournal<R> {
  return { record, runDir, save: () => writeRecord(runDir, record) };
}
