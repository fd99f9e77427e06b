/**
 * Every relative link in the documentation resolves: README.md, CONTRIBUTING.md, docs/**\/*.md,
 * bench/README.md and the pages kept with the benchmarks' raw output (bench/results/**\/*.md).
 * A link `[text](target)` (or an image, or a reference definition `[id]: target`) outside fenced
 * code blocks and code spans must name a file or folder inside this repository; when it names a
 * markdown file (or only `#anchor`, the same file), the anchor must match one of that file's
 * headings by GitHub's slug rules.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');

interface Link {
  target: string;
  line: number;
}

/** The source's lines with fenced code blocks blanked (line numbers kept). */
function outsideFences(source: string): string[] {
  const lines = source.split('\n');
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of lines) {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === null && marker !== undefined) {
      fence = marker;
      out.push('');
    } else if (fence !== null) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
      out.push('');
    } else {
      out.push(line);
    }
  }
  return out;
}

/** Relative links of a markdown source, with their line numbers. */
function markdownLinks(source: string): Link[] {
  const links: Link[] = [];
  const prose = outsideFences(source).map((line) => line.replace(/(`+)(?:(?!\1).)+?\1/g, 'code'));
  prose.forEach((line, index) => {
    for (const match of line.matchAll(/\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g)) {
      links.push({ target: match[1]!, line: index + 1 });
    }
    const definition = /^\s{0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/.exec(line);
    if (definition) links.push({ target: definition[1]!, line: index + 1 });
  });
  return links.filter((link) => !/^[a-z][a-z0-9+.-]*:/i.test(link.target) && !link.target.startsWith('//'));
}

/** GitHub's anchor for a heading's text: lowercase, punctuation but '-' and '_' removed, spaces to '-'. */
function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images keep their text
    .replace(/<[^>]+>/g, '') // inline HTML
    .replace(/[`*]/g, '') // code and emphasis markers
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '').replace(/ /g, '-');
}

/** The anchors of a markdown file's headings (ATX and setext), duplicates numbered as GitHub does. */
function headingAnchors(source: string): Set<string> {
  const lines = outsideFences(source);
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  const add = (text: string) => {
    const slug = githubSlug(text);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  };
  for (const [index, line] of lines.entries()) {
    const atx = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (atx) {
      add(atx[1]!);
      continue;
    }
    const previous = index > 0 ? lines[index - 1]! : '';
    const previousIsText = previous.trim() !== '' && !/^\s{0,3}(#|[-*+>|]|\d+\.)/.test(previous);
    if (previousIsText && /^\s{0,3}(=+|-+)\s*$/.test(line)) add(previous);
  }
  return anchors;
}

/** What is wrong with the relative links of one markdown file: one message per broken link. */
function brokenLinks(file: string, root: string): string[] {
  const source = readFileSync(file, 'utf8');
  const problems: string[] = [];
  const where = (link: Link) => `${path.relative(root, file)}:${link.line}: ${link.target}`;
  for (const link of markdownLinks(source)) {
    const hash = link.target.indexOf('#');
    const rawPath = hash === -1 ? link.target : link.target.slice(0, hash);
    const anchor = hash === -1 ? null : decodeURIComponent(link.target.slice(hash + 1));
    let relativePath: string;
    try {
      relativePath = decodeURIComponent(rawPath.split('?')[0]!);
    } catch {
      problems.push(`${where(link)}: malformed path`);
      continue;
    }
    const resolved = relativePath === '' ? file : relativePath.startsWith('/') ? path.join(root, relativePath) : path.resolve(path.dirname(file), relativePath);
    const inside = path.relative(root, resolved);
    if (inside.startsWith('..') || path.isAbsolute(inside)) {
      problems.push(`${where(link)}: points outside the repository`);
      continue;
    }
    if (!existsSync(resolved)) {
      problems.push(`${where(link)}: no such file or folder`);
      continue;
    }
    if (anchor !== null && statSync(resolved).isFile() && resolved.endsWith('.md')) {
      if (!headingAnchors(readFileSync(resolved, 'utf8')).has(anchor)) problems.push(`${where(link)}: no heading with anchor #${anchor}`);
    }
  }
  return problems;
}

function markdownFilesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return markdownFilesUnder(full);
    return entry.isFile() && entry.name.endsWith('.md') ? [full] : [];
  });
}

/**
 * A page gwprof itself wrote into a run folder (a sweep's summary.md, a comparison's comment),
 * kept under bench/results/ as raw data: its links point into the run folder it was written in, which
 * is not kept, and raw data is not edited.
 */
function isCopiedRunPage(file: string, root: string): boolean {
  if (!path.relative(root, file).startsWith(path.join('bench', 'results') + path.sep)) return false;
  const firstLine = readFileSync(file, 'utf8').split('\n', 1)[0]!;
  return /^# gwprof run `/.test(firstLine) || /^## gwprof compare: /.test(firstLine);
}

/** README.md, CONTRIBUTING.md, every markdown file under docs/, bench/README.md and bench/results/ but copied run pages. */
function documentationFiles(root: string): string[] {
  const rootPages = ['README.md', 'CONTRIBUTING.md', path.join('bench', 'README.md')].map((name) => path.join(root, name));
  const folders = [path.join(root, 'docs'), path.join(root, 'bench', 'results')];
  const pages = [...rootPages, ...folders.filter((dir) => existsSync(dir)).flatMap((dir) => markdownFilesUnder(dir))];
  return pages.filter((f) => existsSync(f) && !isCopiedRunPage(f, root));
}

describe('documentation links', () => {
  const files = documentationFiles(repoRoot);

  it('checks README, CONTRIBUTING, the docs pages and the pages kept with raw output', () => {
    const names = files.map((f) => path.relative(repoRoot, f));
    expect(names).toEqual(
      expect.arrayContaining(['README.md', 'CONTRIBUTING.md', path.join('docs', 'methodology.md'), path.join('bench', 'results', 'README.md')]),
    );
    const linkCount = files.reduce((n, f) => n + markdownLinks(readFileSync(f, 'utf8')).length, 0);
    expect(linkCount).toBeGreaterThan(50);
  });

  it('resolves every relative link, and every anchor into a markdown file', () => {
    expect(files.flatMap((f) => brokenLinks(f, repoRoot))).toEqual([]);
  });
});

describe('the link checker', () => {
  it('reports a missing file, a missing anchor, a same-file anchor and a link out of the repository', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'gwprof-links-'));
    mkdirSync(path.join(root, 'docs'));
    writeFileSync(path.join(root, 'docs', 'target.md'), '# The `compare` command: usage, exit codes\n\n## Limits\n\n## Limits\n');
    writeFileSync(
      path.join(root, 'README.md'),
      [
        '# Top',
        '[ok](docs/target.md#the-compare-command-usage-exit-codes) [dup](docs/target.md#limits-1) [self](#top) [dir](docs/)',
        '[missing](docs/nope.md) [bad anchor](docs/target.md#usage) [bad self](#nowhere) [out](../elsewhere.md)',
        '![image](docs/missing.png) [site](https://example.com/x.md) `[code span](docs/gone.md)`',
        '```md',
        '[in a fence](docs/gone.md)',
        '```',
        '[ref]: docs/also-missing.md',
      ].join('\n'),
    );
    expect(brokenLinks(path.join(root, 'README.md'), root)).toEqual([
      'README.md:3: docs/nope.md: no such file or folder',
      'README.md:3: docs/target.md#usage: no heading with anchor #usage',
      'README.md:3: #nowhere: no heading with anchor #nowhere',
      'README.md:3: ../elsewhere.md: points outside the repository',
      'README.md:4: docs/missing.png: no such file or folder',
      'README.md:8: docs/also-missing.md: no such file or folder',
    ]);
  });

  it('slugs headings as GitHub does', () => {
    expect(githubSlug('What counts as a success')).toBe('what-counts-as-a-success');
    expect(githubSlug('`compare`: usage, exit codes, CI')).toBe('compare-usage-exit-codes-ci');
    expect(githubSlug('Little’s law (closed loop)')).toBe('littles-law-closed-loop');
    expect(githubSlug('M/D/1 and the freeze_test')).toBe('md1-and-the-freeze_test');
    expect(githubSlug('Gateways — side by side')).toBe('gateways--side-by-side');
  });
});
