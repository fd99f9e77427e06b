import { BUCKETS, BUCKET_ORDER, EXTRA_BUCKET_COLORS } from '@gwprof/analysis';

/**
 * The bucket columns for a set of bucket maps: every catalogued bucket in the catalog's order (so
 * tables of different runs line up), then a maintainer's own buckets in name order.
 */
export function bucketColumns(maps: Array<Record<string, number> | undefined>): string[] {
  const known = new Set<string>(BUCKET_ORDER);
  const extra = new Set<string>();
  for (const map of maps) {
    for (const name of Object.keys(map ?? {})) if (!known.has(name)) extra.add(name);
  }
  return [...BUCKET_ORDER, ...[...extra].sort()];
}

const CATALOG_COLORS = new Map(BUCKETS.map((bucket) => [bucket.name, bucket.color]));

/** Fixed colours for catalogued buckets, so every chart of every run reads the same. */
export function bucketColor(name: string, columns: string[]): string {
  const fixed = CATALOG_COLORS.get(name);
  if (fixed) return fixed;
  const extraIndex = columns.filter((c) => !CATALOG_COLORS.has(c)).indexOf(name);
  return EXTRA_BUCKET_COLORS[Math.max(0, extraIndex) % EXTRA_BUCKET_COLORS.length] ?? '#000000';
}
