/**
 * mulberry32: a small seeded PRNG (uniform in [0, 1)). Seeded randomness keeps simulations, replays
 * and open-loop schedules reproducible: the same seed gives the same numbers everywhere.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
