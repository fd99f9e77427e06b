/**
 * speedscope's release build, read from node_modules at render time and made inlinable.
 *
 * What the 1.25.0 release holds (dist/release/): index.html, ONE IIFE bundle (speedscope-*.js), one
 * CSS file, a woff2 font the CSS references, favicons, a JFR-importer wasm and an example profile.
 * The bundle's "lazy" imports (the importers, Chrome .cpuprofile included) are esbuild
 * `Promise.resolve().then(() => init())` wrappers around code inside the same file, not chunk
 * files, so inlining the bundle inlines them. The only files it can fetch at run time are the JFR
 * wasm (Java Flight Recorder import only) and the example profile (landing page's "load example"
 * link): neither is reachable from a page that loads a .cpuprofile.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';

export interface SpeedscopeAssets {
  version: string;
  /** The bundle, safe to place inside an inline <script>. */
  script: string;
  /** The stylesheet with its font inlined as a data: URL. */
  css: string;
}

const MIME_BY_EXT: Record<string, string> = {
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.svg': 'image/svg+xml',
};

/** The hooks the flame graph page relies on; checked so a speedscope upgrade fails loudly here. */
const REQUIRED_BUNDLE_MARKERS = ['localProfilePath', 'loadFileFromBase64'];

export function speedscopeReleaseDir(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('speedscope/package.json')), 'dist', 'release');
}

function attribute(html: string, pattern: RegExp, what: string): string {
  const match = pattern.exec(html);
  if (!match?.[1]) throw new Error(`speedscope release index.html: cannot find the ${what}`);
  return match[1];
}

/** CSS url(...) references to files next to it become data: URLs. */
function inlineCssUrls(css: string, dir: string): string {
  return css.replace(/url\(\s*(["']?)([^"')]+)\1\s*\)/g, (whole, _quote: string, ref: string) => {
    if (/^(data:|#)/.test(ref)) return whole;
    if (/^[a-z][a-z0-9+.-]*:/i.test(ref)) {
      throw new Error(`speedscope CSS references a remote resource: ${ref}`);
    }
    const mime = MIME_BY_EXT[extname(ref).toLowerCase()] ?? 'application/octet-stream';
    const data = readFileSync(join(dir, ref)).toString('base64');
    return `url("data:${mime};base64,${data}")`;
  });
}

/** JS text that cannot end its inline <script> early and does not ask devtools for a source map. */
export function inlineScriptSafe(js: string): string {
  return js.replace(/\n\/\/# sourceMappingURL=\S*\s*$/, '\n').replace(/<\/(script)/gi, '<\\/$1');
}

export function inlineStyleSafe(css: string): string {
  return css.replace(/\/\*# sourceMappingURL=[^*]*\*\/\s*$/, '').replace(/<\/(style)/gi, '<\\/$1');
}

let cached: SpeedscopeAssets | undefined;

export function loadSpeedscopeAssets(): SpeedscopeAssets {
  if (cached) return cached;
  const dir = speedscopeReleaseDir();
  const pkg = JSON.parse(readFileSync(join(dir, '..', '..', 'package.json'), 'utf8')) as { version: string };
  const index = readFileSync(join(dir, 'index.html'), 'utf8');
  const scriptFile = attribute(index, /<script[^>]*\ssrc="([^"]+)"/, 'bundle <script src>');
  const cssFile = attribute(index, /<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/, 'stylesheet <link>');
  const script = readFileSync(join(dir, scriptFile), 'utf8');
  for (const marker of REQUIRED_BUNDLE_MARKERS) {
    if (!script.includes(marker)) {
      throw new Error(`speedscope ${pkg.version}: bundle lacks "${marker}"; the flame graph page was written for 1.25.0`);
    }
  }
  cached = {
    version: pkg.version,
    script: inlineScriptSafe(script),
    css: inlineStyleSafe(inlineCssUrls(readFileSync(join(dir, cssFile), 'utf8'), dir)),
  };
  return cached;
}
