/** Writes the k6 script and its data file for a scenario and a load. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { LoadShape } from '@gwprof/results';
import { isScenarioFile, loadRequests, type ScenarioSource } from '../run/scenario-source.js';
import { k6Data, k6Script } from './k6-script.js';

export interface K6ExportRequest {
  outDir: string;
  scenario: ScenarioSource;
  scenarioName: string;
  url: string;
  load: LoadShape;
  durationSec: number;
  timeoutSec: number;
}

/** The files written: the script and the data it loads (next to it). */
export function exportK6(request: K6ExportRequest): { script: string; data: string } {
  const scenario = loadRequests(request.scenario);
  mkdirSync(request.outDir, { recursive: true });
  const dataFile = 'gwprof-k6-data.json';
  const script = path.join(request.outDir, 'gwprof-k6.js');
  const data = path.join(request.outDir, dataFile);
  writeFileSync(data, k6Data(scenario));
  const from = isScenarioFile(request.scenario) ? request.scenario.path : request.scenario.query;
  const source = `${request.scenarioName} (${path.basename(from)}, ${scenario.requests.length} distinct requests)`;
  writeFileSync(script, k6Script({ url: request.url, load: request.load, durationSec: request.durationSec, timeoutSec: request.timeoutSec, dataFile, source }));
  return { script, data };
}
