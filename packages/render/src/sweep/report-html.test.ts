import { describe, expect, it } from 'vitest';
import { findExternalResourceLoads } from '../test-fixtures/external-resources.js';
import { renderReportHtml } from './report-html.js';
import { makeRunFixture } from '../test-fixtures/run-fixture.js';
import { sweepOutcome } from '@gwprof/analysis';

describe('renderReportHtml', () => {
  const run = makeRunFixture();
  const html = renderReportHtml(run);

  it('renders gateway messages, env values and names as text, never as markup', () => {
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).not.toContain('<img src=x onerror=alert(1)>');
    expect(html).not.toMatch(/<img\b/i);
    expect(html).toContain('HTTP 500 &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('HTTP 502 &lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('mesh&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('Fake CPU &lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('runs no script and loads nothing from the network', () => {
    expect(html).not.toMatch(/<script\b/i);
    // An event handler attribute inside a tag (the escaped text "onerror=" is fine: it is not in a tag).
    expect(/<[^>]*\son\w+\s*=/i.test(html)).toBe(false);
    expect(findExternalResourceLoads(html)).toEqual([]);
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).toContain('Content-Security-Policy');
  });

  it('has the elements the browser tests look for', () => {
    for (const id of ['throughput-chart', 'latency-chart', 'buckets-chart', 'steps-table', 'failures', 'capacity', 'environment']) {
      expect(html, id).toContain(`id="${id}"`);
    }
    const links = [...html.matchAll(/<a class="flamegraph-link" href="([^"]+)">/g)].map((m) => m[1]);
    expect(links).toEqual(['step-10.flame.html', 'step-100.flame.html', 'step-1000.flame.html']);
    expect(html).toContain('<a class="cpuprofile-link" href="step-10.cpuprofile">');
  });

  it('marks the failed step row and shows its failures with samples', () => {
    expect(html).toMatch(/<tr class="failed" data-level="1000" data-status="failed"><td class="num">1000<\/td><td><span class="status-failed">FAILED<\/span>/);
    const failures = html.slice(html.indexOf('id="failures"'), html.indexOf('id="buckets"'));
    expect(failures).toContain('non2xx</b> ×900');
    expect(failures).toContain('Key-order warnings');
  });

  it('marks the knee on the throughput chart, plots the USL fit, and shows capacity notes', () => {
    const chart = html.slice(html.indexOf('id="throughput-chart"'), html.indexOf('</svg>', html.indexOf('id="throughput-chart"')));
    expect(chart).toContain('knee c=100');
    expect(chart).toContain('data-series="USL fit"');
    expect(html).toContain('maximum concurrency: no level met the success target');
    expect(html).toContain('not determined (see notes)');
  });

  it('draws a stacked bar per profiled step and says "no samples" for the empty one', () => {
    const chart = html.slice(html.indexOf('id="buckets-chart"'), html.indexOf('</svg>', html.indexOf('id="buckets-chart"')));
    expect(chart.match(/<g class="bar"/g)).toHaveLength(2);
    expect(chart).toContain('data-bucket="myPlugin"');
    expect(chart).toContain('no samples');
  });

  it('does not link paths that are not plain relative paths', () => {
    expect(html).not.toContain('javascript:');
  });

  it('renders a run without steps, buckets or capacity', () => {
    const empty = { ...makeRunFixture(), steps: [], state: 'failed' as const, error: 'port 4001 in use' };
    empty.analysis = { ...sweepOutcome(empty), rules: 'built-in', steps: [], capacity: null, rateCapacity: null };
    const page = renderReportHtml(empty);
    expect(page).toContain('NO STEPS COMPLETED (run failed)');
    expect(page).toContain('port 4001 in use');
    expect(page).toContain('No capacity analysis in this run.');
  });
});
