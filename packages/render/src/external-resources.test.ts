import { describe, expect, it } from 'vitest';
import { findExternalResourceLoads } from './test-fixtures/external-resources.js';

describe('findExternalResourceLoads', () => {
  it('finds elements, CSS and script calls that would load from the network', () => {
    const html = `
      <script src="https://cdn.example/x.js"></script>
      <link rel="stylesheet" href="//cdn.example/x.css">
      <img srcset="a.png 1x, https://img.example/b.png 2x">
      <iframe src='http://evil.example/'></iframe>
      <style>@font-face { src: url(https://fonts.example/f.woff2) } @import "https://x.example/a.css";</style>
      <div style="background: url('http://bg.example/a.png')"></div>
      <script>fetch("https://api.example/data"); new WebSocket('wss://ws.example'); xhr.open('GET', "https://x.example/y")</script>`;
    const urls = findExternalResourceLoads(html)
      .map((r) => r.url)
      .sort();
    expect(urls).toEqual(
      [
        '//cdn.example/x.css',
        'http://bg.example/a.png',
        'http://evil.example/',
        'https://api.example/data',
        'https://cdn.example/x.js',
        'https://fonts.example/f.woff2',
        'https://img.example/b.png',
        'https://x.example/a.css',
        'https://x.example/y',
        'wss://ws.example',
      ].sort(),
    );
  });

  it('ignores links, plain text and local or data: resources', () => {
    const html = `
      <a href="https://github.com/jlfwong/speedscope#usage">help</a>
      <p>see https://example.com for details</p>
      <script>const ns = "http://www.w3.org/2000/svg"; const help = {href: "https://github.com/x"};</script>
      <img src="data:image/png;base64,AAAA"><script src="speedscope.js"></script>
      <style>.x { background: url("data:font/woff2;base64,AAAA") } .y { background: url(./local.png) }</style>`;
    expect(findExternalResourceLoads(html)).toEqual([]);
  });
});
