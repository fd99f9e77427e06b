import type { CpuProfile } from './cpuprofile.js';
import { frameMatcher } from './buckets.js';
import type { BucketRule } from './rules.js';

/**
 * The nodes whose bucket no frame further from the leaf could change. Walking a stack from the leaf
 * toward the root (as `attributeNodes` decides), the nearest frame an ordinary rule matches wins
 * whatever lies beyond it, and an entry rule's frame keeps everything beyond it from reaching the
 * frames it runs; a weak frame, or none, leaves the bucket to frames further out. So a stack cut off
 * above a node keeps that node's bucket exactly when a frame on the node's own path matches an
 * ordinary or an entry rule.
 */
export function nodesWithSettledBucket(profile: Pick<CpuProfile, 'nodes'>, rules: readonly BucketRule[]): Set<number> {
  const matchFrame = frameMatcher(rules);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const hasParent = new Set(profile.nodes.flatMap((node) => node.children ?? []));
  const settled = new Set<number>();
  // Breadth-first from the roots, iteratively (stacks can be deeper than recursion allows).
  const queue = profile.nodes.filter((node) => !hasParent.has(node.id)).map((node) => ({ id: node.id, above: false }));
  for (let head = 0; head < queue.length; head++) {
    const { id, above } = queue[head]!;
    const node = byId.get(id)!;
    const index = matchFrame(node.callFrame);
    const own = index !== undefined && rules[index]!.weak !== true;
    if (above || own) settled.add(id);
    for (const child of node.children ?? []) queue.push({ id: child, above: above || own });
  }
  return settled;
}
