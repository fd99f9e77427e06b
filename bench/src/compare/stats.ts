// Small statistics over plain arrays, for the benchmark's own tables.
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export const sd = (xs) => {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
};

/** A recording's blocks: x = mean log candidate − mean log baseline, for a value function. */
export function blockRatios(windows, value) {
  const blocks = new Map();
  for (const w of windows) {
    const v = value(w);
    if (!(v > 0)) continue;
    const b = blocks.get(w.block) ?? { baseline: [], candidate: [] };
    b[w.side].push(Math.log(v));
    blocks.set(w.block, b);
  }
  const mean = (xs) => xs.reduce((a, x) => a + x, 0) / xs.length;
  return [...blocks.values()].filter((b) => b.baseline.length && b.candidate.length).map((b) => mean(b.candidate) - mean(b.baseline));
}
