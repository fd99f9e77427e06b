#!/usr/bin/env node
// Builds the native subgraphs (subgraphs-native/, with cargo) into gwprof's cache unless this
// state of their sources is built already: what a run in front of a native gateway does on first
// use. test/global-setup.ts starts it in the background at the lowest priority, so a fresh clone's
// tests find them built; cargo's lock on its target folder makes a second build wait for the first.
//   node scripts/ensure-native-subgraphs.mjs      (build first: pnpm build)
import { buildNativeSubgraphs } from '../packages/collect/dist/services/native-subgraphs.js';

try {
  const binary = await buildNativeSubgraphs({ onProgress: (line, final) => final && process.stderr.write(`${line}\n`) });
  process.stdout.write(`${binary}\n`);
} catch (error) {
  // The test that needs them says why; here only the reason, once.
  process.stderr.write(`native subgraphs not built: ${error.message}\n`);
  process.exitCode = 1;
}
