/** Number formatting shared by the terminal, markdown and HTML renderers. */

/** Placeholder for a figure that does not exist (no successful response, no samples). */
export const NONE = '–';

function isFiniteNumber(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** Fixed decimals, or the placeholder for null/NaN. */
export function fixed(value: number | null | undefined, decimals: number): string {
  return isFiniteNumber(value) ? value.toFixed(decimals) : NONE;
}

/** Integer with thousands separators (1,000,000), as in load-test reports. */
export function integer(value: number | null | undefined): string {
  if (!isFiniteNumber(value)) return NONE;
  return Math.round(value).toLocaleString('en-US');
}

/** Milliseconds: integers above 100 ms, one decimal below, two below 1 ms. */
export function ms(value: number | null | undefined): string {
  if (!isFiniteNumber(value)) return NONE;
  if (Math.abs(value) >= 100) return Math.round(value).toString();
  if (Math.abs(value) >= 1) return value.toFixed(1);
  return value.toFixed(2);
}

/** A share in [0, 1] as a percentage with the given decimals (no % sign). */
export function shareAsPercent(share: number | null | undefined, decimals = 1): string {
  return isFiniteNumber(share) ? (share * 100).toFixed(decimals) : NONE;
}

/**
 * Success percentage from the request counts rather than `successRate`, so the figure can never
 * disagree with the counts shown next to it. No requests at all is not 100%.
 */
export function successPercent(ok: number, total: number): string {
  if (total <= 0) return NONE;
  const pct = (ok / total) * 100;
  // Never round a failing step up to "100.0".
  if (ok < total && pct > 99.9) return '>99.9';
  return pct.toFixed(1);
}

/** A relative change (0.05) as a signed percentage ("+5.0%"). */
export function signedPercent(change: number | null | undefined, decimals = 1): string {
  if (!isFiniteNumber(change)) return NONE;
  const pct = change * 100;
  const text = pct.toFixed(decimals);
  return pct > 0 || (pct === 0 && !text.startsWith('-')) ? `+${text}%` : `${text}%`;
}

/** An interval of a relative change: "[-2.1%, +4.0%]". */
export function ciRange(ci: [number, number] | null | undefined): string {
  if (!ci) return NONE;
  return `[${signedPercent(ci[0])}, ${signedPercent(ci[1])}]`;
}

/** A metric value with sensible precision for its size. */
export function metricValue(value: number | null | undefined): string {
  if (!isFiniteNumber(value)) return NONE;
  const abs = Math.abs(value);
  if (abs >= 1000) return Math.round(value).toLocaleString('en-US');
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 10) return value.toFixed(1);
  if (abs >= 1) return value.toFixed(2);
  return value.toPrecision(3);
}

/** Generic short number for scientific figures (USL coefficients). */
export function sig(value: number | null | undefined, digits = 3): string {
  if (!isFiniteNumber(value)) return NONE;
  if (value === 0) return '0';
  const abs = Math.abs(value);
  if (abs < 1e-3 || abs >= 1e6) return value.toExponential(digits - 1);
  return Number(value.toPrecision(digits)).toString();
}
