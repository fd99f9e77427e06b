/**
 * The publish pass of a soak: from results.json to the verdict (results.json's `analysis`: the
 * memory trends and the classes that grew in every snapshot diff), summary.md and index.html. The
 * live soak and `gwprof report` both call it.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readSoakResult, writeSoakResult, type SoakResult } from '@gwprof/results';
import { analyzeSoak } from '@gwprof/analysis';
import { renderSoakHtml, renderSoakMarkdown } from '@gwprof/render';

export interface PublishedSoak {
  soak: SoakResult;
  summary: string;
  report: string;
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
