/** What every record gwprof writes begins with, and what the records of one gateway under test share. */
import { RESULTS_SCHEMA_VERSION, type RecordHeader, type RecordKind, type ServicesRecord } from '@gwprof/results';
import type { ServiceOptions } from '../services/test-bed.js';
import { TOOL_VERSION } from './version.js';

/** The start of every record: its schema, the tool, its kind and id, and a running state. */
export function recordHeader<K extends RecordKind>(kind: K, runId: string): RecordHeader<K> {
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

/** The services around one gateway, as a sweep and a soak record them. */
export function servicesRecord(options: ServiceOptions & { timeoutSec: number }, nativeSubgraphs: string | null): ServicesRecord {
  return {
    subgraphs: nativeSubgraphs ? 'native' : 'node',
    timeoutSec: options.timeoutSec,
    subgraphDelayMs: options.subgraphDelayMs,
    ...(options.subgraphDelaysMs ? { subgraphDelaysMs: options.subgraphDelaysMs } : {}),
    subgraphPorts: options.subgraphPorts,
    gatewayPort: options.gatewayPort,
  };
}
