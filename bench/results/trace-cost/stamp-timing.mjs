import { RequestTraces, wireRequests } from '/work/wt-traces/packages/collect/dist/index.js';
const wire = wireRequests('http://127.0.0.1:4890/graphql', ['{"query":"{ me { id } }"}'], { traced: true });
const traces = new RequestTraces({ perSecond: 25, perWindow: 500 });
traces.startSampling();
const n = 2_000_000;
for (let round = 0; round < 3; round++) {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) traces.stamp(wire.messages[0], wire.traceAt, i / 4);
  const t1 = process.hrtime.bigint();
  console.log(`stamp: ${(Number(t1 - t0) / n).toFixed(1)} ns per request`);
}
