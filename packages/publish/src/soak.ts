/**
 * The publish pass of a soak: from results.json to the verdict (results.json's `analysis`: the
 * memory trends and the classes that grew in every snapshot diff), summary.md and index.html. The
 * live soak and `gwprof report` both call it.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readSoakResult, writeSoakResult, type SoakAnalysis, type SoakResult } from '@gwprof/results';
import { DEFAULT_LEAK_DESIGN, growingClasses, judgeSoak, leakingClasses } from '@gwprof/analysis';
import { renderSoakHtml, renderSoakMarkdown } from '@gwprof/render';

export interface PublishedSoak {
  soak: SoakResult;
  summary: string;
  report: string;
}

/** The memtest rule over the snapshots whose summary succeeded, in order. */
function classesThatGrew(soak: SoakResult): SoakAnalysis['growingClasses'] {
  const summaries = soak.snapshots.flatMap((s) => (s.classes ? [{ classes: s.classes }] : []));
  if (summaries.length < 3) return [];
  return leakingClasses(growingClasses(summaries)).slice(0, 10).map((c) => ({ name: c.name, counts: c.counts, retainedSizes: c.retainedSizes, growthBytes: c.growthBytes, retainerPath: c.retainerPath }));
}

export function analyzeSoak(soak: SoakResult): SoakAnalysis {
  const design = { ...DEFAULT_LEAK_DESIGN, warmupSec: soak.config.warmupSec, thresholdBytesPerRequest: soak.config.leakThresholdBytesPerRequest };
  return { ...judgeSoak(soak.intervals, soak.snapshots, design, soak.crash !== null), growingClasses: classesThatGrew(soak) };
}

export async function publishSoak(runDir: string): Promise<PublishedSoak> {
  const soak = readSoakResult(runDir);
  soak.analysis = analyzeSoak(soak);
  writeSoakResult(runDir, soak);
  const summary = path.join(runDir, 'summary.md');
  const report = path.join(runDir, 'index.html');
  await writeFile(summary, renderSoakMarkdown(soak));
  await writeFile(report, renderSoakHtml(soak));
  return { soak, summary, report };
}
