/**
 * Escaping for every string that comes from a run (gateway error messages, env values, command lines,
 * function names): all of it is untrusted text and must render as text, never as markup.
 */

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"'`]/g, (ch) => HTML_ESCAPES[ch] ?? ch);
}

/**
 * Escapes text for inline Markdown (table cells, list items). GitHub renders raw HTML in markdown, so
 * `<`, `>` and `&` become entities; inline markdown punctuation gets a backslash; a leading character
 * that would start a heading or list is escaped too; newlines would break a table row, so they are
 * flattened.
 */
export function escapeMarkdown(value: unknown): string {
  return (
    String(value)
      .replace(/\r?\n/g, ' ')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/([\\`*_[\]|~])/g, '\\$1')
      // A leading marker only starts a list, heading or rule when a space, the line's end or a run of
      // markers follows it, so numbers such as "100.0" or "-16.3" stay as they are.
      .replace(/^(\s*)([#+=-])(?=[\s#+=-]|$)/, '$1\\$2')
      .replace(/^(\s*\d{1,9})([.)])(?=\s|$)/, '$1\\$2')
  );
}

/**
 * Text for a markdown code span: backticks cannot be escaped inside one, so the fence grows instead.
 * Inside a table cell a pipe still ends the cell (GFM), so it takes a backslash there.
 */
export function markdownCode(value: unknown, inTable = false): string {
  const flat = String(value).replace(/\r?\n/g, ' ');
  const text = inTable ? flat.replace(/\|/g, '\\|') : flat;
  // An empty code span would render as two backticks: an empty cell stays empty.
  if (text === '') return '';
  let fence = '`';
  while (text.includes(fence)) fence += '`';
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/**
 * JSON for embedding inside `<script type="application/json">`: `<` is escaped so no value can close
 * the script element or open a comment; U+2028/2029 so it stays valid JavaScript too.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Untrusted text in a terminal: control characters could add lines, move the cursor or recolor. */
export function escapeTerminal(value: unknown): string {
  // eslint-disable-next-line no-control-regex
  return String(value)
    .replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
    .trim();
}
