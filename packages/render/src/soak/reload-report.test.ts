import { describe, expect, it } from 'vitest';
import type { SoakReloadAnalysis, SoakResult } from '@gwprof/results';
import { reloadHtml, reloadMarkdown, reloadTerminal } from './reload-report.js';

const reloads: SoakReloadAnalysis = {
  everySec: 15,
  made: 4,
  seen: 3,
  unseen: 1,
  swapFailed: 0,
  seenAfterSec: { median: 0.3, max: 0.7 },
  aroundReloads: { windows: 3, ok: 900, failed: 12, medianP99Ms: 60, maxP99Ms: 200 },
  withoutReloads: { windows: 20, ok: 9000, failed: 0, medianP99Ms: 20, maxP99Ms: 31 },
  p99Ratio: 3,
  effects: [
    { index: 0, atSec: 31.2, seenAfterSec: 0.7, failed: 0, ok: 300, p99Ms: 60, p99Ratio: 3 },
    { index: 2, atSec: 61.4, seenAfterSec: 0.3, failed: 12, ok: 288, p99Ms: 200, p99Ratio: 10 },
  ],
  memory: { series: 'rssAnonAfterCalm', beforeBytes: 50e6, afterBytes: 56e6, reloadsBy: 3, bytesPerReload: 2e6 },
};

const soak = {
  config: {
    reload: {
      everySec: 15,
      how: 'files',
      detail: ['/run/grafbase/products.graphql'],
      seenBy: { kind: 'introspection', field: 'gwprofReloadMarker' },
      window: { beforeSec: 1, afterSec: 4 },
      seenWithinSec: 7.5,
    },
  },
  analysis: { reloads },
} as unknown as SoakResult;

describe('the reload part of the soak report', () => {
  it('says how reloads were made and seen, what failed and slowed around them, and the memory after them', () => {
    const text = reloadTerminal(soak)!;
    expect(text).toContain('A swap every 15 s after the warm-up: its schema file rewritten (/run/grafbase/products.graphql)');
    expect(text).toContain('Reloads: 4 swaps made, 3 seen (served after 0.30 s median, 0.70 s at most); 1 not seen in time');
    expect(text).toContain(
      'Around the 3 seen reload(s) (windows of 5 s, 1 s before each): 12 failed of 912, p99 60.0 ms median, 200.0 ms at most: 3.00× the p99 without reloads.',
    );
    expect(text).toContain(
      'Memory (RssAnon after the calm): 50.0 MB at the last calm before the first reload, 56.0 MB at the last calm, after 3 seen reload(s): 6.00 MB, 2.00 MB per reload.',
    );
    // The worst window first: the one with failures.
    expect(text).toMatch(/The worst windows:\n.*\n.*\n\s+2\s+61\.4\s+0\.30\s+288\s+12\s+200\.0\s+10\.00×/);
    expect(reloadMarkdown(soak).join('\n')).toMatch(/## Reloads under load[\s\S]*\| 0 \| 31\.2 \| 0\.70 \| 300 \| 0 \| 60\.0 \| 3\.00× \|/);
    expect(reloadHtml(soak)).toMatch(/<section id="reloads"><h2>Reloads under load<\/h2>/);
  });

  it('says when a reload was served past its window', () => {
    const late = { ...soak, analysis: { reloads: { ...reloads, seenAfterSec: { median: 3, max: 5.5 } } } } as unknown as SoakResult;
    expect(reloadTerminal(late)).toContain('Some reloads were served 5.50 s after their swap, past their window');
    expect(reloadTerminal(soak)).not.toContain('past their window');
  });

  it('is absent from a soak without reloads', () => {
    const plain = { config: {}, analysis: {} } as unknown as SoakResult;
    expect(reloadTerminal(plain)).toBeNull();
    expect(reloadMarkdown(plain)).toEqual([]);
    expect(reloadHtml(plain)).toBe('');
  });
});
