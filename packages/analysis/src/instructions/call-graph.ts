/**
 * A callgrind dump made without --separate-callers, read as a call graph: each function's self
 * count, and for each of its callers the inclusive count of the calls that caller made to it.
 * callgrind names a recursion's deeper levels "f'2" (its --separate-recs): they are the same function.
 */
import { CallgrindReader, readDumpFile, readDumpText, type DumpVisitor } from './callgrind-reader.js';

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

/** The reader's visitor that builds the graph: a function by its name and object, its callers' calls to it. */
export class CallGraphReader implements DumpVisitor<CallGraphFunction> {
  private readonly byKey = new Map<string, CallGraphFunction>();
  readonly reader = new CallgrindReader<CallGraphFunction>(this);

  context(frames: string[], object: string): CallGraphFunction {
    const name = frames[0] ?? '';
    const key = `${name}\0${object}`;
    let fn = this.byKey.get(key);
    if (!fn) this.byKey.set(key, (fn = { name, object, self: 0, callers: new Map() }));
    return fn;
  }

  self(fn: CallGraphFunction, count: number): void {
    fn.self += count;
  }

  call(caller: CallGraphFunction, callee: CallGraphFunction, _calls: number, inclusive: number): void {
    if (caller !== callee && inclusive > 0) callee.callers.set(caller, (callee.callers.get(caller) ?? 0) + inclusive);
  }

  graph(): CallGraph {
    const functions = [...this.byKey.values()];
    return { functions, total: this.reader.total ?? functions.reduce((sum, fn) => sum + fn.self, 0) };
  }
}

export function callGraph(text: string): CallGraph {
  const builder = new CallGraphReader();
  readDumpText(text, builder.reader);
  return builder.graph();
}

export async function callGraphOfFile(file: string): Promise<CallGraph> {
  const builder = new CallGraphReader();
  await readDumpFile(file, builder.reader);
  return builder.graph();
}
