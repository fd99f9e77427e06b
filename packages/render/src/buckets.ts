import { BUCKET_ORDER } from '@gwprof/analysis';

/**
 * Display order of CPU buckets: the analysis package's order. A bucket it does not know (a
 * maintainer's custom rule) is still shown, after these.
 */
export const BUCKET_DISPLAY_ORDER = BUCKET_ORDER;

/**
 * The bucket columns for a set of bucket maps: every known bucket in display order (so tables of
 * different runs line up), then unknown buckets in name order.
 */
export function bucketColumns(maps: Array<Record<string, number> | undefined>): string[] {
  const known = new Set<string>(BUCKET_DISPLAY_ORDER);
  const extra = new Set<string>();
  for (const map of maps) {
    for (const name of Object.keys(map ?? {})) if (!known.has(name)) extra.add(name);
  }
  return [...BUCKET_DISPLAY_ORDER, ...[...extra].sort()];
}

/** Fixed colors for known buckets so every chart of every run reads the same. */
const BUCKET_COLORS: Record<string, string> = {
  gc: '#d62728',
  idle: '#c7c7c7',
  program: '#8c564b',
  parse: '#1f77b4',
  validate: '#17becf',
  execute: '#2ca02c',
  plan: '#9467bd',
  httpParser: '#ff7f0e',
  onconnection: '#e377c2',
  pubsub: '#bcbd22',
  ticks: '#7f7f7f',
  other: '#393b79',
};

const EXTRA_COLORS = ['#637939', '#8c6d31', '#843c39', '#7b4173', '#3182bd', '#e6550d', '#31a354', '#756bb1'];

export function bucketColor(name: string, columns: string[]): string {
  const fixed = BUCKET_COLORS[name];
  if (fixed) return fixed;
  const extraIndex = columns.filter((c) => !(c in BUCKET_COLORS)).indexOf(name);
  return EXTRA_COLORS[Math.max(0, extraIndex) % EXTRA_COLORS.length] ?? '#000000';
}
