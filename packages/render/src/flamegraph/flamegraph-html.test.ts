import { describe, expect, it } from 'vitest';
import { findExternalResourceLoads } from '../test-fixtures/external-resources.js';
import { renderFlameGraphHtml } from './flamegraph-html.js';
import { makeCpuProfile } from '../test-fixtures/run-fixture.js';

describe('renderFlameGraphHtml', () => {
  const profile = makeCpuProfile();
  const html = renderFlameGraphHtml(profile, { title: 'c=10 </script><b>x</b>' });

  it('embeds the profile as base64', () => {
    const base64 = Buffer.from(JSON.stringify(profile)).toString('base64');
    expect(html).toContain(base64);
    const json = /<script type="application\/json" id="gwprof-profile">([^<]*)<\/script>/.exec(html)?.[1];
    const data = JSON.parse(json ?? 'null') as { name: string; base64: string };
    expect(JSON.parse(Buffer.from(data.base64, 'base64').toString('utf8'))).toEqual(profile);
    expect(data.name).toMatch(/\.cpuprofile$/);
  });

  it('inlines speedscope: no script, stylesheet, font or image is loaded from anywhere', () => {
    expect(html).not.toMatch(/<script[^>]*\ssrc=/i);
    expect(html).not.toMatch(/<link[^>]*rel="stylesheet"/i);
    expect(html).toContain('url("data:font/woff2;base64,');
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
    expect(style).toContain('@font-face');
    expect(/url\(\s*(?!["']?data:)/.test(style)).toBe(false);
    expect(html).not.toContain('sourceMappingURL');
    expect(html).toContain('loadFileFromBase64');
  });

  it('has no external resource load; remote URLs appear only as text in speedscope (links in its UI)', () => {
    expect(findExternalResourceLoads(html)).toEqual([]);
    const mentioned = new Set(html.match(/https?:\/\/[^\s"'`)<>\\]+/g) ?? []);
    for (const url of mentioned) {
      expect(url).toMatch(
        /^https?:\/\/(www\.w3\.org|github\.com\/jlfwong|www\.brendangregg\.com|en\.wikipedia\.org|www\.speedscope\.app\/file-format-schema\.json)/,
      );
    }
  });

  it('escapes the title and keeps every inline script intact', () => {
    expect(html).toContain('<title>c=10 &lt;/script&gt;&lt;b&gt;x&lt;/b&gt; - flame graph</title>');
    // Five script elements would be three if anything closed one early.
    expect(html.match(/<script\b/gi)).toHaveLength(3);
    expect(html.match(/<\/script>/gi)).toHaveLength(3);
    // The speedscope bundle must be the body's last element: it renders by replacing it.
    expect(html.trimEnd()).toMatch(/<\/script>\s*<\/body>\s*<\/html>$/);
  });
});
