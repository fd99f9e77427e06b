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
import { renderFlameGraphHtml } from './flamegraph/flamegraph-html.js';
import { renderReportHtml } from './sweep/report-html.js';
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

/**
 * Pixel counts of each clearly coloured RGB value in a PNG screenshot (max − min channel over 24),
 * largest first; decoded by the page's own browser.
 */
function colourPatches(page: Page, png: Buffer): Promise<number[]> {
  return page.evaluate(async (base64) => {
    const image = new Image();
    image.src = `data:image/png;base64,${base64}`;
    await image.decode();
    const canvas = new OffscreenCanvas(image.width, image.height);
    const context = canvas.getContext('2d')!;
    context.drawImage(image, 0, 0);
    const { data } = context.getImageData(0, 0, image.width, image.height);
    const counts = new Map<number, number>();
    for (let i = 0; i < data.length; i += 4) {
      const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
      const rgb = (r << 16) | (g << 8) | b;
      if (Math.max(r, g, b) - Math.min(r, g, b) > 24) counts.set(rgb, (counts.get(rgb) ?? 0) + 1);
    }
    return [...counts.values()].sort((x, y) => y - x);
  }, png.toString('base64'));
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
      await writeFile(
        join(runDir, `step-${step.id}.flame.html`),
        renderFlameGraphHtml(profile, { title: loadLabel(step.load), fileName: `step-${step.id}.cpuprofile` }),
      );
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
    expect(await page.locator('#steps-table tr.failed').textContent()).toContain('FAILED');
    expect(await page.locator('#throughput-chart circle').count()).toBeGreaterThanOrEqual(3);
    expect(await page.locator('#buckets-chart rect[data-bucket]').count()).toBeGreaterThan(10);
    const failures = await page.locator('#failures').textContent();
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
    expect(await page.locator('body').textContent()).toContain('c=10');
    // speedscope drew the profile: its flame chart and minimap fill each frame with a colour of its
    // own, where the axes, grid, text and background are grey. Each of the three frames (main,
    // parseDocument, the collector) covers thousands of pixels at 1280×720; with nothing drawn, the
    // only colour is the toolbar's selected button (about 1,400 pixels).
    const framePatches = async () => (await colourPatches(page, await page.screenshot())).filter((pixels) => pixels >= 3_000).length;
    await expect.poll(framePatches, { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
    expect(log.errors).toEqual([]);
    expect(log.remoteRequests).toEqual([]);
    await page.close();
  }, 60_000);
});
