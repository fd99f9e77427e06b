import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { allocationSites, isAllocatorFrame, parseDhat, parseFrame } from './dhat-sites.js';

/**
 * Two DHAT profiles of the compiled stub gateway (fixtures/native-stub/stub-gateway.c, `cc -O1`, no
 * debug info) with STUB_LEAK_BYTES=1000 and STUB_BUCKET_WORK=alloc=2: 5 and 25 requests, each
 * leaking 1,000 bytes from leak_request and allocating and freeing 8 blocks twice in gw_plan_scratch.
 */
const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'testing', 'dhat');
const text = (requests: number) => readFileSync(path.join(dir, `stub-leak-1000-${requests}req.dhat.out`), 'utf8');
const run = (requests: number, transform = (t: string) => t) => ({ profile: parseDhat(transform(text(requests))), ok: requests });

describe("a native gateway's allocation sites from two DHAT profiles", () => {
  it('names the leaking function with its bytes live per request, exactly, and leaves out start-up and freed blocks', () => {
    const found = allocationSites(run(5), run(25), 10);
    expect(found.countedRequests).toBe(20);
    expect(found.sites).toHaveLength(1);
    const [leak] = found.sites;
    expect(leak!.name).toBe('leak_request');
    expect(leak!.where).toMatch(/^in .*stub$/);
    expect(leak!.bytesLivePerRequest).toBe(1000);
    expect(leak!.blocksLivePerRequest).toBe(1);
    expect(leak!.frames[0]).toMatch(/^malloc \(in .*vgpreload_dhat/);
    // printf's buffer (start-up) is in both runs; gw_plan_scratch's 16 blocks a request are all freed.
    expect(found.totals.bytesLivePerRequest).toBe(1000);
    expect(found.totals.blocksAllocatedPerRequest).toBe(17);
    expect(found.totals.bytesAllocatedPerRequest).toBe(1000 + 2 * (24 + 40 + 72 + 136 + 264 + 520 + 1032 + 2056));
    expect(found.unseen).toEqual([]);
  });

  it('says so when the binary has no symbols: the sites are addresses in their object', () => {
    const stripped = (t: string) => t.replace(/0x([0-9A-F]+): (leak_request|main|gw_\w+) \(in /g, '0x$1: ??? (in ');
    const found = allocationSites(run(5, stripped), run(25, stripped), 10);
    expect(found.sites[0]!.name).toBe('???');
    expect(found.sites[0]!.bytesLivePerRequest).toBe(1000);
    expect(found.unseen.join(' ')).toMatch(/1 of the 1 sites have no function name in .*stub: the binary has no symbols/);
  });

  it('says so when valgrind saw almost no allocation per request: an allocator of the binary its own', () => {
    const nothingMore = { profile: run(25).profile, ok: 45 };
    const few = allocationSites(run(25), nothingMore, 10, { linkedStatically: true, allocator: 'jemalloc' });
    expect(few.sites).toEqual([]);
    expect(few.unseen).toEqual([
      'valgrind saw 0.00 allocations per request: the binary is linked statically (valgrind replaces malloc only in a dynamically linked program) and allocates through jemalloc, linked in, so its live bytes and their sites are not seen here',
    ]);
    const dynamic = allocationSites(run(25), nothingMore, 10, { linkedStatically: false, allocator: 'mimalloc' });
    expect(dynamic.unseen[0]).toMatch(/: the binary allocates through mimalloc, linked in, which valgrind does not replace, so/);
  });

  it('refuses runs with nothing counted between them, and files that are not DHAT heap profiles', () => {
    expect(() => allocationSites(run(25), run(25), 10)).toThrow(/nothing was counted/);
    expect(() => parseDhat('{"dhatFileVersion":2,"mode":"copy","pps":[],"ftbl":[]}')).toThrow(/not a DHAT heap profile/);
  });

  it("reads valgrind's frames and knows the allocator's, C's, C++'s and Rust's", () => {
    expect(parseFrame('0x10A2C2: leak_request (stub-gateway.c:117)')).toEqual({ address: '0x10A2C2', name: 'leak_request', where: 'stub-gateway.c:117' });
    expect(parseFrame('0x4A: ???')).toEqual({ address: '0x4A', name: '???', where: '' });
    const allocator = [
      '0x1: malloc (in /usr/libexec/valgrind/vgpreload_dhat-amd64-linux.so)',
      '0x1: operator new(unsigned long) (new_op.cc:50)',
      '0x1: __rust_alloc (in /bin/router)',
      '0x1: alloc::raw_vec::RawVec<T,A>::grow_one (raw_vec.rs:10)',
      '0x1: <alloc::alloc::Global as core::alloc::Allocator>::allocate (alloc.rs:5)',
    ];
    for (const frame of allocator) expect(isAllocatorFrame(parseFrame(frame))).toBe(true);
    expect(isAllocatorFrame(parseFrame('0x1: router::cache::Cache::insert (cache.rs:42)'))).toBe(false);
  });
});
