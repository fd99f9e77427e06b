import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { totalOfDump } from './callgrind.js';

describe('totalOfDump', () => {
  it('reads the total from the end of a dump far larger than what it reads', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gwprof-dump-'));
    const file = path.join(dir, 'callgrind.out.1');
    const body = 'fn=(1) f\n0 1\n'.repeat(200_000);
    writeFileSync(file, `events: Ir\nsummary: 0\n${body}totals: 123456789\n`);
    expect(totalOfDump(file)).toBe(123456789);
  });

  it('says null for a dump not yet complete', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gwprof-dump-'));
    const file = path.join(dir, 'callgrind.out.2');
    writeFileSync(file, 'events: Ir\nfn=(1) f\n0 1\n');
    expect(totalOfDump(file)).toBeNull();
  });
});
