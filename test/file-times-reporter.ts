import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

/** One test file's seconds, as scripts/test-times.mjs reads them. */
export interface FileTime {
  file: string;
  /** Import, setup, every test and every hook (a `beforeAll` that starts a gateway included). */
  seconds: number;
  tests: number;
  state: string;
}

/**
 * Each file's whole time beside vitest's JSON report (`vitest.json` → `vitest.files.json`). The JSON
 * report times a file from its first test's start to its last test's end, so a file whose
 * `beforeAll` builds or starts a gateway showed 0.1 s for 17 s of work.
 */
export default class FileTimesReporter implements Reporter {
  private outputFile: string | undefined;
  private readonly times: FileTime[] = [];

  onInit(vitest: Vitest): void {
    const configured = vitest.config.outputFile;
    const json = typeof configured === 'string' ? configured : configured?.json;
    this.outputFile = json === undefined ? undefined : path.resolve(vitest.config.root, json.replace(/\.json$/, '.files.json'));
  }

  onTestModuleEnd(testModule: TestModule): void {
    const d = testModule.diagnostic();
    const ms = d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration;
    this.times.push({
      file: testModule.moduleId,
      seconds: ms / 1000,
      tests: [...testModule.children.allTests()].length,
      state: testModule.state(),
    });
  }

  onTestRunEnd(): void {
    if (this.outputFile === undefined) return;
    mkdirSync(path.dirname(this.outputFile), { recursive: true });
    writeFileSync(this.outputFile, `${JSON.stringify(this.times, null, 1)}\n`);
  }
}
