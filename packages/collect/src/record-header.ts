/** The start of every record gwprof writes: its schema, the tool, its kind and id, and a running state. */
import { RESULTS_SCHEMA_VERSION, type RecordHeader } from '@gwprof/results';
import { TOOL_VERSION } from './version.js';

export function recordHeader<K extends 'sweep' | 'compare' | 'soak'>(kind: K, runId: string): RecordHeader<K> {
  return {
    schemaVersion: RESULTS_SCHEMA_VERSION,
    tool: { name: 'gwprof', version: TOOL_VERSION },
    kind,
    runId,
    startedAt: new Date().toISOString(),
    finishedAt: null,
    state: 'running',
    error: null,
  };
}
