// A deterministic JS workload with deep call chains, promises and GC: no timers, no I/O.
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
function deep(n, acc) { return n === 0 ? acc.map((x) => ({ x, s: String(x) })).length : deep(n - 1, [...acc, n]); }
async function chain(n) { if (n === 0) return 1; return 1 + (await chain(n - 1)); }
let sum = 0;
for (let i = 0; i < 200; i++) sum += fib(15) + deep(60, []);
chain(300).then((v) => { sum += v; for (let i = 0; i < 2000; i++) JSON.parse(JSON.stringify({ a: [i, { b: 'x'.repeat(i % 50) }] })); console.log(sum); });
