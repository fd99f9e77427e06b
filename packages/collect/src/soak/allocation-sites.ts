/**
 * What grows in a native gateway, named: after a soak whose verdict is `leak` (or with `--sites
 * always`), the gateway runs twice more under valgrind's DHAT, on the soak's port and subgraphs,
 * answering the same requests one at a time: a warm-up's worth, then the warm-up and the counted
 * ones. Each run ends with a signal the gateway leaves at its default action, so DHAT writes the heap
 * as it was, before any shutdown of the gateway's own frees what it holds. analysis's
 * `allocationSites` reads the two profiles into the sites of the bytes still live, per request.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';
import { UNKNOWN_BINARY, allocationSites, judgeSoak, parseDhat, type BinaryTraits, type LeakDesign } from '@gwprof/analysis';
import type { AllocationSiteRun, SoakAllocationSites, SoakResult } from '@gwprof/results';
import { DEFAULTS } from '../defaults.js';
import type { GatewayAdapter } from '../gateways/types.js';
import { ensureValgrind } from '../instructions/callgrind.js';
import { sendSequential } from '../instructions/sequential-batch.js';
import type { Scenario } from '../scenario/scenario.js';
import { oneLineReason, type RunningGateway } from '../services/gateway-process.js';
import type { TestBed } from '../services/test-bed.js';

const SITES = DEFAULTS.allocationSites;

/** When a native soak counts its allocation sites: after a `leak` verdict, always, or never. */
export type SitesWhen = 'leak' | 'always' | 'never';

export interface SitesRequest {
  when: SitesWhen;
  soak: SoakResult;
  leakDesign: LeakDesign;
  bed: TestBed;
  adapter: GatewayAdapter;
  gatewayEnv: Record<string, string>;
  scenario: Scenario;
  runDir: string;
  timeoutSec: number;
  signal: AbortSignal;
  onProgress: (line: string, final: boolean) => void;
}

/** Whether this soak's sites are counted, and why; null when not (asked not to, crashed, interrupted, or no leak). */
export function sitesReason(soak: SoakResult, when: SitesWhen, design: LeakDesign): SoakAllocationSites['reason'] | null {
  if (when === 'never' || soak.crash !== null || soak.intervals.length === 0) return null;
  if (when === 'always') return 'asked';
  return judgeSoak(soak.intervals, soak.snapshots, design, false).verdict === 'leak' ? 'leak' : null;
}

/**
 * The allocation sites, counted once the soak's own gateway is stopped; null when not asked for.
 * Never throws for what went wrong under valgrind: the soak is finished, and the record says why.
 */
export async function countAllocationSites(request: SitesRequest, soakGateway: RunningGateway): Promise<SoakAllocationSites | null> {
  const reason = sitesReason(request.soak, request.when, request.leakDesign);
  if (!reason || request.signal.aborted) return null;
  await soakGateway.stop();
  const empty = { tool: 'valgrind DHAT', reason, runs: [], countedRequests: 0, totals: null, sites: [], unseen: [] };
  let tool: string;
  try {
    tool = `${ensureValgrind(request.onProgress, 'naming the allocation sites of a native soak')} DHAT`;
  } catch (error) {
    return { ...empty, error: oneLineReason(error as Error) };
  }
  const runs: AllocationSiteRun[] = [];
  try {
    const profiles = [];
    let binary: string | null = null;
    for (const requests of [SITES.warmupRequests, SITES.warmupRequests + SITES.countedRequests]) {
      const run = await dhatRun(request, requests);
      if (!run) return null;
      runs.push(run.record);
      profiles.push({ profile: parseDhat(readFileSync(path.join(request.runDir, run.record.file!), 'utf8')), ok: run.record.ok });
      binary = run.binary;
    }
    const found = allocationSites(profiles[0]!, profiles[1]!, SITES.top, binary ? binaryTraits(binary) : UNKNOWN_BINARY);
    request.onProgress(`allocation sites: ${found.sites.length} grew, ${found.totals.bytesLivePerRequest.toFixed(0)} bytes live per request in all`, true);
    return { ...empty, tool, runs, ...found, error: null };
  } catch (error) {
    return { ...empty, tool, runs, error: oneLineReason(error as Error) };
  }
}

/** One run under DHAT: started, `requests` answered one at a time, ended keeping its heap; null when interrupted. */
async function dhatRun(request: SitesRequest, requests: number): Promise<{ record: AllocationSiteRun; binary: string | null } | null> {
  const dir = path.join(request.runDir, 'dhat');
  mkdirSync(dir, { recursive: true });
  request.onProgress(`allocation sites: the gateway under valgrind's DHAT, ${requests} requests…`, false);
  const launched = await request.bed.launchGateway({
    adapter: request.adapter,
    gatewayEnv: request.gatewayEnv,
    processName: `gateway-dhat-${requests}`,
    callgrind: { valgrindArgs: SITES.valgrindArgs, outFile: path.join(dir, `dhat-${requests}req.%p.out`), outFileOption: '--dhat-out-file' },
    profiled: false,
  });
  const gateway = launched.gateway;
  const indices = Array.from({ length: requests }, (_, i) => i);
  const sent = await sendSequential(gateway.url, request.scenario, indices, Math.max(120_000, request.timeoutSec * 1000), request.signal);
  const endedBy = await endKeepingHeap(gateway);
  if (request.signal.aborted) return null;
  if (sent.ok < sent.requests) throw new Error(`under DHAT, ${sent.requests - sent.ok} of ${sent.requests} responses failed validation`);
  const file = path.join(dir, `dhat-${requests}req.${gateway.serverPid}.out`);
  if (!existsSync(file))
    throw new Error(`DHAT wrote no profile for the gateway (pid ${gateway.serverPid}); its log: ${gateway.process.tail().slice(-3).join(' | ')}`);
  return { record: { requests: sent.requests, ok: sent.ok, file: path.relative(request.runDir, file), endedBy }, binary: launched.build?.binary ?? null };
}

/**
 * Ends the process with a signal it leaves at its default action (DHAT then writes the heap as it
 * was); a gateway that handles it is stopped as usual, after its own shutdown, which may free what it held.
 */
async function endKeepingHeap(gateway: RunningGateway): Promise<AllocationSiteRun['endedBy']> {
  try {
    process.kill(gateway.serverPid, SITES.endSignal);
  } catch {
    // already gone: its profile, if any, was written at its exit
  }
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), SITES.endGraceMs);
  });
  const exited = await Promise.race([gateway.process.exited.then(() => true), grace]);
  clearTimeout(timer);
  if (exited) return 'signal';
  await gateway.process.stop(SITES.shutdownGraceMs);
  return 'shutdown';
}

/** Whether the binary is linked statically (no ELF interpreter) and an allocator it links in, by its symbols' prefix. */
export function binaryTraits(binary: string): BinaryTraits {
  let fd: number;
  try {
    fd = openSync(binary, 'r');
  } catch {
    return UNKNOWN_BINARY;
  }
  try {
    return { linkedStatically: linkedStatically(fd), allocator: linkedAllocator(fd) };
  } finally {
    closeSync(fd);
  }
}

const PT_INTERP = 3;

/** A 64-bit ELF without a PT_INTERP program header is static; null for what is not a 64-bit little-endian ELF. */
function linkedStatically(fd: number): boolean | null {
  const header = Buffer.alloc(64);
  if (readSync(fd, header, 0, 64, 0) < 64 || header.readUInt32BE(0) !== 0x7f454c46 || header[4] !== 2 || header[5] !== 1) return null;
  const offset = Number(header.readBigUInt64LE(0x20));
  const size = header.readUInt16LE(0x36);
  const count = header.readUInt16LE(0x38);
  const table = Buffer.alloc(size * count);
  readSync(fd, table, 0, table.length, offset);
  for (let i = 0; i < count; i++) if (table.readUInt32LE(i * size) === PT_INTERP) return false;
  return true;
}

const ALLOCATOR_MARKERS: Array<[Buffer, NonNullable<BinaryTraits['allocator']>]> = [
  [Buffer.from('_rjem_malloc'), 'jemalloc'],
  [Buffer.from('je_malloc'), 'jemalloc'],
  [Buffer.from('mi_malloc'), 'mimalloc'],
];

function linkedAllocator(fd: number): BinaryTraits['allocator'] {
  const chunk = Buffer.alloc(8 << 20);
  const overlap = 32;
  for (let position = 0; ; position += chunk.length - overlap) {
    const read = readSync(fd, chunk, 0, chunk.length, position);
    const view = chunk.subarray(0, read);
    for (const [marker, name] of ALLOCATOR_MARKERS) if (view.includes(marker)) return name;
    if (read < chunk.length) return null;
  }
}
