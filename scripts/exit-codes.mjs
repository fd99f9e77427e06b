#!/usr/bin/env node
// Writes every command's exit-code table into README.md and docs/ between
// `<!-- exit-codes:COMMAND -->` and `<!-- /exit-codes -->`, from COMMAND_EXITS (results): the
// tables are generated, never typed; test/exit-codes.test.ts fails when one differs.
//
//   node scripts/exit-codes.mjs          (build first: pnpm build)
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { exitCodeBlocks, exitCodesMarkdown } from '../packages/results/dist/index.js';

const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
for (const file of ['README.md', 'docs/soak.md', 'docs/scenario-file.md', 'docs/compare.md']) {
  const full = path.join(root, file);
  const text = readFileSync(full, 'utf8');
  const written = exitCodeBlocks(text, exitCodesMarkdown);
  if (written !== text) {
    writeFileSync(full, written);
    process.stdout.write(`${file}: exit-code tables written\n`);
  }
}
