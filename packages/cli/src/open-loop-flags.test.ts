import type { Command } from 'commander';
import { GwprofError } from '@gwprof/results';
import { describe, expect, it } from 'vitest';
import { compareCommand } from './compare-command.js';
import { soakCommand } from './soak-command.js';
import { sweepCommand } from './sweep-command.js';

/** Parses `args` as the command would, with an action that records the flags instead of running anything. */
async function parse(command: Command, args: string[]): Promise<Record<string, unknown>> {
  let flags: Record<string, unknown> = {};
  await command
    .exitOverride()
    .action((parsed: Record<string, unknown>) => {
      flags = parsed;
    })
    .parseAsync(args, { from: 'user' });
  return flags;
}

describe('open-loop flags in a closed loop', () => {
  it('refuses --slo and --arrivals on a sweep at --concurrency, in one line naming the fix', async () => {
    const refusal = parse(sweepCommand(), ['-c', '10,100', '--slo', 'p99=500ms', '--arrivals', 'uniform']);
    await expect(refusal).rejects.toThrow(GwprofError);
    await expect(parse(sweepCommand(), ['-c', '10', '--slo', 'p99=500ms'])).rejects.toThrow(
      '--slo shapes an open loop (--rate), and this sweep is a closed loop (--concurrency): leave it out, or give --rate instead',
    );
    await expect(parse(sweepCommand(), ['-c', '10', '--slo', 'p99=500ms', '--arrivals', 'uniform'])).rejects.toThrow(/^--slo and --arrivals shape/);
  });

  it('refuses them on compare and soak at --concurrency too', async () => {
    await expect(parse(compareCommand(), ['-c', '10', '--arrivals', 'uniform'])).rejects.toThrow(/--arrivals shapes an open loop/);
    await expect(parse(soakCommand(), ['-c', '10', '--arrivals', 'uniform'])).rejects.toThrow(/--arrivals shapes an open loop/);
  });

  it('takes them with --rate, and takes a closed loop whose open-loop flags keep their defaults', async () => {
    expect(await parse(sweepCommand(), ['--rate', '50,100', '--slo', 'p99=500ms', '--arrivals', 'uniform'])).toMatchObject({ arrivals: 'uniform' });
    expect(await parse(compareCommand(), ['--rate', '50', '--arrivals', 'uniform'])).toMatchObject({ rate: [50], arrivals: 'uniform' });
    expect(await parse(soakCommand(), ['--rate', '50', '--arrivals', 'uniform'])).toMatchObject({ rate: 50 });
    expect(await parse(sweepCommand(), ['-c', '10'])).toMatchObject({ concurrency: [10] });
  });
});
