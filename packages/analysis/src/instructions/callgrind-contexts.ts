/**
 * A callgrind dump made with --separate-callers=K, read as call stacks: each function context is
 * named "fn'caller1'caller2…" (innermost first, up to K callers), and its self count is the sum of
 * the cost lines in its body. Calls' inclusive costs (the line after `calls=`) are the callees'
 * own, not the caller's self: they go only to a reader that asks for the call edges. Read line by line: a dump of a large gateway with deep contexts runs
 * to hundreds of megabytes, and each context's name is resolved once, through its compressed id.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

/**
 * The object of the program callgrind ran (its `cmd:`), whatever its path: two builds of one
 * gateway live at different paths (two checkouts, two cache folders), and their functions pair.
 */
export const GATEWAY_BINARY = '(the gateway binary)';

export interface CallgrindContext {
  /** Innermost first: the function itself, then its callers. */
  frames: string[];
  /** The ELF object (binary or library) of the innermost function. */
  object: string;
  self: number;
}

export interface ReaderOptions<L> {
  /** Each call's inclusive count, from the context that made it to the one it called; unread when absent. */
  call?: (caller: L, callee: L, inclusive: number) => void;
  /**
   * The program callgrind ran is the gateway's own binary (not node, whose path already pairs across
   * builds and versions): its objects are named GATEWAY_BINARY.
   */
  gatewayBinary?: boolean;
}

/**
 * Reads contexts from dump lines: `leaf(frames, object)` is called once per context, with the ELF
 * object its function lives in, and its result gets the context's self counts.
 */
export class ContextReader<L> {
  private readonly leafById = new Map<string, L>();
  private readonly leafByName = new Map<string, L>();
  private readonly objectById = new Map<string, string>();
  private positions = 1;
  private current: L | null = null;
  private callee: L | null = null;
  private afterCalls = false;
  private object = '';
  private calledObject: string | null = null;
  /** The file name of the program callgrind ran, from the `cmd:` header. */
  private program: string | null = null;
  total: number | null = null;

  constructor(
    private readonly leaf: (frames: string[], object: string) => L,
    private readonly add: (leaf: L, self: number) => void,
    private readonly options: ReaderOptions<L> = {},
  ) {}

  line(line: string): void {
    if (line === '' || line.charCodeAt(0) === 35) return;
    const c = line.charCodeAt(0);
    if ((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 42) {
      if (this.afterCalls) {
        this.afterCalls = false;
        if (this.options.call && this.current !== null && this.callee !== null) {
          const inclusive = Number(line.trim().split(/\s+/)[this.positions] ?? 0);
          if (inclusive > 0) this.options.call(this.current, this.callee, inclusive);
        }
        return;
      }
      if (this.current === null) return;
      const value = Number(line.trim().split(/\s+/)[this.positions] ?? 0);
      if (value > 0) this.add(this.current, value);
      return;
    }
    const eq = line.indexOf('=');
    const colon = line.indexOf(':');
    if (eq > 0 && (colon < 0 || eq < colon)) {
      const key = line.slice(0, eq);
      if (key === 'fn') this.current = this.resolve(line.slice(eq + 1), this.object);
      else if (key === 'cfn') {
        // A callee's object is the caller's unless a cob= line named another just before.
        this.callee = this.resolve(line.slice(eq + 1), this.calledObject ?? this.object, this.options.call !== undefined);
        this.calledObject = null;
      } else if (key === 'ob') this.object = this.objectOf(line.slice(eq + 1));
      else if (key === 'cob') this.calledObject = this.objectOf(line.slice(eq + 1));
      else if (key === 'calls') this.afterCalls = true;
      return;
    }
    if (colon > 0) {
      const key = line.slice(0, colon);
      const value = line.slice(colon + 1).trim();
      if (key === 'positions') this.positions = value.split(/\s+/).length;
      else if (key === 'cmd' && this.options.gatewayBinary) this.program = baseName(value.split(/\s+/)[0] ?? '');
      else if (key === 'totals') this.total = Number(value.split(/\s+/)[0]);
    }
  }

  /** An object by its compressed id, remembered the first time it is named. */
  private objectOf(raw: string): string {
    const match = /^\((\d+)\)(?:\s+(.*))?$/.exec(raw.trim());
    if (!match) return this.named(raw.trim());
    const [, id, name] = match;
    if (name !== undefined) this.objectById.set(id!, this.named(name));
    return this.objectById.get(id!) ?? '';
  }

  private named(object: string): string {
    return this.program !== null && baseName(object) === this.program ? GATEWAY_BINARY : object;
  }

  /** A context by its compressed id ("(12) name" the first time, "(12)" after) or by its plain name. */
  private resolve(raw: string, object: string, needed = true): L | null {
    const match = /^\((\d+)\)(?:\s+(.*))?$/.exec(raw.trim());
    if (!match) {
      const name = raw.trim();
      if (!needed) return null;
      let leaf = this.leafByName.get(name);
      if (leaf === undefined) this.leafByName.set(name, (leaf = this.leaf(name.split("'"), object)));
      return leaf;
    }
    const [, id, name] = match;
    if (name !== undefined) {
      // A callee's first mention names it too: resolve it now, as later lines give only the id.
      const leaf = this.leaf(name.split("'"), object);
      this.leafById.set(id!, leaf);
      return leaf;
    }
    return this.leafById.get(id!) ?? null;
  }
}

/** Every context of a dump held in memory as text (small dumps, tests). */
export function callgrindContexts(text: string, options: { gatewayBinary?: boolean } = {}): { total: number | null; contexts: CallgrindContext[] } {
  const byFrames = new Map<string, CallgrindContext>();
  const reader = new ContextReader<CallgrindContext>(
    (frames, object) => {
      const key = frames.join("'");
      let context = byFrames.get(key);
      if (!context) byFrames.set(key, (context = { frames, object, self: 0 }));
      return context;
    },
    (context, self) => {
      context.self += self;
    },
    options,
  );
  for (const line of text.split('\n')) reader.line(line);
  return { total: reader.total, contexts: [...byFrames.values()].filter((c) => c.self > 0) };
}

/** Feeds a dump file to a reader, line by line. */
export async function readContextsFromFile<L>(file: string, reader: ContextReader<L>): Promise<void> {
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of lines) reader.line(line);
}

function baseName(file: string): string {
  return file.slice(file.lastIndexOf('/') + 1);
}
