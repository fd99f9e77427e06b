/**
 * Allocations of a native gateway, counted from a callgrind dump of a counted batch: the calls into
 * an allocator's entry points that obtain memory (Rust's allocation shims, jemalloc's and mimalloc's
 * public functions, the C library's malloc family), from callers that are not themselves such an
 * entry (so __rust_alloc → mi_malloc_aligned is one allocation). callgrind counts every call, on
 * every thread, whichever allocator the binary links: no allocator has to be replaced, as DHAT
 * replaces the C library's. It cannot see bytes (a size is an argument, not a count), frees, nor an
 * allocation whose entry the compiler inlined into its caller.
 */
import { CallgrindReader, readDumpFile, readDumpText, type DumpVisitor } from './callgrind-reader.js';

/** The entry points that obtain memory; frees are not counted. */
export const ALLOCATION_ENTRY =
  /^(?:__rustc::)?__rust_(?:alloc|alloc_zeroed|realloc)$|^(?:_rjem_|je_)(?:malloc|mallocx|calloc|realloc|rallocx|posix_memalign|aligned_alloc|memalign|valloc)$|^mi_(?:heap_)?(?:malloc|zalloc|calloc|realloc|rezalloc|recalloc|mallocn|reallocn|new|new_n|new_aligned|new_realloc|new_reallocn)(?:_small|_aligned|_aligned_at)?$|^(?:__libc_)?(?:malloc|calloc|realloc|reallocarray|posix_memalign|aligned_alloc|memalign|valloc|pvalloc)(?:@.*)?$/;

/** The reader's visitor that sums allocation calls: a context is its innermost function's name. */
export class AllocationCallCounter implements DumpVisitor<string> {
  calls = 0;
  /** The calls by the function that made them. */
  readonly byCaller = new Map<string, number>();

  context(frames: string[]): string {
    return frames[0] ?? '';
  }

  self(): void {}

  call(caller: string, callee: string, calls: number): void {
    if (!ALLOCATION_ENTRY.test(callee) || ALLOCATION_ENTRY.test(caller)) return;
    this.calls += calls;
    this.byCaller.set(caller, (this.byCaller.get(caller) ?? 0) + calls);
  }
}

export function allocationCalls(text: string): number {
  const counter = new AllocationCallCounter();
  readDumpText(text, new CallgrindReader(counter));
  return counter.calls;
}

/** A dump's allocation calls, in all and by the function that made them. */
export interface AllocationCallCount {
  calls: number;
  byCaller: Record<string, number>;
}

export function allocationCallCount(text: string): AllocationCallCount {
  const counter = new AllocationCallCounter();
  readDumpText(text, new CallgrindReader(counter));
  return { calls: counter.calls, byCaller: Object.fromEntries(counter.byCaller) };
}

export async function allocationCallsOfFile(file: string): Promise<AllocationCallCount> {
  const counter = new AllocationCallCounter();
  await readDumpFile(file, new CallgrindReader(counter));
  return { calls: counter.calls, byCaller: Object.fromEntries(counter.byCaller) };
}
