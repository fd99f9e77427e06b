// The largest arrays in a .heapsnapshot and the first holders on a path to each (breadth first over
// strong edges): which table grew between two snapshots of a soak. node largest-arrays.cjs FILE
const fs = require('node:fs');
const snap = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const m = snap.snapshot.meta;
const nf = m.node_fields.length,
  ef = m.edge_fields.length;
const nt = m.node_types[0],
  et = m.edge_types[0];
const N = snap.nodes,
  E = snap.edges,
  S = snap.strings;
const iType = m.node_fields.indexOf('type'),
  iName = m.node_fields.indexOf('name'),
  iSize = m.node_fields.indexOf('self_size'),
  iEc = m.node_fields.indexOf('edge_count');
const eType = m.edge_fields.indexOf('type'),
  eName = m.edge_fields.indexOf('name_or_index'),
  eTo = m.edge_fields.indexOf('to_node');
const n = N.length / nf;
const first = new Uint32Array(n + 1);
for (let i = 0, e = 0; i < n; i++) {
  first[i] = e;
  e += N[i * nf + iEc];
}
first[n] = E.length / ef;
const parent = new Int32Array(n).fill(-1),
  pedge = new Int32Array(n).fill(-1);
for (let i = 0; i < n; i++)
  for (let e = first[i]; e < first[i + 1]; e++) {
    if (et[E[e * ef + eType]] === 'weak') continue;
    const to = E[e * ef + eTo] / nf;
    if (parent[to] < 0) {
      parent[to] = i;
      pedge[to] = e;
    }
  }
const label = (i) => `${nt[N[i * nf + iType]]}:${S[N[i * nf + iName]]}`.slice(0, 60);
const edgeLabel = (e) => {
  const t = et[E[e * ef + eType]];
  const v = E[e * ef + eName];
  return t === 'element' || t === 'hidden' ? `[${v}]` : `.${S[v]}`;
};
const arrays = [];
for (let i = 0; i < n; i++) if (nt[N[i * nf + iType]] === 'array') arrays.push([N[i * nf + iSize], i]);
arrays.sort((a, b) => b[0] - a[0]);
for (const [size, i] of arrays.slice(0, 6)) {
  const path = [];
  let at = i;
  for (let k = 0; k < 8 && parent[at] >= 0; k++) {
    path.push(label(parent[at]) + edgeLabel(pedge[at]));
    at = parent[at];
  }
  console.log(size, label(i), '<-', path.join(' <- '));
}
