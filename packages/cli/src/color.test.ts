import { afterEach, describe, expect, it } from 'vitest';
import { colorWanted } from './color.js';

describe('colorWanted', () => {
  const tty = process.stdout.isTTY;
  const noColor = process.env.NO_COLOR;
  afterEach(() => {
    process.stdout.isTTY = tty;
    if (noColor === undefined) delete process.env.NO_COLOR;
    else process.env.NO_COLOR = noColor;
  });

  it('colours a terminal unless --no-color or a non-empty NO_COLOR says otherwise', () => {
    process.stdout.isTTY = true;
    delete process.env.NO_COLOR;
    expect(colorWanted(true)).toBe(true);
    expect(colorWanted(false)).toBe(false);
    process.env.NO_COLOR = '1';
    expect(colorWanted(true)).toBe(false);
    process.env.NO_COLOR = '';
    expect(colorWanted(true)).toBe(true);
    process.stdout.isTTY = false;
    expect(colorWanted(true)).toBe(false);
  });
});
