/**
 * Links to files of the run folder. Paths come from results.json, so they are checked to be relative
 * (no scheme, no protocol-relative //, no absolute path): a link can never point off the machine or
 * run a javascript: URL.
 */
export function safeRelativePath(path: string | undefined | null): string | null {
  if (!path) return null;
  const trimmed = path.trim();
  if (trimmed === '' || /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(trimmed) || trimmed.startsWith('/') || trimmed.startsWith('\\')) {
    return null;
  }
  return trimmed;
}

/** Percent-encodes a relative path for use as a URL (href or markdown link target), keeping slashes. */
export function encodeRelativePath(path: string): string {
  return path
    .split(/[\\/]/)
    .map((segment) => encodeURIComponent(segment))
    .join('/');
}

/** A safe, encoded relative href, or null when the path is not a plain relative path. */
export function relativeHref(path: string | undefined | null): string | null {
  const safe = safeRelativePath(path);
  return safe === null ? null : encodeRelativePath(safe);
}
