#!/usr/bin/env node
// Which reading of "memory outside the JS heap" is steady enough to judge a soak by (backs
// docs/soak.md)? Reads soaks' results.json (no machine needed) and, for each candidate reading
// taken at the calms after the warm-up, prints its Theil–Sen slope in bytes per successful
// request with Sen's 90% interval, and its scatter around that line (median absolute residual).
// A reading whose interval is narrow on a clean gateway can hold a threshold in 30 minutes.
//
//   node bench/dist/soak-rss-readings.js profiles/soak-…/results.json [more results.json …] [--until-minutes 30]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { calmsAfterWarmup, theilSen, type TrendPoint } from '@gwprof/analysis';
import type { SoakCalm, SoakResult } from '@gwprof/results';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { 'until-minutes': { type: 'string' } } });
const untilSec = values['until-minutes'] ? Number(values['until-minutes']) * 60 : Infinity;

const MB = 1e6;
/** Each candidate: bytes outside the JS heap at a calm, or null when the results lack the fields. */
const READINGS: Record<string, (calm: SoakCalm) => number | null> = {
  'rss − heapTotal': (c) => c.rssBytes - c.heapTotalBytes,
  'rss − heap physical': (c) => (c.heapPhysicalBytes === undefined ? null : c.rssBytes - c.heapPhysicalBytes),
  'RssAnon − heap physical': (c) => (c.rssAnonBytes == null || c.heapPhysicalBytes === undefined ? null : c.rssAnonBytes - c.heapPhysicalBytes),
  'RssAnon − heap physical − external': (c) => (c.rssAnonBytes == null || c.heapPhysicalBytes === undefined ? null : c.rssAnonBytes - c.heapPhysicalBytes - c.externalBytes),
  'heapTotal − heap physical': (c) => (c.heapPhysicalBytes === undefined ? null : c.heapTotalBytes - c.heapPhysicalBytes),
};

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const row = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
console.log(row(['soak', 'calms', 'reading', 'range MB', 'B/req [90%]', 'median |residual| MB']));
console.log(row(Array(6).fill('---')));
for (const file of positionals) {
  const soak = JSON.parse(readFileSync(file, 'utf8')) as SoakResult;
  const calms = calmsAfterWarmup(soak.intervals, soak.config.warmupSec).filter((c) => c.atSec <= untilSec);
  if (calms.length < 3) continue;
  const okPerHour = (calms.at(-1)!.okRequestsSoFar - calms[0]!.okRequestsSoFar) / ((calms.at(-1)!.atSec - calms[0]!.atSec) / 3600);
  const perRequest = (mbPerHour: number | null) => (mbPerHour === null ? '–' : ((mbPerHour * MB) / okPerHour).toFixed(1));
  for (const [name, read] of Object.entries(READINGS)) {
    const points: TrendPoint[] = calms.flatMap((c) => {
      const y = read(c);
      return y === null ? [] : [{ x: c.atSec / 3600, y: y / MB }];
    });
    if (points.length < 3) continue;
    const fit = theilSen(points, 0.9);
    const residual = median(points.map((p) => Math.abs(p.y - (fit.intercept + fit.slope * p.x))));
    const ys = points.map((p) => p.y);
    console.log(row([soak.runId, points.length, name, `${Math.min(...ys).toFixed(0)}–${Math.max(...ys).toFixed(0)}`, `${perRequest(fit.slope)} [${perRequest(fit.lower)}, ${perRequest(fit.upper)}]`, residual.toFixed(1)]));
  }
}
