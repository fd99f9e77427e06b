import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GwprofError } from '@gwprof/results';
import { allocatorMetricSource, apolloRouterJemalloc, readAllocatorStats, soakGateway } from './allocator-stats.js';
import { freePort } from '../processes/ports.js';

let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    if (request.url === '/metrics') {
      response.end(
        [
          '# TYPE apollo_router_jemalloc_allocated gauge',
          'apollo_router_jemalloc_allocated{otel_scope_name="apollo/router"} 41000000',
          'apollo_router_jemalloc_resident{otel_scope_name="apollo/router"} 70000000',
          'app_live_bytes 1234',
        ].join('\n'),
      );
    } else {
      response.statusCode = 404;
      response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("a native gateway's allocator statistics", () => {
  it("reads Apollo Router's jemalloc gauges: live and resident bytes, retained absent", async () => {
    const port = Number(new URL(base).port);
    const source = apolloRouterJemalloc(port);
    expect(source.description).toBe('apollo-router jemalloc via its Prometheus endpoint');
    expect(await readAllocatorStats(source)).toEqual({ allocatedBytes: 41e6, residentBytes: 70e6, retainedBytes: null, error: null });
  });

  it('reads the metric --allocator-metric names', async () => {
    const source = allocatorMetricSource(`${base}/metrics#app_live_bytes`);
    expect(source).toEqual({
      description: `app_live_bytes at ${base}/metrics (--allocator-metric)`,
      url: `${base}/metrics`,
      allocated: ['app_live_bytes'],
      resident: [],
      retained: [],
    });
    expect(await readAllocatorStats(source)).toEqual({ allocatedBytes: 1234, residentBytes: null, retainedBytes: null, error: null });
  });

  it('records why a reading failed instead of throwing: a metric absent, a status, nothing listening', async () => {
    const absent = await readAllocatorStats(allocatorMetricSource(`${base}/metrics#jemalloc_allocated`));
    expect(absent).toEqual({ allocatedBytes: null, residentBytes: null, retainedBytes: null, error: 'no metric jemalloc_allocated on the endpoint' });
    expect((await readAllocatorStats(allocatorMetricSource(`${base}/nothing#x`))).error).toBe(`${base}/nothing answered 404`);
    const closed = await freePort();
    expect((await readAllocatorStats(allocatorMetricSource(`http://127.0.0.1:${closed}/metrics#x`))).error).toMatch(/ECONNREFUSED/);
  });

  it('refuses a flag it cannot read, in one line naming the form', () => {
    const cases: Array<[string, RegExp]> = [
      ['http://127.0.0.1:9100/metrics', /names no metric after #/],
      ['127.0.0.1:9100/metrics#x', /is not a URL|only http:\/\/ is read/],
      ['https://127.0.0.1:9100/metrics#x', /only http:\/\/ is read, not https:/],
      ['http://10.0.0.5:9100/metrics#x', /must be on loopback \(127\.0\.0\.1\), not 10\.0\.0\.5/],
      ['http://127.0.0.1:9100/metrics#9x', /"9x" is not a metric name/],
    ];
    for (const [flag, message] of cases) {
      expect(() => allocatorMetricSource(flag)).toThrow(GwprofError);
      expect(() => allocatorMetricSource(flag)).toThrow(message);
      expect(() => allocatorMetricSource(flag)).toThrow(/^--allocator-metric takes http:\/\/127\.0\.0\.1:PORT\/PATH#METRIC/);
    }
  });

  it('takes --allocator-metric for a cmd: gateway only; Apollo Router gets its exporter on a free port without it', async () => {
    const source = allocatorMetricSource(`${base}/metrics#app_live_bytes`);
    await expect(soakGateway('grafbase', undefined, source)).rejects.toThrow(
      /--allocator-metric is for a cmd: gateway .*gwprof reads no allocator statistics of grafbase/,
    );
    expect((await soakGateway('cmd:./my-router', undefined, source)).allocator).toBe(source);
    expect((await soakGateway('hive-router', undefined, null)).allocator).toBeNull();
    const apollo = await soakGateway('apollo-router', undefined, null);
    expect(apollo.adapter.spec).toBe('apollo-router');
    expect(apollo.allocator!.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(apollo.allocator!.allocated).toEqual(['apollo_router_jemalloc_allocated']);
  });
});
