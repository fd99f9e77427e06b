import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { nearestName, unknownHelpTopic } from './help-topic.js';

const program = new Command('gwprof').addCommand(new Command('sweep')).addCommand(new Command('compare')).addCommand(new Command('bisect'));

describe('gwprof help <name>', () => {
  it('names a typo and the nearest command', () => {
    expect(unknownHelpTopic(program, ['help', 'sweepp'])?.message).toBe("no command named 'sweepp': did you mean sweep? (gwprof help lists them)");
    expect(unknownHelpTopic(program, ['help', 'comapre'])?.message).toMatch(/did you mean compare\?/);
  });

  it('names no command when none is near, and leaves a known command or bare help alone', () => {
    expect(unknownHelpTopic(program, ['help', 'xyz'])?.message).toBe("no command named 'xyz' (gwprof help lists them)");
    expect(unknownHelpTopic(program, ['help', 'sweep'])).toBeNull();
    expect(unknownHelpTopic(program, ['help'])).toBeNull();
    expect(unknownHelpTopic(program, ['sweep', '-c', '10'])).toBeNull();
  });

  it('finds the nearest name by edits, a swap of neighbours counting one', () => {
    expect(nearestName('bisetc', ['sweep', 'bisect'])).toBe('bisect');
    expect(nearestName('swep', ['sweep', 'soak'])).toBe('sweep');
    expect(nearestName('report', ['sweep'])).toBeNull();
  });
});
