import { describe, expect, it } from 'vitest';
import { processMemory, readStatusMemory } from './process-memory.js';

describe('a native process memory from /proc', () => {
  it('reads VmRSS and RssAnon in bytes', () => {
    const status = 'Name:\tgateway\nVmRSS:\t  204800 kB\nRssAnon:\t   51200 kB\nRssFile:\t  153600 kB\n';
    expect(readStatusMemory(status)).toEqual({ rssBytes: 204800 * 1024, rssAnonBytes: 51200 * 1024 });
  });

  it('has nothing resident for a process without VmRSS (a zombie)', () => {
    expect(readStatusMemory('Name:\tgone\nState:\tZ (zombie)\n')).toBeNull();
  });

  it('reads this process: RssAnon within RSS, and grows when it touches 64 MB of new memory', () => {
    const before = processMemory([process.pid]);
    expect(before.rssAnonBytes).toBeGreaterThan(0);
    expect(before.rssAnonBytes!).toBeLessThanOrEqual(before.rssBytes);
    const held = Buffer.alloc(64 << 20, 1);
    const after = processMemory([process.pid]);
    expect(after.rssAnonBytes! - before.rssAnonBytes!).toBeGreaterThan(60 << 20);
    expect(held.length).toBe(64 << 20);
  });

  it('skips a pid that does not exist', () => {
    expect(processMemory([2 ** 22 + 7])).toEqual({ rssBytes: 0, rssAnonBytes: 0 });
  });
});
