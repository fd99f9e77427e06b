/** A function as every table names it: its name, and where it is, shortened to the package. */
import type { TopFunction } from '@gwprof/results';

export function functionDisplayName(fn: Pick<TopFunction, 'functionName'>): string {
  return fn.functionName.trim() === '' ? '(anonymous)' : fn.functionName;
}

/**
 * Source location, shortened for reading: file:// dropped and everything before the last
 * node_modules/ cut, so "graphql/language/parser.js:120" names the package.
 */
export function functionLocation(fn: Pick<TopFunction, 'url' | 'line'>): string {
  if (!fn.url) return '';
  let url = fn.url.replace(/^file:\/\//, '');
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) url = url.slice(nm + 'node_modules/'.length);
  // TopFunction.line is already 1-based (0 when V8 gives none).
  return fn.line > 0 ? `${url}:${fn.line}` : url;
}
