import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { withGatewaySpans } from '../step/trace-spans.js';
import { type OtlpReceiver, startOtlpReceiver } from './otlp-receiver.js';
import { decodeTraceExport } from './otlp-spans.js';

const fixture = (name: string): Buffer => readFileSync(new URL(`../../../../fixtures/otlp/${name}`, import.meta.url));

describe('an OTLP trace export', () => {
  it('decodes the protobuf that OpenTelemetry JS writes: ids, names, kinds, times to the ns, parents, attributes', () => {
    const spans = decodeTraceExport(fixture('otel-js-export.pb'), false);
    expect(spans.map((span) => span.name)).toEqual(['POST /graphql', 'graphql.parse', 'subgraph.execute (reviews)', 'http.fetch']);
    const [root, parse, execute, fetch] = spans;
    expect(root!.traceId).toBe('0123456789abcdef0123456789abcdef');
    expect(root!.parentSpanId).toBe('');
    expect([root!.kind, parse!.kind, execute!.kind]).toEqual([2, 1, 3]);
    expect(parse!.parentSpanId).toBe('00000000000000a1');
    expect(fetch!.parentSpanId).toBe('00000000000000a3');
    // 1795937539090 ms + 18.125 ms, in ns.
    expect(execute!.endUnixNano).toBe(1795937539108125000n);
    expect(execute!.attributes).toEqual({ 'gateway.upstream.subgraph.name': 'reviews', 'http.status_code': 200 });
  });

  it('decodes the JSON Hive Gateway sent (hex ids, times as decimal strings)', () => {
    const spans = decodeTraceExport(fixture('hive-gateway-export.json'), true);
    expect(spans).toHaveLength(6);
    const root = spans.find((span) => span.name === 'POST /graphql')!;
    expect(root.kind).toBe(2);
    expect(root.parentSpanId).toBe('');
    expect(root.traceId).toBe('25c7d3e370653d81e342df6dec5466fe');
    const parse = spans.find((span) => span.name === 'graphql.parse')!;
    expect(parse.endUnixNano - parse.startUnixNano).toBe(230101n);
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);
  });
});

describe("gwprof's OTLP receiver", () => {
  let receiver: OtlpReceiver | null = null;
  afterEach(async () => {
    await receiver?.close();
    receiver = null;
  });

  it('takes protobuf, gzipped protobuf and JSON exports, answers each with success, and counts what does not decode', async () => {
    receiver = await startOtlpReceiver();
    const post = (body: Buffer, headers: Record<string, string>) =>
      fetch(`${receiver!.endpoint}/v1/traces`, { method: 'POST', body: new Uint8Array(body), headers });
    expect((await post(fixture('otel-js-export.pb'), { 'content-type': 'application/x-protobuf' })).status).toBe(200);
    expect((await post(gzipSync(fixture('otel-js-export.pb')), { 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' })).status).toBe(200);
    expect((await post(fixture('hive-gateway-export.json'), { 'content-type': 'application/json' })).status).toBe(200);
    expect((await post(Buffer.from('not json'), { 'content-type': 'application/json' })).status).toBe(400);
    const taken = receiver.take();
    expect(taken.spans).toHaveLength(4 + 4 + 6);
    expect(taken.rejected).toBe(1);
    expect(receiver.take().spans).toHaveLength(0);
  });
});

describe("a traced request's spans", () => {
  it('are placed on its own time axis by trace id, nested under their parents, the subgraph inherited from an ancestor', () => {
    const spans = decodeTraceExport(fixture('otel-js-export.pb'), false);
    const sample = {
      sampling: { perSecond: 25, perWindow: 500 },
      requests: [{ traceId: '0123456789abcdef0123456789abcdef', latencyMs: 21, calls: [] }],
      unlogged: [],
      droppedCalls: 0,
    };
    // The request began 1 ms (monotonic 5000) before the root span (wall 1795937539090); wall − monotonic = 1795937534090.
    const placed = withGatewaySpans(
      sample,
      [{ traceId: '0123456789abcdef0123456789abcdef', start: 4999, end: 5020 }],
      { spans, dropped: 0, rejected: 0 },
      1795937534090,
    );
    expect(placed.spans).toEqual({ received: 4, matched: 4, dropped: 0, rejected: 0 });
    const request = placed.requests[0]!;
    expect(request.spans!.map((span) => [span.name, span.kind, span.startMs, span.endMs, span.depth, span.parent, span.subgraph])).toEqual([
      ['POST /graphql', 'server', 1, 21.5, 0, null, undefined],
      ['graphql.parse', 'internal', 1.25, 1.75, 1, 0, undefined],
      ['subgraph.execute (reviews)', 'client', 3, 19.125, 1, 0, 'reviews'],
      ['http.fetch', 'client', 3.5, 19, 2, 2, 'reviews'],
    ]);
  });
});
