import { BUCKETS, EXTRA_BUCKET_COLORS, orderBucketNames } from '@gwprof/analysis';

/**
 * The bucket columns for a set of bucket maps, in analysis's one order: every catalogued bucket (so
 * tables of different runs line up), a maintainer's own buckets as first seen, `other` last.
 */
export function bucketColumns(maps: Array<Record<string, number> | undefined>): string[] {
  return orderBucketNames(maps.flatMap((map) => Object.keys(map ?? {})));
}

const CATALOG_COLORS = new Map(BUCKETS.map((bucket) => [bucket.name, bucket.color]));

/** Fixed colours for catalogued buckets, so every chart of every run reads the same. */
export function bucketColor(name: string, columns: string[]): string {
  const fixed = CATALOG_COLORS.get(name);
  if (fixed) return fixed;
  const extraIndex = columns.filter((c) => !CATALOG_COLORS.has(c)).indexOf(name);
  return EXTRA_BUCKET_COLORS[Math.max(0, extraIndex) % EXTRA_BUCKET_COLORS.length] ?? '#000000';
}
