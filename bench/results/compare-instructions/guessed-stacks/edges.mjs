import { readFileSync } from 'node:fs';
import { callGraphOfFile } from '/work/main/packages/analysis/dist/instructions/call-graph.js';
import { PerfMap } from '/work/main/packages/analysis/dist/instructions/perf-map.js';
const g = await callGraphOfFile(process.argv[2]);
const pm = new PerfMap(readFileSync(process.argv[3],'utf8'));
const nm = (n) => { const m=/^0x([0-9a-f]+)$/i.exec(n); if(!m) return n.slice(0,50); const c=pm.lookup(parseInt(m[1],16)); return c?.js? `JS:${c.js.functionName}` : n; };
for (const f of g.functions) { const name = nm(f.name); if (!/JS:(leafA|leafB|visit|outer)$/.test(name)) continue;
  console.log(name, 'self', f.self, 'callers:', [...f.callers].map(([c,w]) => `${nm(c.name)}=${w}`).join(', ')); }
