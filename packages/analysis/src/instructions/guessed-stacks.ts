/**
 * Call stacks guessed from a call graph, as a sampling profiler would have seen them: each
 * function's self count is split among its callers in proportion to the inclusive instructions of
 * their calls to it, and each share again among that caller's callers, up to `maxFrames` frames.
 * The split is exact one level up (callgrind counted each call edge) and a guess beyond it: it
 * assumes a function costs the same whoever called it (gprof's assumption). A caller already on the
 * stack is passed over (the recursion's way out is one of the others); when every caller is on it,
 * the stack leaves that loop by the calls made into the loop's frames from outside it, or failing
 * those by the calls into the whole recursion (its strongly connected component's entries). A stack
 * with no caller left to add, or whose share falls below `minInstructions`, ends there, cut off
 * (`truncated`).
 */
import type { CallGraph, CallGraphFunction } from './call-graph.js';

export interface GuessedStack {
  /** Innermost first: the function, then its guessed callers. */
  frames: string[];
  /** The innermost function's ELF object. */
  object: string;
  self: number;
  /** Its outer frames are unknown: the stack was cut off, not ended at a function nobody called. */
  truncated: boolean;
}

export interface GuessOptions {
  maxFrames: number;
  /** Shares smaller than this are not followed further up. */
  minInstructions: number;
}

export function guessedStacks(graph: CallGraph, options: GuessOptions): GuessedStack[] {
  const entries = recursionEntries(graph.functions);
  const stacks: GuessedStack[] = [];
  const chain: CallGraphFunction[] = [];
  const onChain = new Set<CallGraphFunction>();
  const emit = (self: number, truncated: boolean) => {
    stacks.push({ frames: chain.map((fn) => fn.name), object: chain[0]!.object, self, truncated });
  };
  /**
   * Every caller of `last` is already on the stack: the stack from the outermost of them on is a
   * loop (a recursion, or calls callgrind nested because it missed a return in JIT code), and the
   * way out is a call into one of its frames from a function not on the stack.
   */
  const loopExits = (last: CallGraphFunction): Array<[CallGraphFunction, number]> => {
    const start = Math.min(...[...last.callers.keys()].map((caller) => chain.indexOf(caller)).filter((i) => i >= 0));
    const exits = new Map<CallGraphFunction, number>();
    for (const member of chain.slice(start))
      for (const [caller, inclusive] of member.callers) if (!onChain.has(caller)) exits.set(caller, (exits.get(caller) ?? 0) + inclusive);
    return [...exits];
  };
  const walk = (weight: number): void => {
    const last = chain[chain.length - 1]!;
    const ended = last.callers.size === 0;
    if (ended || chain.length - 1 >= options.maxFrames) {
      emit(weight, !ended);
      return;
    }
    let open = [...last.callers].filter(([caller]) => !onChain.has(caller));
    if (open.length === 0) open = loopExits(last);
    if (open.length === 0) open = [...(entries.get(last) ?? [])].filter(([caller]) => !onChain.has(caller));
    const sum = open.reduce((s, [, inclusive]) => s + inclusive, 0);
    if (sum <= 0) {
      emit(weight, true);
      return;
    }
    let unfollowed = 0;
    for (const [caller, inclusive] of open) {
      const share = (weight * inclusive) / sum;
      if (share < options.minInstructions) {
        unfollowed += share;
        continue;
      }
      chain.push(caller);
      onChain.add(caller);
      walk(share);
      onChain.delete(caller);
      chain.pop();
    }
    if (unfollowed > 0) emit(unfollowed, true);
  };
  for (const fn of graph.functions) {
    if (fn.self <= 0) continue;
    chain.push(fn);
    onChain.add(fn);
    walk(fn.self);
    onChain.delete(fn);
    chain.pop();
  }
  return stacks;
}

/**
 * For each function in a recursion (a strongly connected component of more than one function), the
 * calls made into that component from outside it, by caller: Tarjan's algorithm, iteratively.
 */
function recursionEntries(functions: readonly CallGraphFunction[]): Map<CallGraphFunction, Map<CallGraphFunction, number>> {
  const index = new Map<CallGraphFunction, number>();
  const low = new Map<CallGraphFunction, number>();
  const stack: CallGraphFunction[] = [];
  const onStack = new Set<CallGraphFunction>();
  const components: CallGraphFunction[][] = [];
  let next = 0;
  for (const root of functions) {
    if (index.has(root)) continue;
    const work: Array<{ fn: CallGraphFunction; callers: Iterator<CallGraphFunction> }> = [];
    const open = (fn: CallGraphFunction) => {
      index.set(fn, next);
      low.set(fn, next++);
      stack.push(fn);
      onStack.add(fn);
      work.push({ fn, callers: fn.callers.keys() });
    };
    open(root);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const step = top.callers.next();
      if (!step.done) {
        const caller = step.value;
        if (!index.has(caller)) open(caller);
        else if (onStack.has(caller)) low.set(top.fn, Math.min(low.get(top.fn)!, index.get(caller)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]!.fn;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.fn)!));
      }
      if (low.get(top.fn) !== index.get(top.fn)) continue;
      const component: CallGraphFunction[] = [];
      let member: CallGraphFunction;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== top.fn);
      if (component.length > 1) components.push(component);
    }
  }
  const entries = new Map<CallGraphFunction, Map<CallGraphFunction, number>>();
  for (const component of components) {
    const members = new Set(component);
    const into = new Map<CallGraphFunction, number>();
    for (const member of component)
      for (const [caller, inclusive] of member.callers) if (!members.has(caller)) into.set(caller, (into.get(caller) ?? 0) + inclusive);
    for (const member of component) entries.set(member, into);
  }
  return entries;
}
