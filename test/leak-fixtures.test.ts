import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const fixtures = path.resolve(import.meta.dirname, '../fixtures/leaks');

/**
 * Runs a leak preload in a child node and hands it 20,000 'request' events of a bare http.Server
 * (the gateway never sees them): bytes per request by V8's own accounting after a full GC, in the
 * heap and outside it.
 */
function bytesPerRequest(fixture: string, leakBytes: number): { heap: number; external: number } {
  const script = `
    const v8 = require('node:v8'); const http = require('node:http');
    http.Server.prototype.emit = function () { return true; };
    require(${JSON.stringify(path.join(fixtures, fixture))});
    const server = new http.Server();
    const n = 20000;
    const measure = () => { global.gc(); return { heap: v8.getHeapStatistics().used_heap_size, external: process.memoryUsage().external }; };
    const before = measure();
    for (let i = 0; i < n; i++) server.emit('request', { url: ('/graphql?' + i).slice(0, 8) }, {});
    const after = measure();
    process.stdout.write(JSON.stringify({ heap: (after.heap - before.heap) / n, external: (after.external - before.external) / n }));
  `;
  const out = execFileSync(process.execPath, ['--expose-gc', '-e', script], {
    env: { ...process.env, LEAK_BYTES: String(leakBytes), NODE_OPTIONS: '' },
    encoding: 'utf8',
  });
  return JSON.parse(out) as { heap: number; external: number };
}

describe("planted leaks leak what they say, by V8's own count", () => {
  it('js-class: LEAK_BYTES of heap per request, also below the size of one record', () => {
    for (const leakBytes of [100, 1024, 20_000]) {
      const { heap } = bytesPerRequest('js-class.cjs', leakBytes);
      // The request's URL string (about 24 bytes) rides along with each record.
      expect(heap).toBeGreaterThan(leakBytes);
      expect(heap).toBeLessThan(leakBytes * 1.1 + 30);
    }
  });

  it('listener: about LEAK_BYTES of heap per request', () => {
    const { heap } = bytesPerRequest('listener.cjs', 1024);
    expect(heap).toBeGreaterThan(900);
    expect(heap).toBeLessThan(1300);
  });

  it('buffer: LEAK_BYTES outside the heap per request', () => {
    const { external, heap } = bytesPerRequest('buffer.cjs', 1024);
    expect(external).toBeGreaterThan(1020);
    expect(external).toBeLessThan(1100);
    expect(heap).toBeLessThan(400);
  });
});
