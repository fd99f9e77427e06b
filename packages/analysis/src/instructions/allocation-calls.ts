/**
 * Allocations of a native gateway, counted from a callgrind dump of a counted batch: the calls into
 * an allocator's entry points that obtain memory (Rust's allocation shims, jemalloc's and mimalloc's
 * public functions, the C library's malloc family), from callers that are not themselves such an
 * entry (so __rust_alloc → mi_malloc_aligned is one allocation). callgrind counts every call, on
 * every thread, whichever allocator the binary links: no allocator has to be replaced, as DHAT
 * replaces the C library's. It cannot see bytes (a size is an argument, not a count), frees, nor an
 * allocation whose entry the compiler inlined into its caller.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

/** The entry points that obtain memory; frees are not counted. */
export const ALLOCATION_ENTRY =
  /^(?:__rustc::)?__rust_(?:alloc|alloc_zeroed|realloc)$|^(?:_rjem_|je_)(?:malloc|mallocx|calloc|realloc|rallocx|posix_memalign|aligned_alloc|memalign|valloc)$|^mi_(?:heap_)?(?:malloc|zalloc|calloc|realloc|rezalloc|recalloc|mallocn|reallocn|new|new_n|new_aligned|new_realloc|new_reallocn)(?:_small|_aligned|_aligned_at)?$|^(?:__libc_)?(?:malloc|calloc|realloc|reallocarray|posix_memalign|aligned_alloc|memalign|valloc|pvalloc)(?:@.*)?$/;

/** Sums allocation calls from dump lines, fed one at a time. */
export class AllocationCallCounter {
  private readonly names = new Map<string, string>();
  private caller = '';
  private callee = '';
  calls = 0;

  line(line: string): void {
    if (line.startsWith('fn=')) this.caller = this.name(line.slice(3));
    else if (line.startsWith('cfn=')) this.callee = this.name(line.slice(4));
    else if (line.startsWith('calls=')) {
      if (ALLOCATION_ENTRY.test(this.callee) && !ALLOCATION_ENTRY.test(this.caller)) this.calls += Number(line.slice(6).split(/\s+/)[0] ?? 0);
    }
  }

  /** A function's name by its compressed id ("(12) name" the first time); the innermost of a context "f'caller…". */
  private name(raw: string): string {
    const match = /^\((\d+)\)(?:\s+(.*))?$/.exec(raw.trim());
    const full = match ? (match[2] !== undefined ? match[2] : (this.names.get(match[1]!) ?? '')) : raw.trim();
    if (match?.[2] !== undefined) this.names.set(match[1]!, full);
    return full.split("'")[0]!;
  }
}

export function allocationCalls(text: string): number {
  const counter = new AllocationCallCounter();
  for (const line of text.split('\n')) counter.line(line);
  return counter.calls;
}

export async function allocationCallsOfFile(file: string): Promise<number> {
  const counter = new AllocationCallCounter();
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of lines) counter.line(line);
  return counter.calls;
}
