import { describe, expect, it } from 'vitest';
import type { CallGraph, CallGraphFunction } from './call-graph.js';
import { guessedStacks } from './guessed-stacks.js';

function graph(self: Record<string, number>, edges: Array<[caller: string, callee: string, inclusive: number]>): CallGraph {
  const byName = new Map<string, CallGraphFunction>(Object.entries(self).map(([name, n]) => [name, { name, object: '/bin/gw', self: n, callers: new Map() }]));
  for (const [caller, callee, inclusive] of edges) byName.get(callee)!.callers.set(byName.get(caller)!, inclusive);
  const functions = [...byName.values()];
  return { functions, total: functions.reduce((s, f) => s + f.self, 0) };
}

const stacksOf = (g: CallGraph, maxFrames = 10, minInstructions = 0) =>
  guessedStacks(g, { maxFrames, minInstructions }).map((s) => ({ frames: s.frames.join('<'), self: s.self, truncated: s.truncated }));

describe('guessedStacks', () => {
  it("splits a function's instructions among its callers as their calls' inclusive counts, level by level", () => {
    const g = graph({ main: 0, a: 0, b: 0, leaf: 100 }, [
      ['main', 'a', 400],
      ['main', 'b', 200],
      ['a', 'leaf', 300],
      ['b', 'leaf', 100],
    ]);
    expect(stacksOf(g)).toEqual([
      { frames: 'leaf<a<main', self: 75, truncated: false },
      { frames: 'leaf<b<main', self: 25, truncated: false },
    ]);
  });

  it('leaves a recursion by the calls made into it from outside when every caller is already on the stack', () => {
    // a and b call each other; only x calls into them from outside.
    const g = graph({ x: 0, a: 100, b: 0 }, [
      ['b', 'a', 90],
      ['x', 'a', 10],
      ['a', 'b', 80],
    ]);
    const stacks = stacksOf(g);
    expect(stacks).toEqual([
      { frames: 'a<b<x', self: 90, truncated: false },
      { frames: 'a<x', self: 10, truncated: false },
    ]);
  });

  it("leaves by the calls into the whole recursion when the loop's own frames have no caller off the stack", () => {
    // a, b and c call one another; b and c are called only from inside; x calls a from outside.
    const g = graph({ x: 0, a: 100, b: 0, c: 0 }, [
      ['b', 'a', 50],
      ['x', 'a', 50],
      ['a', 'b', 20],
      ['c', 'b', 40],
      ['b', 'c', 30],
    ]);
    expect(stacksOf(g)).toEqual([
      { frames: 'a<b<c<x', self: 50, truncated: false },
      { frames: 'a<x', self: 50, truncated: false },
    ]);
  });

  it('cuts a stack off at maxFrames, and stops following shares below the floor, keeping every instruction', () => {
    const chain = graph({ d: 0, c: 0, b: 0, a: 100 }, [
      ['d', 'c', 1],
      ['c', 'b', 1],
      ['b', 'a', 1],
    ]);
    expect(stacksOf(chain, 2)).toEqual([{ frames: 'a<b<c', self: 100, truncated: true }]);
    const wide = graph({ main: 0, rare: 0, leaf: 1000 }, [
      ['main', 'leaf', 999],
      ['rare', 'leaf', 1],
    ]);
    expect(stacksOf(wide, 10, 5)).toEqual([
      { frames: 'leaf<main', self: 999, truncated: false },
      { frames: 'leaf', self: 1, truncated: true },
    ]);
  });
});
