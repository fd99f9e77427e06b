/** Minimal ANSI styling for terminal tables; a no-op when color is off so output stays plain text. */

export interface TerminalOptions {
  /** ANSI colors (failed steps in red). Off by default so output is plain text. */
  color?: boolean;
}

export interface Painter {
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  bold(text: string): string;
  dim(text: string): string;
}

const wrap = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;

const COLOR: Painter = {
  red: wrap(31, 39),
  green: wrap(32, 39),
  yellow: wrap(33, 39),
  bold: wrap(1, 22),
  dim: wrap(2, 22),
};

const identity = (text: string) => text;
const PLAIN: Painter = { red: identity, green: identity, yellow: identity, bold: identity, dim: identity };

export function painter(color: boolean | undefined): Painter {
  return color ? COLOR : PLAIN;
}

// eslint-disable-next-line no-control-regex
const ANSI_PATTERN = /\u001b\[[0-9;]*m/g;

/** Width as seen on screen: escape sequences take no columns. */
export function visibleWidth(text: string): number {
  return [...text.replace(ANSI_PATTERN, '')].length;
}

export function stripAnsi(text: string): string {
  return text.replace(ANSI_PATTERN, '');
}
