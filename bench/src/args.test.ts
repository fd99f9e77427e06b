import { describe, expect, it } from 'vitest';
import { benchArgs, usageLine } from './args.js';

describe('usageLine', () => {
  it('lists every flag with its default, booleans bare, and says where they are described', () => {
    const line = usageLine('simulate-sequential', {
      allowPositionals: true,
      options: { runs: { type: 'string', default: '5000' }, label: { type: 'string' }, markdown: { type: 'boolean', default: false } },
    });
    expect(line).toBe('usage: node bench/dist/simulate-sequential.js [--runs 5000] [--label VALUE] [--markdown] [ARG…] (bench/README.md says what each does)');
  });
});

describe('benchArgs', () => {
  it('parses known flags as parseArgs does', () => {
    const { values } = benchArgs({ args: ['--runs', '7'], options: { runs: { type: 'string', default: '5000' } } });
    expect(values.runs).toBe('7');
  });
});
