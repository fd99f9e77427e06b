import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import type { FileTime } from './file-times-reporter.js';

const root = path.resolve(import.meta.dirname, '..');
mkdirSync(path.join(root, 'test-results'), { recursive: true });
const out = mkdtempSync(path.join(root, 'test-results', 'reporter-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

it("counts a file's beforeAll in its time, which vitest's JSON report leaves out", async () => {
  const json = path.join(out, 'vitest.json');
  const config = path.join(out, 'vitest.config.mjs');
  writeFileSync(config, `export default { test: { include: ['test/fixtures/slow-before-all.check.ts'] } };\n`);
  await promisify(execFile)(
    process.execPath,
    [
      path.join(root, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      '--config',
      config,
      '--root',
      root,
      '--reporter=json',
      '--reporter=./test/file-times-reporter.ts',
      `--outputFile.json=${json}`,
    ],
    { cwd: root },
  );
  const report = JSON.parse(readFileSync(json, 'utf8'));
  const file = report.testResults[0];
  // The effect is the planted 1.5 s wait, against a test that takes well under a second.
  expect((file.endTime - file.startTime) / 1000).toBeLessThan(1);
  const times: FileTime[] = JSON.parse(readFileSync(path.join(out, 'vitest.files.json'), 'utf8'));
  expect(times).toHaveLength(1);
  expect(times[0]!.file).toBe(file.name);
  expect(times[0]!.seconds).toBeGreaterThanOrEqual(1.5);
  expect(times[0]!.tests).toBe(1);
  expect(times[0]!.state).toBe('passed');
});
