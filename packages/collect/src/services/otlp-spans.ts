/**
 * The spans of an OTLP/HTTP trace export (`POST /v1/traces`), in either of the protocol's
 * encodings: binary protobuf (decoded by protobufjs from the OpenTelemetry project's own .proto
 * files, v1.9.0, kept in packages/collect/proto/) or JSON (the protocol's JSON mapping: ids as hex,
 * 64-bit times as decimal strings).
 */
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';

/** One span as the gateway exported it; times are the gateway's wall clock, ns since the epoch. */
export interface ExportedSpan {
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  startUnixNano: bigint;
  endUnixNano: bigint;
  /** String, number and boolean attributes. */
  attributes: Record<string, string | number | boolean>;
}

const PROTO_ROOT = fileURLToPath(new URL('../../proto/', import.meta.url));
const REQUEST_TYPE = 'opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest';

let requestType: protobuf.Type | null = null;

function exportRequestType(): protobuf.Type {
  if (!requestType) {
    const root = new protobuf.Root();
    // Imports in the .proto files are relative to the folder that holds opentelemetry/.
    root.resolvePath = (_origin, target) => (target.startsWith('/') ? target : PROTO_ROOT + target);
    root.loadSync('opentelemetry/proto/collector/trace/v1/trace_service.proto', { keepCase: false });
    requestType = root.lookupType(REQUEST_TYPE);
  }
  return requestType;
}

/** The spans of one export; `json` for `application/json`, else protobuf. Throws on a body that is neither. */
export function decodeTraceExport(body: Uint8Array, json: boolean): ExportedSpan[] {
  return json ? spansOfJson(JSON.parse(Buffer.from(body).toString('utf8'))) : spansOfProtobuf(body);
}

interface AnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string | { toString(): string };
  doubleValue?: number;
}

interface RawSpan {
  traceId?: Uint8Array | string;
  spanId?: Uint8Array | string;
  parentSpanId?: Uint8Array | string;
  name?: string;
  kind?: number | string;
  startTimeUnixNano?: { toString(): string } | string | number;
  endTimeUnixNano?: { toString(): string } | string | number;
  attributes?: { key: string; value?: AnyValue }[];
}

interface RawExport {
  resourceSpans?: { scopeSpans?: { spans?: RawSpan[] }[] }[];
}

function spansOfProtobuf(body: Uint8Array): ExportedSpan[] {
  const type = exportRequestType();
  // longs as strings: a 64-bit time in ns does not fit a double exactly.
  const message = type.toObject(type.decode(body), { longs: String, enums: Number, bytes: Array, defaults: false }) as RawExport;
  return spansOf(message, (id) => Buffer.from(id as unknown as number[]).toString('hex'));
}

function spansOfJson(message: RawExport): ExportedSpan[] {
  return spansOf(message, (id) => String(id).toLowerCase());
}

const KINDS: Record<string, number> = { SPAN_KIND_INTERNAL: 1, SPAN_KIND_SERVER: 2, SPAN_KIND_CLIENT: 3, SPAN_KIND_PRODUCER: 4, SPAN_KIND_CONSUMER: 5 };

function spansOf(message: RawExport, hex: (id: Uint8Array | string) => string): ExportedSpan[] {
  const spans: ExportedSpan[] = [];
  for (const resource of message.resourceSpans ?? [])
    for (const scope of resource.scopeSpans ?? [])
      for (const span of scope.spans ?? []) {
        spans.push({
          traceId: span.traceId ? hex(span.traceId) : '',
          spanId: span.spanId ? hex(span.spanId) : '',
          parentSpanId: span.parentSpanId ? hex(span.parentSpanId) : '',
          name: span.name ?? '',
          kind: typeof span.kind === 'string' ? (KINDS[span.kind] ?? 0) : (span.kind ?? 0),
          startUnixNano: BigInt(String(span.startTimeUnixNano ?? 0)),
          endUnixNano: BigInt(String(span.endTimeUnixNano ?? 0)),
          attributes: attributesOf(span.attributes ?? []),
        });
      }
  return spans;
}

function attributesOf(pairs: readonly { key: string; value?: AnyValue }[]): Record<string, string | number | boolean> {
  const attributes: Record<string, string | number | boolean> = {};
  for (const { key, value } of pairs) {
    if (!value) continue;
    if (value.stringValue !== undefined) attributes[key] = value.stringValue;
    else if (value.boolValue !== undefined) attributes[key] = value.boolValue;
    else if (value.intValue !== undefined) attributes[key] = Number(String(value.intValue));
    else if (value.doubleValue !== undefined) attributes[key] = value.doubleValue;
  }
  return attributes;
}
