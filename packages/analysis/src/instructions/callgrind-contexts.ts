/**
 * A callgrind dump made with --separate-callers=K, read as call stacks by the one reader
 * (`callgrind-reader.ts`): each function context is named "fn'caller1'caller2…" (innermost first,
 * up to K callers), and its self count is the sum of the cost lines in its body; calls' inclusive
 * costs are the callees' own, not the caller's self.
 */
import { CallgrindReader, readDumpText, type DumpVisitor, type ReaderOptions } from './callgrind-reader.js';

export interface CallgrindContext {
  /** Innermost first: the function itself, then its callers. */
  frames: string[];
  /** The ELF object (binary or library) of the innermost function. */
  object: string;
  self: number;
}

/** The reader's visitor that keeps each context with its self count. */
class ContextCollector implements DumpVisitor<CallgrindContext> {
  readonly byFrames = new Map<string, CallgrindContext>();

  context(frames: string[], object: string): CallgrindContext {
    const key = frames.join("'");
    let context = this.byFrames.get(key);
    if (!context) this.byFrames.set(key, (context = { frames, object, self: 0 }));
    return context;
  }

  self(context: CallgrindContext, count: number): void {
    context.self += count;
  }
}

/** Every context of a dump held in memory as text (small dumps, tests). */
export function callgrindContexts(text: string, options: ReaderOptions = {}): { total: number | null; contexts: CallgrindContext[] } {
  const collector = new ContextCollector();
  const reader = readDumpText(text, new CallgrindReader(collector, options));
  return { total: reader.total, contexts: [...collector.byFrames.values()].filter((c) => c.self > 0) };
}
