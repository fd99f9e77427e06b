/**
 * A native gateway's allocator statistics, read at each calm from its Prometheus endpoint: Apollo
 * Router's jemalloc gauges (its exporter switched on, in a soak only, on a free loopback port), or
 * the metric a `cmd:` gateway names with --allocator-metric. The live bytes they give do not count
 * the freed pages an allocator keeps, which RssAnon does.
 */
import http from 'node:http';
import { GwprofError, type SoakAllocatorReading, type SoakAllocatorSource } from '@gwprof/results';
import { gatewayFromSpec } from '../gateways/index.js';
import { nativeSpec } from '../gateways/native-builds.js';
import { apolloRouterGateway } from '../gateways/native-routers.js';
import type { GatewayAdapter } from '../gateways/types.js';
import { freePort } from '../processes/ports.js';
import { gaugeValue, parseSamples, parseSelector } from './prometheus-text.js';

/** How long one reading of the endpoint may take. */
const READ_TIMEOUT_MS = 5_000;

/**
 * Apollo Router's jemalloc gauges (apollo.router.jemalloc.*, Linux builds since 2.5.0) as its
 * Prometheus exporter names them: dots to underscores, and no unit suffix (their unit is `bytes`,
 * which opentelemetry-prometheus 0.31 does not map to one: it maps `By`).
 */
export function apolloRouterJemalloc(port: number): SoakAllocatorSource {
  const gauge = (stat: string) => [`apollo_router_jemalloc_${stat}`];
  return {
    description: 'apollo-router jemalloc via its Prometheus endpoint',
    url: `http://127.0.0.1:${port}/metrics`,
    allocated: gauge('allocated'),
    resident: gauge('resident'),
    retained: gauge('retained'),
  };
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
const FLAG_FORM = '--allocator-metric takes http://127.0.0.1:PORT/PATH#METRIC (a Prometheus gauge of the live bytes, e.g. #jemalloc_allocated_bytes)';

/** --allocator-metric URL#METRIC: the source of a `cmd:` gateway's allocator statistics. */
export function allocatorMetricSource(flag: string): SoakAllocatorSource {
  const hash = flag.indexOf('#');
  if (hash < 0) throw new GwprofError(`${FLAG_FORM}: "${flag}" names no metric after #`);
  let url: URL;
  try {
    url = new URL(flag.slice(0, hash));
  } catch {
    throw new GwprofError(`${FLAG_FORM}: "${flag.slice(0, hash)}" is not a URL`);
  }
  if (url.protocol !== 'http:') throw new GwprofError(`${FLAG_FORM}: only http:// is read, not ${url.protocol}`);
  if (!LOOPBACK.has(url.hostname)) throw new GwprofError(`${FLAG_FORM}: the endpoint must be on loopback (127.0.0.1), not ${url.hostname}`);
  const selector = flag.slice(hash + 1);
  if (!parseSelector(selector)) throw new GwprofError(`${FLAG_FORM}: "${selector}" is not a metric name (with labels: name{label="value"})`);
  return { description: `${selector} at ${url.href} (--allocator-metric)`, url: url.href, allocated: [selector], resident: [], retained: [] };
}

/** The endpoint's text, or why it could not be read. */
function fetchText(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false, timeout: READ_TIMEOUT_MS }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => (response.statusCode === 200 ? resolve(body) : reject(new Error(`${url} answered ${response.statusCode}`))));
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`${url} did not answer within ${READ_TIMEOUT_MS / 1000} s`)));
    request.on('error', reject);
  });
}

/** One reading: the live bytes and, where published, resident and retained; an error instead of throwing. */
export async function readAllocatorStats(source: SoakAllocatorSource): Promise<SoakAllocatorReading> {
  let text: string;
  try {
    text = await fetchText(source.url);
  } catch (error) {
    return { allocatedBytes: null, residentBytes: null, retainedBytes: null, error: (error as Error).message };
  }
  const samples = parseSamples(text);
  const optional = (selectors: string[]) => {
    if (selectors.length === 0) return null;
    const read = gaugeValue(samples, selectors);
    return 'value' in read ? read.value : null;
  };
  const allocated = gaugeValue(samples, source.allocated);
  return {
    allocatedBytes: 'value' in allocated ? allocated.value : null,
    residentBytes: optional(source.resident),
    retainedBytes: optional(source.retained),
    error: 'error' in allocated ? allocated.error : null,
  };
}

/**
 * The gateway a soak starts, and where its allocator statistics are read: Apollo Router with its
 * Prometheus exporter on a free loopback port; a `cmd:` gateway at the endpoint it was given; any
 * other gateway has none gwprof reads.
 */
export async function soakGateway(
  spec: string,
  cwd: string | undefined,
  allocatorMetric: SoakAllocatorSource | null,
): Promise<{ adapter: GatewayAdapter; allocator: SoakAllocatorSource | null }> {
  if (allocatorMetric && !spec.startsWith('cmd:')) {
    throw new GwprofError(
      `--allocator-metric is for a cmd: gateway (apollo-router's jemalloc statistics are read without it; gwprof reads no allocator statistics of ${spec}): leave it out`,
    );
  }
  const native = nativeSpec(spec);
  if (native?.name === 'apollo-router') {
    const port = await freePort();
    return { adapter: apolloRouterGateway(native.version, { prometheusPort: port }), allocator: apolloRouterJemalloc(port) };
  }
  return { adapter: gatewayFromSpec(spec, cwd), allocator: allocatorMetric };
}
