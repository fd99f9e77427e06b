/**
 * Finds what in an HTML page would make a browser load something from the network. Used by tests
 * (here and in other packages) to prove a page opens offline.
 *
 * A resource load is: a src/href/srcset/data/poster/action/formaction attribute of an element that
 * fetches (script, link, img, iframe, source, audio, video, embed, object, form, use, image, input)
 * with an absolute http(s) or protocol-relative URL; a CSS url() or @import with one; a
 * fetch/XMLHttpRequest/import()/importScripts/WebSocket/EventSource/sendBeacon call given a remote
 * URL literal. Plain text that merely contains a URL (speedscope's UI has links to GitHub and its
 * help page; SVG/XHTML namespace strings) is not a load, and neither is an <a href>: a link is only
 * followed when a person clicks it.
 */

export interface ResourceLoad {
  kind: 'attribute' | 'css' | 'script-call';
  url: string;
  context: string;
}

const REMOTE = String.raw`(?:https?:)?\/\/[^\s"'<>)\\]+`;

const FETCHING_ELEMENTS = 'script|link|img|iframe|frame|source|audio|video|track|embed|object|form|use|image|input|body|table|td|th';
const ATTRIBUTES = 'src|href|xlink:href|srcset|data|poster|action|formaction|background|ping|manifest';

function contextAround(text: string, index: number): string {
  return text.slice(Math.max(0, index - 40), index + 80).replace(/\s+/g, ' ');
}

export function findExternalResourceLoads(html: string): ResourceLoad[] {
  const found: ResourceLoad[] = [];
  // Attributes of elements that fetch when parsed.
  const tagPattern = new RegExp(`<(?:${FETCHING_ELEMENTS})\\b[^>]*>`, 'gi');
  const attrPattern = new RegExp(`\\s(?:${ATTRIBUTES})\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'gi');
  for (const tag of html.matchAll(tagPattern)) {
    for (const attr of tag[0].matchAll(attrPattern)) {
      const value = (attr[1] ?? attr[2] ?? attr[3] ?? '').trim();
      const candidates = value.split(',').map((part) => part.trim().split(/\s+/)[0] ?? '');
      for (const url of candidates) {
        if (new RegExp(`^${REMOTE}`, 'i').test(url)) {
          found.push({ kind: 'attribute', url, context: contextAround(html, tag.index ?? 0) });
        }
      }
    }
  }
  // CSS url(...) and @import, in <style> blocks and style attributes alike.
  const cssPattern = new RegExp(`(?:url\\(\\s*["']?|@import\\s+["'])(${REMOTE})`, 'gi');
  for (const m of html.matchAll(cssPattern)) {
    found.push({ kind: 'css', url: m[1] ?? '', context: contextAround(html, m.index ?? 0) });
  }
  // Script calls handed a remote URL literal.
  const callPattern =
    /(?:fetch|importScripts|import|open|sendBeacon|WebSocket|EventSource|Worker)\s*\(\s*(?:["'`]|[^)]{0,40},\s*["'`])((?:https?|wss?):\/\/[^"'`\s]+)/g;
  for (const m of html.matchAll(callPattern)) {
    found.push({ kind: 'script-call', url: m[1] ?? '', context: contextAround(html, m.index ?? 0) });
  }
  return found;
}
