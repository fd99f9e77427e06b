/**
 * The one line of a gateway's own output that says why it stopped, for a one-line failure: the last
 * line that reports an error, else the last line with words in it. A CLI's closing boilerplate
 * (clap's "Usage: …" and "For more information, try '--help'.") and a bare stack frame say nothing
 * of the cause, so they are passed over.
 */

const ERROR_WORD = /\b(error|panic(ked)?|fatal|failed|failure|cannot|can't|unable|exception|denied|refused|not found|invalid|unexpected)\b/i;
const NOISE = [/^usage:/i, /^for more information/i, /^\s*at\s/, /^tip:/i, /^note: run with `RUST_BACKTRACE/i, /^[\s\-=~^|*.]*$/];
const MAX_CHARS = 200;

/** The text a structured log line carries (pino's msg, tracing's fields.message), or the line itself. */
function textOf(raw: string): string {
  const line = raw.trim();
  if (!line.startsWith('{')) return line;
  try {
    const record = JSON.parse(line) as { msg?: unknown; message?: unknown; err?: { message?: unknown }; fields?: { message?: unknown } };
    const parts = [record.msg ?? record.message ?? record.fields?.message, record.err?.message].filter((part) => typeof part === 'string' && part !== '');
    return parts.length > 0 ? parts.join(': ') : line;
  } catch {
    return line;
  }
}

/** Null when the lines hold nothing but blanks and boilerplate. */
export function lastMeaningfulLine(lines: readonly string[]): string | null {
  const texts = lines.map(textOf).filter((text) => text !== '' && !NOISE.some((noise) => noise.test(text)));
  let at = texts.length - 1;
  while (at >= 0 && !ERROR_WORD.test(texts[at]!)) at--;
  if (at < 0) at = texts.length - 1;
  if (at < 0) return null;
  // A line that ends in a colon announces the next one (a Rust panic's message follows its place).
  const chosen = texts[at]!.endsWith(':') && at + 1 < texts.length ? `${texts[at]} ${texts[at + 1]}` : texts[at]!;
  return chosen.length > MAX_CHARS ? `${chosen.slice(0, MAX_CHARS - 1)}…` : chosen;
}
