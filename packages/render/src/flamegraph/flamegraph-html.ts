/**
 * One self-contained flame graph page per profile: speedscope's bundle, its CSS (font inlined) and
 * the profile (base64) in a single HTML file that opens from file:// or any static server with no
 * request for another file.
 *
 * How the profile gets in: speedscope has a documented-by-its-CLI entry point, `#localProfilePath=X`,
 * on which it defines `window.speedscope.loadFileFromBase64(name, base64)` and then appends
 * `<script src="file:///X">` expecting that file to call it. A small loader that runs before the
 * bundle sets that hash and intercepts exactly that one script element: instead of loading a file it
 * calls loadFileFromBase64 with the profile embedded in this page. Nothing is fetched.
 */
import { escapeHtml, jsonForScript } from '../escape.js';
import { loadSpeedscopeAssets } from './speedscope-assets.js';

export interface FlameGraphOptions {
  title: string;
  /** File name speedscope shows and uses to pick the importer; defaults to "<title>.cpuprofile". */
  fileName?: string;
}

/** Marker path given to speedscope; the loader intercepts the script element that asks for it. */
const PROFILE_MARKER = 'gwprof-inline-profile';

/**
 * No network for anything: scripts only inline (speedscope needs eval for one optional importer
 * and wasm for demangling), fonts and images only data:/blob:, no connect to anywhere.
 */
export const FLAMEGRAPH_CSP =
  "default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval' 'wasm-unsafe-eval'; style-src 'unsafe-inline'; font-src data:; img-src data: blob:; connect-src data: blob:; worker-src blob:; form-action 'none'; base-uri 'none'";

const LOADER = `(function () {
  var data = JSON.parse(document.getElementById('gwprof-profile').textContent);
  var marker = ${JSON.stringify(PROFILE_MARKER)};
  var params = location.hash.replace(/^#/, '').split('&').filter(function (p) {
    return p !== '' && !/^(localProfilePath|profileURL)=/.test(p);
  });
  if (!params.some(function (p) { return /^title=/.test(p); })) params.push('title=' + encodeURIComponent(data.title));
  params.push('localProfilePath=' + marker);
  var hash = '#' + params.join('&');
  try { history.replaceState(null, '', hash); } catch (e) { location.hash = hash; }
  var head = document.head;
  var append = head.appendChild;
  head.appendChild = function (node) {
    var src = node && node.tagName === 'SCRIPT' ? node.getAttribute('src') || '' : '';
    if (src.slice(-marker.length) === marker) {
      head.appendChild = append;
      setTimeout(function () { window.speedscope.loadFileFromBase64(data.name, data.base64); }, 0);
      return node;
    }
    return append.call(head, node);
  };
})();`;

function defaultFileName(title: string): string {
  const safe = title.replace(/[^\w.-]+/g, '_').replace(/^_+|_+$/g, '') || 'profile';
  return safe.endsWith('.cpuprofile') ? safe : `${safe}.cpuprofile`;
}

/**
 * A flame graph page for a parsed .cpuprofile (V8/Chrome format), or for the bytes of any file
 * speedscope reads (a gzipped pprof profile, for instance).
 */
export function renderFlameGraphHtml(profile: object | Uint8Array, opts: FlameGraphOptions): string {
  const assets = loadSpeedscopeAssets();
  const bytes = profile instanceof Uint8Array ? Buffer.from(profile) : Buffer.from(JSON.stringify(profile), 'utf8');
  const base64 = bytes.toString('base64');
  const data = { name: opts.fileName ?? defaultFileName(opts.title), title: opts.title, base64 };
  // The bundle must stay the body's last element: speedscope renders by replacing it.
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(FLAMEGRAPH_CSP)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="generator" content="gwprof, speedscope ${escapeHtml(assets.version)}">
<title>${escapeHtml(opts.title)} - flame graph</title>
<link rel="icon" href="data:,">
<style>${assets.css}</style>
</head>
<body>
<noscript><p style="font:14px sans-serif;padding:16px">This flame graph (${escapeHtml(opts.title)}) is drawn by speedscope and needs JavaScript. The profile is embedded in this file; Chrome DevTools (Performance panel) can also open the step's .cpuprofile.</p></noscript>
<script type="application/json" id="gwprof-profile">${jsonForScript(data)}</script>
<script>${LOADER}</script>
<script>${assets.script}</script>
</body>
</html>
`;
}
