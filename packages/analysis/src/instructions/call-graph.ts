/**
 * A callgrind dump made without --separate-callers, read as a call graph: each function's self
 * count, and for each of its callers the inclusive count of the calls that caller made to it.
 * callgrind names a recursion's deeper levels "f'2" (its --separate-recs): they are the same function.
 */
import { ContextReader, readContextsFromFile } from './callgrind-contexts.js';

export interface CallGraphFunction {
  name: string;
  /** The ELF object the function lives in. */
  object: string;
  self: number;
  /** Caller → inclusive instructions of its calls to this function; a function's calls to itself are left out. */
  callers: Map<CallGraphFunction, number>;
}

export interface CallGraph {
  functions: CallGraphFunction[];
  /** The dump's total, or the sum of self counts when it states none. */
  total: number;
}

/** Builds the graph line by line from a dump's text or file. */
export class CallGraphReader {
  private readonly byKey = new Map<string, CallGraphFunction>();
  readonly reader = new ContextReader<CallGraphFunction>(
    (frames, object) => this.function(frames[0] ?? '', object),
    (fn, self) => {
      fn.self += self;
    },
    {
      call: (caller, callee, inclusive) => {
        if (caller !== callee) callee.callers.set(caller, (callee.callers.get(caller) ?? 0) + inclusive);
      },
    },
  );

  graph(): CallGraph {
    const functions = [...this.byKey.values()];
    return { functions, total: this.reader.total ?? functions.reduce((sum, fn) => sum + fn.self, 0) };
  }

  private function(name: string, object: string): CallGraphFunction {
    const key = `${name}\0${object}`;
    let fn = this.byKey.get(key);
    if (!fn) this.byKey.set(key, (fn = { name, object, self: 0, callers: new Map() }));
    return fn;
  }
}

export function callGraph(text: string): CallGraph {
  const builder = new CallGraphReader();
  for (const line of text.split('\n')) builder.reader.line(line);
  return builder.graph();
}

export async function callGraphOfFile(file: string): Promise<CallGraph> {
  const builder = new CallGraphReader();
  await readContextsFromFile(file, builder.reader);
  return builder.graph();
}
