/**
 * A native gateway's allocation sites of the bytes still live, from two of valgrind's DHAT profiles
 * of the same gateway: the shorter run answered a warm-up's requests, the longer the warm-up and the
 * counted ones. Each site's bytes live at the end (DHAT's `eb`) in the longer run minus the shorter,
 * per successful request counted, is what each request left behind there; start-up and what the
 * warm-up filled cancel out. A site is named by the first frame of its stack that is not the
 * allocator's (malloc and its kin, C++'s operator new, Rust's allocation shims and vector growth).
 */
import type { AllocationSite, AllocationSiteTotals } from '@gwprof/results';

/** One allocation point of a DHAT profile: totals over the run and what was live at its end. */
interface DhatPoint {
  /** Bytes and blocks allocated over the run. */
  tb: number;
  tbk: number;
  /** Bytes and blocks live at the end (the process's exit). */
  eb: number;
  ebk: number;
  /** Indices into the frame table, the allocator's frame first. */
  fs: number[];
}

export interface DhatProfile {
  command: string;
  points: DhatPoint[];
  frames: string[];
}

/** A DHAT heap profile (dhat.out, format 2); throws on anything else, saying what it got. */
export function parseDhat(text: string): DhatProfile {
  const json = JSON.parse(text) as { dhatFileVersion?: number; mode?: string; cmd?: string; pps?: DhatPoint[]; ftbl?: string[] };
  if (json.dhatFileVersion !== 2 || json.mode !== 'heap' || !Array.isArray(json.pps) || !Array.isArray(json.ftbl)) {
    throw new Error(`not a DHAT heap profile of format 2 (dhatFileVersion ${json.dhatFileVersion}, mode ${json.mode})`);
  }
  return { command: json.cmd ?? '', points: json.pps, frames: json.ftbl };
}

/** One frame as valgrind writes it: `0x10A2C2: leak_request (stub.c:117)`, `… (in /path/object)`, or `0x…: ???`. */
export interface DhatFrame {
  address: string;
  name: string;
  /** `file:line`, `in <object>`, or empty. */
  where: string;
}

export function parseFrame(text: string): DhatFrame {
  const match = /^(0x[0-9A-Fa-f]+): (.*?)(?: \((.*)\))?$/.exec(text);
  if (!match) return { address: '', name: text, where: '' };
  return { address: match[1]!, name: match[2]!, where: match[3] ?? '' };
}

/** The allocator's own functions and the shims that call it for a container: never a site's name. */
const ALLOCATOR_NAMES = [
  /^(malloc|calloc|realloc|reallocarray|free|memalign|posix_memalign|aligned_alloc|valloc|pvalloc|strdup|strndup)$/,
  /^operator new/,
  /^(__rust_|__rdl_|__rg_|_rjem_|je_|mi_)/,
  /^(<?alloc::alloc::|<?alloc::raw_vec::|<?std::alloc::|<alloc::alloc::Global)/,
];

export function isAllocatorFrame(frame: DhatFrame): boolean {
  return /vgpreload_/.test(frame.where) || ALLOCATOR_NAMES.some((rule) => rule.test(frame.name));
}

/** A frame's text without its address where a name says where it is: the same site in two runs. */
function frameKey(frame: DhatFrame): string {
  if (frame.name === '???') return `??? at ${frame.address}${frame.where ? ` (${frame.where})` : ''}`;
  return frame.where ? `${frame.name} (${frame.where})` : frame.name;
}

interface SiteCounts {
  frames: DhatFrame[];
  tb: number;
  tbk: number;
  eb: number;
  ebk: number;
}

/** A profile's points merged by stack (frames without addresses), so that both runs' keys meet. */
function sitesByStack(profile: DhatProfile): Map<string, SiteCounts> {
  const sites = new Map<string, SiteCounts>();
  for (const point of profile.points) {
    const frames = point.fs.map((index) => parseFrame(profile.frames[index] ?? '???'));
    const key = frames.map(frameKey).join('\n');
    const site = sites.get(key) ?? { frames, tb: 0, tbk: 0, eb: 0, ebk: 0 };
    site.tb += point.tb;
    site.tbk += point.tbk;
    site.eb += point.eb;
    site.ebk += point.ebk;
    sites.set(key, site);
  }
  return sites;
}

export interface DhatRun {
  profile: DhatProfile;
  /** Successful requests the run answered. */
  ok: number;
}

export interface AllocationSitesFound {
  countedRequests: number;
  totals: AllocationSiteTotals;
  sites: AllocationSite[];
  unseen: string[];
}

/** What collect read of the gateway's binary: whether it is linked statically, and an allocator it links in (by its symbols). */
export interface BinaryTraits {
  linkedStatically: boolean | null;
  allocator: 'jemalloc' | 'mimalloc' | null;
}

export const UNKNOWN_BINARY: BinaryTraits = { linkedStatically: null, allocator: null };

/**
 * The sites whose live bytes grew between the shorter and the longer run, the largest first (at
 * most `top`), per successful request counted; the totals over every site; what could not be seen.
 */
export function allocationSites(shorter: DhatRun, longer: DhatRun, top: number, binary: BinaryTraits = UNKNOWN_BINARY): AllocationSitesFound {
  const counted = longer.ok - shorter.ok;
  if (counted <= 0) throw new Error(`the longer run answered ${longer.ok} requests, the shorter ${shorter.ok}: nothing was counted between them`);
  const before = sitesByStack(shorter.profile);
  const after = sitesByStack(longer.profile);
  const zero: SiteCounts = { frames: [], tb: 0, tbk: 0, eb: 0, ebk: 0 };
  const grown: AllocationSite[] = [];
  for (const [key, site] of after) {
    const base = before.get(key) ?? zero;
    const live = (site.eb - base.eb) / counted;
    if (live > 0) grown.push(siteOf(site, live, (site.ebk - base.ebk) / counted, (site.tb - base.tb) / counted));
  }
  grown.sort((a, b) => b.bytesLivePerRequest - a.bytesLivePerRequest || b.bytesAllocatedPerRequest - a.bytesAllocatedPerRequest);
  const totals = totalsPerRequest(shorter.profile, longer.profile, counted);
  const sites = grown.slice(0, top);
  return { countedRequests: counted, totals, sites, unseen: unseenParts(totals, sites, binary) };
}

function siteOf(site: SiteCounts, bytesLive: number, blocksLive: number, bytesAllocated: number): AllocationSite {
  const own = site.frames.find((frame) => !isAllocatorFrame(frame)) ?? site.frames[0] ?? { address: '', name: '???', where: '' };
  return {
    name: own.name,
    where: own.where,
    frames: site.frames.map(frameKey),
    bytesLivePerRequest: bytesLive,
    blocksLivePerRequest: blocksLive,
    bytesAllocatedPerRequest: bytesAllocated,
  };
}

function totalsPerRequest(shorter: DhatProfile, longer: DhatProfile, counted: number): AllocationSiteTotals {
  const sum = (profile: DhatProfile, field: 'tb' | 'tbk' | 'eb' | 'ebk') => profile.points.reduce((total, point) => total + point[field], 0);
  const per = (field: 'tb' | 'tbk' | 'eb' | 'ebk') => (sum(longer, field) - sum(shorter, field)) / counted;
  return { bytesLivePerRequest: per('eb'), blocksLivePerRequest: per('ebk'), bytesAllocatedPerRequest: per('tb'), blocksAllocatedPerRequest: per('tbk') };
}

/** Fewer allocations per request than this: the gateway's allocator is not the one valgrind replaced. */
const FEWEST_BLOCKS_PER_REQUEST = 1;

/** What this binary kept from valgrind: its allocator's blocks, or its symbols. */
function unseenParts(totals: AllocationSiteTotals, sites: readonly AllocationSite[], binary: BinaryTraits): string[] {
  const unseen: string[] = [];
  if (totals.blocksAllocatedPerRequest < FEWEST_BLOCKS_PER_REQUEST) {
    unseen.push(
      `valgrind saw ${totals.blocksAllocatedPerRequest.toFixed(2)} allocations per request: ${whyAllocatorUnseen(binary)}, so its live bytes and their sites are not seen here`,
    );
  }
  const nameless = sites.filter((site) => site.name === '???');
  if (nameless.length > 0) {
    const objects = [...new Set(nameless.map((site) => site.where.replace(/^in /, '')).filter(Boolean))];
    unseen.push(
      `${nameless.length} of the ${sites.length} sites have no function name${objects.length ? ` in ${objects.join(', ')}` : ''}: the binary has no symbols (stripped), so they are shown by address`,
    );
  }
  return unseen;
}

function whyAllocatorUnseen({ linkedStatically, allocator }: BinaryTraits): string {
  const through = allocator ? ` and allocates through ${allocator}, linked in` : '';
  if (linkedStatically) return `the binary is linked statically (valgrind replaces malloc only in a dynamically linked program)${through}`;
  if (allocator) return `the binary allocates through ${allocator}, linked in, which valgrind does not replace`;
  return 'the gateway allocates through an allocator valgrind does not replace (linked in, or its own)';
}
