/** The request streams the load-generator benchmarks use: the stub gateway's own request, or a named scenario's. */
import path from 'node:path';
import { SCENARIOS, loadScenario } from '@gwprof/collect';
import { repoRoot } from './common.js';

export function streamScenario(name: string): ReturnType<typeof loadScenario> {
  if (name === 'stub') return loadScenario({ query: path.join(repoRoot, 'fixtures/stub.graphql'), expect: path.join(repoRoot, 'fixtures/stub.expected.json') });
  const preset = SCENARIOS[name];
  if (!preset) throw new Error(`unknown stream ${name}: stub or ${Object.keys(SCENARIOS).join(', ')}`);
  return loadScenario(preset.files);
}
