import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Vitest's order (slowest or largest first), but the files that wait for a build test/global-setup.ts
 * started (k6, the native subgraphs) last: in a fresh clone the builds then run in the idle time
 * between the other files' loads instead of keeping the first end-to-end file waiting.
 */
const WAITS_FOR_A_BUILD = /(^|\/)(k6|native-gateways|native-subgraphs)\.test\.ts$/;

export default class BuildsLastSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const waits = (file: TestSpecification) => WAITS_FOR_A_BUILD.test(file.moduleId);
    return [...sorted.filter((file) => !waits(file)), ...sorted.filter(waits)];
  }
}
