import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LEAK_DESIGN } from '@gwprof/analysis';
import type { SoakResult } from '@gwprof/results';
import { binaryTraits, sitesReason } from './allocation-sites.js';

const design = { ...DEFAULT_LEAK_DESIGN, warmupSec: 60 };

describe("what a native soak's allocation sites need to know before valgrind runs", () => {
  it('counts them when asked, and never after a crash, an empty soak or --sites never', () => {
    const finished = { crash: null, intervals: [{}], snapshots: [] } as unknown as SoakResult;
    expect(sitesReason(finished, 'always', design)).toBe('asked');
    expect(sitesReason(finished, 'never', design)).toBeNull();
    expect(sitesReason({ ...finished, crash: { atSec: 1, exitCode: 3, signal: null, logTail: [] } }, 'always', design)).toBeNull();
    expect(sitesReason({ ...finished, intervals: [] }, 'always', design)).toBeNull();
  });

  it('reads whether a binary is linked statically from its ELF header, and the allocator it links in from its symbols', () => {
    expect(binaryTraits(process.execPath).linkedStatically).toBe(false);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gwprof-binary-'));
    const script = path.join(dir, 'gateway.sh');
    writeFileSync(script, '#!/bin/sh\n# calls _rjem_malloc\n');
    expect(binaryTraits(script)).toEqual({ linkedStatically: null, allocator: 'jemalloc' });
    expect(binaryTraits(path.join(dir, 'missing'))).toEqual({ linkedStatically: null, allocator: null });
  });
});
