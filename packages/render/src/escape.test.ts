import { describe, expect, it } from 'vitest';
import { escapeHtml, escapeMarkdown, escapeTerminal, jsonForScript, markdownCode } from './escape.js';
import { relativeHref } from './links.js';

describe('escaping', () => {
  it('escapeHtml escapes every character that could start markup or end an attribute', () => {
    expect(escapeHtml(`<img src=x onerror="alert('1')">&\``)).toBe('&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;&#96;');
  });

  it('escapeMarkdown neutralises HTML, emphasis, links, table pipes and leading list/heading markers', () => {
    expect(escapeMarkdown('<b>x</b> *y* [a](b) | c\nd')).toBe('&lt;b&gt;x&lt;/b&gt; \\*y\\* \\[a\\](b) \\| c d');
    expect(escapeMarkdown('# heading')).toBe('\\# heading');
    expect(escapeMarkdown('- item')).toBe('\\- item');
    expect(escapeMarkdown('1. item')).toBe('1\\. item');
    expect(escapeMarkdown('---')).toBe('\\---');
    expect(escapeMarkdown('2)')).toBe('2\\)');
    // Numbers are not markers: a table of figures stays readable as plain text.
    expect(escapeMarkdown('100.0')).toBe('100.0');
    expect(escapeMarkdown('-16.3')).toBe('-16.3');
    expect(escapeMarkdown('0.1.0')).toBe('0.1.0');
  });

  it('markdownCode grows its fence past backticks in the text', () => {
    expect(markdownCode('a`b')).toBe('``a`b``');
    expect(markdownCode('a|b', true)).toBe('`a\\|b`');
  });

  it('jsonForScript cannot close a script element', () => {
    const json = jsonForScript({ m: '</script><script>alert(1)</script>' });
    expect(json).not.toContain('<');
    expect(JSON.parse(json)).toEqual({ m: '</script><script>alert(1)</script>' });
  });

  it('escapeTerminal removes control characters', () => {
    expect(escapeTerminal('a\nb\u001b[31mc\r')).toBe('a b [31mc');
  });

  it('relativeHref accepts run-folder paths only', () => {
    expect(relativeHref('step-10.flame.html')).toBe('step-10.flame.html');
    expect(relativeHref('logs/gateway 1.log')).toBe('logs/gateway%201.log');
    expect(relativeHref('javascript:alert(1)')).toBeNull();
    expect(relativeHref('https://evil.example/')).toBeNull();
    expect(relativeHref('//evil.example/')).toBeNull();
    expect(relativeHref('/etc/passwd')).toBeNull();
  });
});
