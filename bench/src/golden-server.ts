#!/usr/bin/env node
// A stand-in gateway that answers each request of a stream with its golden response, so a load
// generator can be measured alone on a stream's real response sizes (bench/src/loadgen-cost.ts).
// It does no GraphQL work: it looks the request body up and writes prepared bytes.
//   --answer exact      the golden's canonical bytes, `{"data":…}` compact in the query's order (what
//                       Mesh, Hive Gateway and Apollo Router answer on the demo)
//   --answer reordered  the same data with every object's keys reversed (a gateway that does not
//                       keep the query's order: the validator's slow path, with an order warning)
// `{ __typename }` (gwprof's readiness probe) gets {"data":{"__typename":"Query"}}. --service-ms holds
// the event loop that long per request, as the stub gateway does, to answer at a gateway's pace.
//
//   node bench/dist/golden-server.js [--port 4891] [--stream varied] [--answer exact] [--service-ms 0]
import http from 'node:http';
import { benchArgs } from './args.js';
import { streamScenario } from './loadgen-streams.js';

const { values } = benchArgs({
  options: {
    port: { type: 'string', default: '4891' },
    stream: { type: 'string', default: 'varied' },
    answer: { type: 'string', default: 'exact' },
    'service-ms': { type: 'string', default: '0' },
  },
});
const serviceMs = Number(values['service-ms']);
if (values.answer !== 'exact' && values.answer !== 'reordered') throw new Error('--answer is exact or reordered');

/** `value` with every object's keys in reverse order. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, child]) => [key, reversedKeys(child)]),
  );
}

const answers = new Map<string, Buffer>();
for (const request of streamScenario(values.stream).requests) {
  const data = values.answer === 'reordered' ? reversedKeys(request.expected) : request.expected;
  answers.set(request.body, Buffer.from(JSON.stringify({ data })));
}
const probeAnswer = Buffer.from('{"data":{"__typename":"Query"}}');
const unknownAnswer = Buffer.from('{"errors":[{"message":"golden server: not a request of this stream"}]}');

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const answer = answers.get(body) ?? (body.includes('__typename') ? probeAnswer : unknownAnswer);
    for (const until = performance.now() + serviceMs; performance.now() < until; ) {
      // busy on purpose: this is the service time
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length });
    res.end(answer);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(values.port), '127.0.0.1', () => console.log(`golden server: ${answers.size} answers (${values.answer}), port ${values.port}`));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));
