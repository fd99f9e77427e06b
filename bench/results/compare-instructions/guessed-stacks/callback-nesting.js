function leafA(n) { let s = 0; for (let i = 0; i < n; i++) s += i; return s; }
function leafB(n) { let s = 0; for (let i = 0; i < n; i++) s ^= i; return s; }
const cbs = [leafA, leafB, leafA, leafB];
function visit(n) { let t = 0; for (const cb of cbs) t += cb.call(null, n); return t; }
function outer() { let t = 0; for (let k = 0; k < 2000; k++) t += visit(50); return t; }
console.log(outer());
