/** Test support (not built): seeded randomness and hand-built CPU and allocation profiles. */
import type { CpuProfile, CpuProfileCallFrame, CpuProfileNode } from '../profiles/cpuprofile.js';
import type { HeapProfile, HeapProfileNode } from '../profiles/allocations.js';

/** Seeded PRNG in [0, 1) so statistical tests have fixed answers. */
export { mulberry32 } from '../random.js';

export type Frame = Pick<CpuProfileCallFrame, 'functionName' | 'url'> & { lineNumber?: number };

export function frame(functionName: string, url = '', lineNumber = 0): Frame {
  return { functionName, url, lineNumber };
}

/**
 * A profile whose samples are the given stacks (root first, leaf last), each repeated `count` times.
 * Stacks sharing a prefix share nodes, as in V8's tree. Samples are 1000 µs apart.
 */
export function profileOf(stacks: Array<{ stack: Frame[]; count: number }>): CpuProfile {
  const root: CpuProfileNode = { id: 1, callFrame: callFrame(frame('(root)')), children: [] };
  const nodes = [root];
  const samples: number[] = [];
  for (const { stack, count } of stacks) {
    let parent = root;
    for (const f of stack) {
      const existing = parent
        .children!.map((id) => nodes[id - 1]!)
        .find((n) => n.callFrame.functionName === f.functionName && n.callFrame.url === f.url && n.callFrame.lineNumber === (f.lineNumber ?? 0));
      if (existing) {
        parent = existing;
        continue;
      }
      const node: CpuProfileNode = { id: nodes.length + 1, callFrame: callFrame(f), children: [] };
      nodes.push(node);
      parent.children!.push(node.id);
      parent = node;
    }
    for (let i = 0; i < count; i++) samples.push(parent.id);
  }
  return { nodes, startTime: 0, endTime: samples.length * 1000, samples, timeDeltas: samples.map(() => 1000) };
}

function callFrame(f: Frame): CpuProfileCallFrame {
  return { functionName: f.functionName, url: f.url, lineNumber: f.lineNumber ?? 0, columnNumber: 0, scriptId: '0' };
}

/**
 * A profile whose samples are taken at the given times (µs, increasing), each with its stack (root
 * first). Nodes are shared as in `profileOf`; startTime is 0 and endTime one gap after the last sample.
 */
export function profileOfTimeline(ticks: Array<{ time: number; stack: Frame[] }>): CpuProfile {
  const stacks = ticks.map(({ stack }) => ({ stack, count: 1 }));
  const shape = profileOf(stacks);
  const timeDeltas = ticks.map((tick, i) => tick.time - (i === 0 ? 0 : ticks[i - 1]!.time));
  const last = ticks.at(-1)?.time ?? 0;
  return { ...shape, startTime: 0, endTime: last + (timeDeltas.at(-1) ?? 0), timeDeltas };
}

/**
 * An allocation profile (Chrome `.heapprofile`) whose leaves allocated the given bytes along the
 * given stacks (root first, leaf last); stacks sharing a prefix share nodes.
 */
export function heapProfileOf(stacks: Array<{ stack: Frame[]; bytes: number }>): HeapProfile {
  let nextId = 1;
  const node = (f: Frame): HeapProfileNode => ({ id: nextId++, callFrame: callFrame(f), selfSize: 0, children: [] });
  const head = node(frame('(root)'));
  for (const { stack, bytes } of stacks) {
    let parent = head;
    for (const f of stack) {
      const existing = parent.children.find(
        (n) => n.callFrame.functionName === f.functionName && n.callFrame.url === f.url && n.callFrame.lineNumber === (f.lineNumber ?? 0),
      );
      parent = existing ?? parent.children[parent.children.push(node(f)) - 1]!;
    }
    parent.selfSize += bytes;
  }
  return { head, samples: [] };
}
