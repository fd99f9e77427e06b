const v8 = require('node:v8');
const inspector = require('node:inspector');
const { PerformanceObserver } = require('node:perf_hooks');
let gcMs = 0;
new PerformanceObserver((l) => {
  for (const e of l.getEntries()) gcMs += e.duration;
}).observe({ entryTypes: ['gc'] });
const keep = [];
for (let i = 0; i < 300000; i++) keep.push({ i, s: `x${i}` });
function work() {
  const t = performance.now();
  gcMs = 0;
  const ring = new Array(65536);
  for (let i = 0; i < 3e6; i++) {
    ring[i & 65535] = { i, b: [i, i + 1], c: `y${i}` };
  }
  return new Promise((r) => setTimeout(() => r([performance.now() - t, gcMs]), 50));
}
(async () => {
  const show = async (label) => {
    const r = [];
    for (let k = 0; k < 3; k++) r.push(await work());
    console.log(label, r.map(([t, g]) => `${t.toFixed(0)}ms gc ${g.toFixed(0)}`).join(' | '));
  };
  await show('before snapshot ');
  v8.writeHeapSnapshot('/tmp/snap-test.heapsnapshot');
  await show('after snapshot  ');
  const s = new inspector.Session();
  s.connect();
  const post = (m) => new Promise((res, rej) => s.post(m, (e, r) => (e ? rej(e) : res(r))));
  await post('HeapProfiler.enable');
  await post('HeapProfiler.disable');
  await show('after enable/disable');
})();
