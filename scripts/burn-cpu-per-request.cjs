// A deliberate slowdown for benchmarking `gwprof compare`: preload it into a gateway with
//   NODE_OPTIONS="--require /path/to/burn-cpu-per-request.cjs" GWPROF_BURN_US=500
// and every HTTP request handled by that process first burns GWPROF_BURN_US microseconds of
// CPU on the event loop, as a slower code path in the gateway would.
'use strict';
const http = require('node:http');

const burnNs = BigInt(Math.round(Number(process.env.GWPROF_BURN_US || 0) * 1000));
if (burnNs > 0n) {
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function emitWithBurn(event, ...args) {
    if (event === 'request') {
      const until = process.hrtime.bigint() + burnNs;
      while (process.hrtime.bigint() < until) {
        // busy: this is the point
      }
    }
    return emit.call(this, event, ...args);
  };
}
