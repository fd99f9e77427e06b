import { describe, expect, it, vi } from 'vitest';
import { benchArgs, usageLine } from './args.js';

describe('usageLine', () => {
  it('lists every flag with its default, booleans bare, and says where they are described', () => {
    const line = usageLine('simulate-sequential', {
      allowPositionals: true,
      options: { runs: { type: 'string', default: '5000' }, label: { type: 'string' }, markdown: { type: 'boolean', default: false } },
    });
    expect(line).toBe('usage: node bench/dist/simulate-sequential.js [--runs 5000] [--label VALUE] [--markdown] [ARG…] (bench/README.md says what each does)');
  });

  it('names the positional arguments as the tool describes them', () => {
    const line = usageLine('window-order', { allowPositionals: true, options: { since: { type: 'string', default: '' } } }, { usage: 'FILE …', min: 1 });
    expect(line).toBe('usage: node bench/dist/window-order.js [--since VALUE] FILE … (bench/README.md says what each does)');
  });
});

describe('benchArgs', () => {
  it('parses known flags as parseArgs does', () => {
    const { values } = benchArgs({ args: ['--runs', '7'], options: { runs: { type: 'string', default: '5000' } } });
    expect(values.runs).toBe('7');
  });

  it('exits 2 with the usage when a positional argument the tool needs is missing', () => {
    const exit = vi.spyOn(process, 'exit').mockImplementation((code) => {
      throw new Error(`exit ${String(code)}`);
    });
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(() => benchArgs({ args: [], allowPositionals: true, options: {} }, { usage: 'FILE …', min: 1 })).toThrow('exit 2');
      expect(String(stderr.mock.calls[0]![0])).toMatch(/: needs FILE …\nusage: .* FILE …/);
    } finally {
      exit.mockRestore();
      stderr.mockRestore();
    }
  });
});
