import { describe, expect, it } from 'vitest';
import { AllocatedBytes } from './preload-accounts.cjs';

describe('AllocatedBytes', () => {
  it("reads what was allocated on V8's heap across the GCs in between: 2,000 strings of 10,000 bytes", () => {
    const allocated = new AllocatedBytes();
    const source = Buffer.alloc(10_000, 120);
    const kept: string[] = [];
    const before = allocated.bytes();
    // 20 MB in strings of 10,016 bytes each (a 16-byte header): more than the young generation holds, so GCs run and free most.
    for (let i = 0; i < 2000; i++) kept[i % 16] = source.toString('latin1');
    const read = (allocated.bytes() - before) / (2000 * 10_016);
    expect(read).toBeGreaterThanOrEqual(1);
    expect(read).toBeLessThan(1.05);
    expect(kept).toHaveLength(16);
  });
});
