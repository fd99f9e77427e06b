/**
 * What grows in a native gateway, named: the allocation sites of the bytes still live, counted
 * under valgrind's DHAT after a soak. Two runs of the same gateway answer the same requests, the
 * shorter a warm-up's worth, the longer the warm-up and the counted ones; a site's live bytes in
 * the longer minus the shorter, per successful request, is what each request left behind there
 * (start-up and caches filled by the warm-up cancel out).
 */

export interface AllocationSite {
  /** The function that allocated: the first frame that is not the allocator's (malloc, an allocation shim); `???` without symbols. */
  name: string;
  /** Where, as valgrind read it: `file:line` with debug info, `in <object>` without. */
  where: string;
  /** The stack from the allocator up, as valgrind names each frame. */
  frames: string[];
  bytesLivePerRequest: number;
  blocksLivePerRequest: number;
  bytesAllocatedPerRequest: number;
}

export interface AllocationSiteTotals {
  bytesLivePerRequest: number;
  blocksLivePerRequest: number;
  bytesAllocatedPerRequest: number;
  blocksAllocatedPerRequest: number;
}

export interface AllocationSiteRun {
  requests: number;
  ok: number;
  /** DHAT's output, relative to the run folder (valgrind's dh_view.html opens it); null when none was written. */
  file: string | null;
  /** How the process was ended: a signal it leaves at its default action (its heap as it was), or its own shutdown. */
  endedBy: 'signal' | 'shutdown';
}

export interface SoakAllocationSites {
  /** valgrind's version and tool. */
  tool: string;
  /** Why they were counted: the verdict was `leak`, or `--sites always` asked. */
  reason: 'leak' | 'asked';
  runs: AllocationSiteRun[];
  /** Successful requests between the two runs: the divisor of every figure per request. */
  countedRequests: number;
  totals: AllocationSiteTotals | null;
  /** The largest by bytes live per request. */
  sites: AllocationSite[];
  /** What valgrind could not see in this binary (no symbols, an allocator it does not replace); empty when nothing. */
  unseen: string[];
  /** Why no sites were counted (valgrind missing, the gateway did not start under it); null when they were. */
  error: string | null;
}
