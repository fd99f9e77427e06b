#!/usr/bin/env node
// gwprof's OTLP/HTTP receiver on its own, for a gateway exporting spans while something else
// (a `gwprof compare`) measures it: prints its base URL on the first line, then, on SIGTERM, the
// spans it received. tracing-cost.ts starts it beside the comparison.
//
//   node bench/dist/otlp-sink.js
import { startOtlpReceiver } from '@gwprof/collect';

const receiver = await startOtlpReceiver();
process.stdout.write(`${receiver.endpoint}\n`);
let spans = 0;
let rejected = 0;
// Taken every second so the receiver's bound on kept spans never drops any.
const timer = setInterval(() => {
  const taken = receiver.take();
  spans += taken.spans.length + taken.dropped;
  rejected += taken.rejected;
}, 1000);
process.once('SIGTERM', () => {
  clearInterval(timer);
  const taken = receiver.take();
  spans += taken.spans.length + taken.dropped;
  rejected += taken.rejected;
  process.stdout.write(`${JSON.stringify({ spans, rejected })}\n`);
  void receiver.close().then(() => process.exit(0));
});
