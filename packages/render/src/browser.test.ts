/**
 * Opens the report and a flame graph in headless Chromium (Debian's /usr/bin/chromium through
 * playwright-core) from file://: they must render, log no error, run no injected script and request
 * nothing but the files themselves. `pnpm test` installs Debian's Chromium first when it is missing.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, type Page, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadLabel } from '@gwprof/results';
import { renderFlameGraphHtml } from './flamegraph-html.js';
import { renderReportHtml } from './report-html.js';
import { makeCpuProfile, makeRunFixture } from './test-fixtures/run-fixture.js';

const CHROMIUM = process.env.GWPROF_CHROMIUM ?? '/usr/bin/chromium';

interface PageLog {
  errors: string[];
  dialogs: string[];
  remoteRequests: string[];
  messages: string[];
}

function watch(page: Page): PageLog {
  const log: PageLog = { errors: [], dialogs: [], remoteRequests: [], messages: [] };
  page.on('console', (m) => {
    log.messages.push(m.text());
    if (m.type() === 'error') log.errors.push(m.text());
  });
  page.on('pageerror', (e) => log.errors.push(e.message));
  page.on('requestfailed', (r) => log.errors.push(`request failed: ${r.url()}`));
  page.on('request', (r) => {
    if (!/^(file|data|blob):/.test(r.url())) log.remoteRequests.push(r.url());
  });
  page.on('dialog', (d) => {
    log.dialogs.push(d.message());
    void d.dismiss();
  });
  return log;
}

describe('report and flame graph in headless Chromium', () => {
  let browser: Browser;
  let runDir: string;

  beforeAll(async () => {
    runDir = await mkdtemp(join(tmpdir(), 'gwprof-render-browser-'));
    const run = makeRunFixture();
    await writeFile(join(runDir, 'index.html'), renderReportHtml(run));
    for (const step of run.steps) {
      const profile = makeCpuProfile();
      await writeFile(join(runDir, `step-${step.id}.cpuprofile`), JSON.stringify(profile));
      await writeFile(join(runDir, `step-${step.id}.flame.html`), renderFlameGraphHtml(profile, { title: loadLabel(step.load), fileName: `step-${step.id}.cpuprofile` }));
    }
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('renders the report offline, with injected markup shown as text', async () => {
    const page = await browser.newPage();
    const log = watch(page);
    await page.goto(pathToFileURL(join(runDir, 'index.html')).href);
    for (const id of ['throughput-chart', 'latency-chart', 'buckets-chart', 'steps-table', 'failures', 'capacity', 'environment']) {
      await expect(page.locator(`#${id}`).isVisible(), id).resolves.toBe(true);
    }
    expect(await page.locator('#steps-table tbody tr').count()).toBe(3);
    expect(await page.locator('#steps-table tr.failed').innerText()).toContain('FAILED');
    expect(await page.locator('#throughput-chart circle').count()).toBeGreaterThanOrEqual(3);
    expect(await page.locator('#buckets-chart rect[data-bucket]').count()).toBeGreaterThan(10);
    const failures = await page.locator('#failures').innerText();
    expect(failures).toContain('HTTP 500 <script>alert(1)</script>');
    expect(failures).toContain('HTTP 502 <img src=x onerror=alert(1)>');
    expect(await page.locator('#failures img, #failures script').count()).toBe(0);
    expect(log.dialogs).toEqual([]);
    expect(log.errors).toEqual([]);
    expect(log.remoteRequests).toEqual([]);
    await page.close();
  }, 60_000);

  it("follows a step's flame graph link and speedscope draws the profile offline", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    const log = watch(page);
    await page.goto(pathToFileURL(join(runDir, 'index.html')).href);
    await page.locator('a.flamegraph-link').first().click();
    await page.waitForURL(/step-10\.flame\.html/);
    await page.waitForFunction(() => document.title.endsWith('- speedscope'), undefined, { timeout: 20_000 });
    await page.locator('canvas').first().waitFor({ timeout: 20_000 });
    // speedscope logs which importer it used once the profile is in.
    await expect.poll(() => log.messages.some((m) => m.includes('Importing as Chrome CPU Profile')), { timeout: 20_000 }).toBe(true);
    await page.waitForTimeout(500);
    expect(await page.title()).toBe('c=10 - speedscope');
    expect(await page.locator('body').innerText()).toContain('c=10');
    await page.screenshot({ path: join(tmpdir(), 'flame.png') });
    expect(log.errors).toEqual([]);
    expect(log.remoteRequests).toEqual([]);
    await page.close();
  }, 60_000);
});
