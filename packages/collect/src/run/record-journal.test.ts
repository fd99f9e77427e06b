import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordHeader, RecordKind } from '@gwprof/results';
import { recordHeader } from './record-header.js';
import { recordJournal } from './record-journal.js';

describe('recordJournal', () => {
  it('saves each kind of record into its own file, as it stands at each save, and nothing else', () => {
    const files: Record<RecordKind, string> = { sweep: 'results.json', soak: 'results.json', compare: 'compare.json', bisect: 'bisect.json' };
    for (const [kind, file] of Object.entries(files) as [RecordKind, string][]) {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'gwprof-journal-'));
      const journal = recordJournal<RecordHeader<RecordKind> & { steps: number[] }>(dir, { ...recordHeader(kind, 'r1'), steps: [] });
      journal.save();
      journal.record.steps.push(1, 2);
      journal.save();
      expect(readdirSync(dir)).toEqual([file]);
      const saved = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
      expect({ kind: saved.kind, steps: saved.steps }).toEqual({ kind, steps: [1, 2] });
    }
  });
});
