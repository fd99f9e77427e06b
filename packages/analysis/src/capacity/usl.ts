import type { UslFit } from '@gwprof/results';

export interface ThroughputPoint {
  concurrency: number;
  rps: number;
}

export type UslResult = { fit: UslFit; note?: never } | { fit: null; note: string };

export function uslThroughput(n: number, { sigma, kappa, lambda }: Pick<UslFit, 'sigma' | 'kappa' | 'lambda'>): number {
  return (lambda * n) / (1 + sigma * (n - 1) + kappa * n * (n - 1));
}

/**
 * Fits X(N) = λN / (1 + σ(N−1) + κN(N−1)) with σ, κ ≥ 0.
 *
 * N/X = a + bN + cN² with a = (1−σ)/λ, b = (σ−κ)/λ, c = κ/λ is linear in (a, b, c). Weighting each
 * point by (X²/N)² makes that least squares approximate least squares on X itself (dX ≈ −X²/N · d(N/X)),
 * so no iterative optimiser is needed. The constraints σ ≥ 0 (b + c ≥ 0) and κ ≥ 0 (c ≥ 0) are met by
 * also fitting with each active (σ = 0, κ = 0, both) and keeping the feasible fit with the smallest
 * squared error in X.
 */
export function fitUsl(points: readonly ThroughputPoint[]): UslResult {
  const usable = points.filter((p) => p.concurrency > 0 && p.rps > 0);
  const distinct = new Set(usable.map((p) => p.concurrency)).size;
  if (distinct < 4) {
    return { fit: null, note: `USL fit needs at least 4 ok steps at distinct concurrencies with throughput > 0 (have ${distinct})` };
  }
  const ns = usable.map((p) => p.concurrency);
  const ys = usable.map((p) => p.concurrency / p.rps);
  const rawWeights = usable.map((p) => ((p.rps * p.rps) / p.concurrency) ** 2);
  const maxWeight = Math.max(...rawWeights);
  const weights = rawWeights.map((w) => w / maxWeight);
  const maxN = Math.max(...ns);

  // Each variant: basis functions of N, and how its coefficients map back to (a, b, c).
  const variants: Array<{ basis: Array<(n: number) => number>; toAbc: (k: number[]) => [number, number, number] }> = [
    { basis: [() => 1, (n) => n, (n) => n * n], toAbc: ([a, b, c]) => [a!, b!, c!] },
    { basis: [() => 1, (n) => n], toAbc: ([a, b]) => [a!, b!, 0] }, // κ = 0 (Amdahl)
    { basis: [() => 1, (n) => n * n - n], toAbc: ([a, c]) => [a!, -c!, c!] }, // σ = 0
    { basis: [() => 1], toAbc: ([a]) => [a!, 0, 0] }, // linear scaling
  ];
  let best: { params: Pick<UslFit, 'sigma' | 'kappa' | 'lambda'>; sse: number } | null = null;
  for (const { basis, toAbc } of variants) {
    const coefficients = weightedLeastSquares(
      ns.map((n) => basis.map((f) => f(n))),
      ys,
      weights,
    );
    if (!coefficients) continue;
    const [a, b, c] = toAbc(coefficients);
    const inverseLambda = a + b + c;
    if (!(inverseLambda > 0)) continue;
    const lambda = 1 / inverseLambda;
    const kappa = snapToZero(c * lambda, maxN * maxN);
    const sigma = snapToZero((b + c) * lambda, maxN);
    if (kappa < 0 || sigma < 0) continue;
    const params = { sigma, kappa, lambda };
    const sse = usable.reduce((sum, p) => sum + (p.rps - uslThroughput(p.concurrency, params)) ** 2, 0);
    if (!best || sse < best.sse) best = { params, sse };
  }
  if (!best) return { fit: null, note: 'USL fit failed: no parameters with σ, κ ≥ 0 and λ > 0 fit these steps' };

  const meanRps = usable.reduce((sum, p) => sum + p.rps, 0) / usable.length;
  const sst = usable.reduce((sum, p) => sum + (p.rps - meanRps) ** 2, 0);
  const { sigma, kappa, lambda } = best.params;
  const peakConcurrency = kappa > 0 && sigma < 1 ? Math.sqrt((1 - sigma) / kappa) : null;
  return {
    fit: {
      sigma,
      kappa,
      lambda,
      peakConcurrency,
      peakRps: peakConcurrency === null ? null : uslThroughput(peakConcurrency, best.params),
      r2: sst === 0 ? (best.sse === 0 ? 1 : 0) : 1 - best.sse / sst,
      points: usable.length,
    },
  };
}

/** A coefficient whose effect over the measured range (value × reach) is rounding noise is zero. */
function snapToZero(value: number, reach: number): number {
  return Math.abs(value * reach) < 1e-9 ? 0 : value;
}

/** Minimises Σ w·(y − row·k)² by the normal equations on unit-scaled columns; null when singular. */
function weightedLeastSquares(rows: number[][], ys: number[], weights: number[]): number[] | null {
  const k = rows[0]!.length;
  const scale = Array.from({ length: k }, (_, j) => Math.max(...rows.map((row) => Math.abs(row[j]!))) || 1);
  const matrix = Array.from({ length: k }, () => new Array<number>(k + 1).fill(0));
  rows.forEach((row, i) => {
    const scaled = row.map((v, j) => v / scale[j]!);
    for (let r = 0; r < k; r++) {
      for (let c = 0; c < k; c++) matrix[r]![c]! += weights[i]! * scaled[r]! * scaled[c]!;
      matrix[r]![k]! += weights[i]! * scaled[r]! * ys[i]!;
    }
  });
  const solution = solveLinearSystem(matrix);
  return solution ? solution.map((v, j) => v / scale[j]!) : null;
}

/** Gaussian elimination with partial pivoting on an augmented k×(k+1) matrix. */
function solveLinearSystem(augmented: number[][]): number[] | null {
  const k = augmented.length;
  const m = augmented.map((row) => [...row]);
  for (let col = 0; col < k; col++) {
    let pivot = col;
    for (let r = col + 1; r < k; r++) if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r;
    if (Math.abs(m[pivot]![col]!) < 1e-14) return null;
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    for (let r = 0; r < k; r++) {
      if (r === col) continue;
      const factor = m[r]![col]! / m[col]![col]!;
      for (let c = col; c <= k; c++) m[r]![c]! -= factor * m[col]![c]!;
    }
  }
  return m.map((row, i) => row[k]! / row[i]!);
}
