/**
 * Yuen's trimmed mean and its standard error: the mean of the values left after the lowest and the
 * highest fifth are cut, and a standard error from the winsorized variance (the cut values set to
 * the nearest kept one). A few epochs far out in one tail, such as a machine that slowed down
 * during one side's windows, then move the centre by little, where they drag the plain mean.
 * With fewer than five values nothing is cut, and it is the plain mean and its standard error.
 */
export const TRIM_SHARE = 0.2;

export interface TrimmedLocation {
  center: number;
  /** The standard error of `center` (Yuen): √((n − 1)·s_w² / (h·(h − 1))), h values kept. */
  standardError: number;
  /** Values cut from each end. */
  cut: number;
}

export function trimmedLocation(values: readonly number[], share = TRIM_SHARE): TrimmedLocation {
  const n = values.length;
  if (n < 2) throw new RangeError('a trimmed location needs at least two values');
  const sorted = [...values].sort((a, b) => a - b);
  const cut = Math.floor(share * n);
  const kept = n - 2 * cut;
  let sum = 0;
  for (let i = cut; i < n - cut; i++) sum += sorted[i]!;
  const center = sum / kept;
  const low = sorted[cut]!;
  const high = sorted[n - cut - 1]!;
  let wsum = 0;
  for (const v of sorted) wsum += Math.min(high, Math.max(low, v));
  const wmean = wsum / n;
  let wss = 0;
  for (const v of sorted) wss += (Math.min(high, Math.max(low, v)) - wmean) ** 2;
  const winsorizedVariance = wss / (n - 1);
  return { center, standardError: Math.sqrt(((n - 1) * winsorizedVariance) / (kept * (kept - 1))), cut };
}
