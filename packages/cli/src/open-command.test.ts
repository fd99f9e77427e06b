import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { latestRun, serveFolder } from './open-command.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'gwprof-open-'));
for (const run of ['2026-01-01T10-00-00-000-mesh', '2026-01-02T10-00-00-000-mesh']) {
  mkdirSync(path.join(root, run));
  writeFileSync(path.join(root, run, 'index.html'), `<h1>${run}</h1>`);
}
mkdirSync(path.join(root, '2026-01-03T10-00-00-000-unfinished'));
writeFileSync(path.join(os.tmpdir(), 'gwprof-secret.txt'), 'secret');

const server = await serveFolder(root, 0);
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
afterAll(() => server.close());

describe('gwprof open', () => {
  it('picks the newest run that has a report', () => {
    expect(latestRun(root)).toBe('2026-01-02T10-00-00-000-mesh');
    expect(latestRun(path.join(root, 'missing'))).toBeNull();
  });

  it('serves run files on loopback with their content type', async () => {
    const response = await fetch(`${base}/2026-01-02T10-00-00-000-mesh/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    expect(await response.text()).toContain('2026-01-02');
    expect((await fetch(`${base}/nope.html`)).status).toBe(404);
  });

  it('never serves files outside the profiles folder', async () => {
    const response = await fetch(`${base}/..%2Fgwprof-secret.txt`);
    expect([403, 404]).toContain(response.status);
    expect(await response.text()).not.toContain('secret');
  });
});
