import { describe, expect, it } from 'vitest';
import { ALLOCATION_ENTRY, allocationCallCount, allocationCalls } from './allocation-calls.js';

// Calls as callgrind files them: fn= the caller, cfn= the callee, calls=N before the call's cost.
const DUMP = `events: Ir
fn=(1) hive_router::executor::run
cfn=(2) __rustc::__rust_alloc
calls=40 0
0 4000
cfn=(3) mi_free
calls=40 0
0 800
fn=(2)
cfn=(4) mi_malloc_aligned
calls=40 0
0 3000
fn=(5) grafbase::engine::plan
cfn=(6) _rjem_mallocx
calls=7 0
0 700
cfn=(7) core::fmt::write
calls=3 0
0 90
fn=(8) ring::c_code
cfn=(9) malloc
calls=5 0
0 500
fn=(10) calloc
cfn=(9)
calls=2 0
0 100
`;

describe('allocationCalls', () => {
  it('counts the calls that obtain memory from outside the allocators, once each, not frees', () => {
    // 40 through Rust's shim (its own call to mimalloc not again), 7 to jemalloc, 5 to the C library's malloc (calloc's own call to it not again).
    expect(allocationCalls(DUMP)).toBe(52);
  });

  it("names the function that made each call: the allocator's direct caller outside the allocators", () => {
    expect(allocationCallCount(DUMP)).toEqual({
      calls: 52,
      byCaller: { 'hive_router::executor::run': 40, 'grafbase::engine::plan': 7, 'ring::c_code': 5 },
    });
  });

  it("knows the allocators' entry points, and not their internals", () => {
    for (const name of [
      '__rust_alloc',
      '__rustc::__rust_realloc',
      '_rjem_malloc',
      'mi_zalloc_aligned',
      'mi_heap_malloc_small',
      'malloc',
      'calloc',
      'posix_memalign',
    ])
      expect(ALLOCATION_ENTRY.test(name), name).toBe(true);
    for (const name of ['_mi_malloc_generic', '_rjem_je_arena_ralloc', 'mi_free', '__rust_dealloc', 'free', 'malloc_consolidate'])
      expect(ALLOCATION_ENTRY.test(name), name).toBe(false);
  });
});
