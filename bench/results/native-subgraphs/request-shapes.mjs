// The distinct subgraph requests of a recording (gateway-goldens.sh's RECORDING.jsonl): how many of
// each query each subgraph received. usage: node request-shapes.mjs RECORDING.jsonl
import { readFileSync } from 'node:fs';

const counts = new Map();
for (const line of readFileSync(process.argv[2], 'utf8').split('\n').filter(Boolean)) {
  const { subgraph, body } = JSON.parse(line);
  const query = JSON.parse(body).query.replace(/\s+/g, ' ').trim();
  const key = `${subgraph}\t${query.length > 220 ? `${query.slice(0, 220)}…` : query}`;
  counts.set(key, (counts.get(key) ?? 0) + 1);
}
for (const [key, n] of [...counts].sort(([a], [b]) => a.localeCompare(b))) console.log(`${String(n).padStart(5)}  ${key}`);
