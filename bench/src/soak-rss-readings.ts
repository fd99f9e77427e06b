#!/usr/bin/env node
// Which reading of "memory outside the JS heap" is steady enough to judge a soak by (backs
// docs/validation/soak.md)? Reads soaks' results.json (no machine needed) and, for each candidate reading
// (at the calm after the forced GC, or the mean or maximum of an interval's samples under load),
// in the intervals after the warm-up, prints its Theil–Sen slope in bytes per successful
// request with Sen's 90% interval, and its scatter around that line (median absolute residual).
// A reading whose interval is narrow on a clean gateway can hold a threshold in 30 minutes.
//
//   node bench/dist/soak-rss-readings.js profiles/soak-…/results.json [more results.json …] [--until-minutes 30]
import { readFileSync } from 'node:fs';
import { benchArgs } from './args.js';
import { median, rssNetOfHeap, rssNetOfHeapUnderLoad, theilSen, type TrendPoint } from '@gwprof/analysis';
import type { SoakCalm, SoakInterval, SoakResult } from '@gwprof/results';

const { values, positionals } = benchArgs({ allowPositionals: true, options: { 'until-minutes': { type: 'string' } } }, { usage: 'results.json …', min: 1 });
const untilSec = values['until-minutes'] ? Number(values['until-minutes']) * 60 : Infinity;

const MB = 1e6;
/** Each candidate: bytes outside the JS heap in an interval, or null when the results lack the fields. */
const READINGS: Record<string, (interval: SoakInterval, calm: SoakCalm) => number | null> = {
  'calm: rss − heapTotal': (_, c) => rssNetOfHeap(c),
  'calm: RssAnon − heap physical': (_, c) => (c.rssAnonBytes == null || c.heapPhysicalBytes === undefined ? null : c.rssAnonBytes - c.heapPhysicalBytes),
  'calm: heapTotal − heap physical': (_, c) => (c.heapPhysicalBytes === undefined ? null : c.heapTotalBytes - c.heapPhysicalBytes),
  'load, mean: rss − heapTotal': rssNetOfHeapUnderLoad,
  'load, mean: rss': (i) => (i.gateway ? i.gateway.mean.rssBytes : null),
  'load, max: rss': (i) => (i.gateway ? i.gateway.max.rssBytes : null),
};

const row = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
console.log(row(['soak', 'calms', 'reading', 'range MB', 'B/req [90%]', 'median |residual| MB']));
console.log(row(Array(6).fill('---')));
for (const file of positionals) {
  const soak = JSON.parse(readFileSync(file, 'utf8')) as SoakResult;
  const intervals = soak.intervals.filter((i) => i.calm && i.calm.atSec >= soak.config.warmupSec && i.calm.atSec <= untilSec);
  const calms = intervals.map((i) => i.calm!);
  if (calms.length < 3) continue;
  const okPerHour = (calms.at(-1)!.okRequestsSoFar - calms[0]!.okRequestsSoFar) / ((calms.at(-1)!.atSec - calms[0]!.atSec) / 3600);
  const perRequest = (mbPerHour: number | null) => (mbPerHour === null ? '–' : ((mbPerHour * MB) / okPerHour).toFixed(1));
  for (const [name, read] of Object.entries(READINGS)) {
    const points: TrendPoint[] = intervals.flatMap((i) => {
      const c = i.calm!;
      const y = read(i, c);
      return y === null ? [] : [{ x: c.atSec / 3600, y: y / MB }];
    });
    if (points.length < 3) continue;
    const fit = theilSen(points, 0.9);
    const residual = median(points.map((p) => Math.abs(p.y - (fit.intercept + fit.slope * p.x))));
    const ys = points.map((p) => p.y);
    console.log(
      row([
        soak.runId,
        points.length,
        name,
        `${Math.min(...ys).toFixed(0)}–${Math.max(...ys).toFixed(0)}`,
        `${perRequest(fit.slope)} [${perRequest(fit.lower)}, ${perRequest(fit.upper)}]`,
        residual.toFixed(1),
      ]),
    );
  }
}
