/**
 * The one reader of callgrind's dumps: it reads the lines (compressed "(id) name" names, objects,
 * files, `positions:`, cost lines, `calls=` and the call's inclusive cost after it, `events:`,
 * `totals:`, `summary:`) and hands what it found to a visitor: each function context once, its self
 * counts, and, when the visitor asks, each call. The allocation counter, the call graph, the
 * contexts of a dump with callers and a dump's self counts by function are its visitors. Read line
 * by line: a dump of a large gateway with deep contexts runs to hundreds of megabytes.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

/**
 * The object of the program callgrind ran (its `cmd:`), whatever its path: two builds of one
 * gateway live at different paths (two checkouts, two cache folders), and their functions pair.
 */
export const GATEWAY_BINARY = '(the gateway binary)';

export interface DumpVisitor<L> {
  /**
   * A function context, the first time the dump names it: "fn'caller1'caller2…" split into frames
   * (innermost first; one frame without --separate-callers), and the ELF object it lives in.
   */
  context(frames: string[], object: string): L;
  /** A cost line in the context's body: the first event's count there, and the source file (`fl=`) it is filed under. */
  self(context: L, count: number, file: string): void;
  /** A call from one context to another: how many calls, and their inclusive count (the callee's, never the caller's self). Unread when absent. */
  call?(caller: L, callee: L, calls: number, inclusive: number): void;
}

export interface ReaderOptions {
  /**
   * The program callgrind ran is the gateway's own binary (not node, whose path already pairs across
   * builds and versions): its objects are named GATEWAY_BINARY.
   */
  gatewayBinary?: boolean;
}

const COMPRESSED = /^\((\d+)\)(?:\s+(.*))?$/;

/** Reads a dump's lines, fed one at a time, for one visitor. */
export class CallgrindReader<L> {
  private readonly contextById = new Map<string, L>();
  private readonly contextByName = new Map<string, L>();
  private readonly objectById = new Map<string, string>();
  private readonly fileById = new Map<string, string>();
  private positions = 1;
  private current: L | null = null;
  private callee: L | null = null;
  /** The `calls=` count whose inclusive cost is the next cost line; null outside a call. */
  private pendingCalls: number | null = null;
  private object = '';
  private calledObject: string | null = null;
  private file = '???';
  /** The file name of the program callgrind ran, from the `cmd:` header. */
  private program: string | null = null;
  events: string[] = ['Ir'];
  /** The `totals:` line's first event; null before it (callgrind writes it last). */
  total: number | null = null;
  /** The `summary:` line's first event, which callgrind writes in the header. */
  summary: number | null = null;

  constructor(
    private readonly visitor: DumpVisitor<L>,
    private readonly options: ReaderOptions = {},
  ) {}

  line(line: string): void {
    if (line === '' || line.charCodeAt(0) === 35) return;
    const c = line.charCodeAt(0);
    // Cost lines are most of a dump: told apart by their first character alone.
    if ((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 42) {
      this.cost(line);
      return;
    }
    const eq = line.indexOf('=');
    const colon = line.indexOf(':');
    if (eq > 0 && (colon < 0 || eq < colon)) this.assignment(line.slice(0, eq), line.slice(eq + 1));
    else if (colon > 0) this.header(line.slice(0, colon), line.slice(colon + 1).trim());
  }

  private cost(line: string): void {
    const value = Number(line.trim().split(/\s+/)[this.positions] ?? 0);
    if (this.pendingCalls !== null) {
      const calls = this.pendingCalls;
      this.pendingCalls = null;
      if (this.visitor.call && this.current !== null && this.callee !== null) this.visitor.call(this.current, this.callee, calls, value);
      return;
    }
    if (this.current !== null && value > 0) this.visitor.self(this.current, value, this.file);
  }

  private assignment(key: string, value: string): void {
    if (key === 'fn') this.current = this.resolve(value, this.object);
    else if (key === 'cfn') {
      // A callee's object is the caller's unless a cob= line named another just before.
      this.callee = this.resolve(value, this.calledObject ?? this.object, this.visitor.call !== undefined);
      this.calledObject = null;
    } else if (key === 'ob') this.object = this.objectOf(value);
    else if (key === 'cob') this.calledObject = this.objectOf(value);
    else if (key === 'fl') this.file = this.fileOf(value);
    else if (key === 'fi' || key === 'fe' || key === 'cfl' || key === 'cfi') this.fileOf(value);
    else if (key === 'calls') this.pendingCalls = Number(value.split(/\s+/)[0] ?? 0);
  }

  private header(key: string, value: string): void {
    if (key === 'positions') this.positions = value.split(/\s+/).length;
    else if (key === 'events') this.events = value.split(/\s+/);
    else if (key === 'cmd' && this.options.gatewayBinary) this.program = baseName(value.split(/\s+/)[0] ?? '');
    else if (key === 'totals') this.total = Number(value.split(/\s+/)[0]);
    else if (key === 'summary') this.summary = Number(value.split(/\s+/)[0]);
  }

  /** A source file by its compressed id, remembered the first time it is named. */
  private fileOf(raw: string): string {
    const match = COMPRESSED.exec(raw.trim());
    if (!match) return raw.trim();
    const [, id, name] = match;
    if (name !== undefined) this.fileById.set(id!, name);
    return this.fileById.get(id!) ?? raw.trim();
  }

  /** An object by its compressed id, remembered the first time it is named. */
  private objectOf(raw: string): string {
    const match = COMPRESSED.exec(raw.trim());
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
    const match = COMPRESSED.exec(raw.trim());
    if (!match) {
      const name = raw.trim();
      if (!needed) return null;
      let context = this.contextByName.get(name);
      if (context === undefined) this.contextByName.set(name, (context = this.visitor.context(name.split("'"), object)));
      return context;
    }
    const [, id, name] = match;
    if (name !== undefined) {
      // A callee's first mention names it too: resolve it now, as later lines give only the id.
      const context = this.visitor.context(name.split("'"), object);
      this.contextById.set(id!, context);
      return context;
    }
    return this.contextById.get(id!) ?? null;
  }
}

/** Feeds a dump's text to a reader. */
export function readDumpText<L>(text: string, reader: CallgrindReader<L>): CallgrindReader<L> {
  for (const line of text.split('\n')) reader.line(line);
  return reader;
}

/** Feeds a dump file to a reader, line by line. */
export async function readDumpFile<L>(file: string, reader: CallgrindReader<L>): Promise<CallgrindReader<L>> {
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of lines) reader.line(line);
  return reader;
}

function baseName(file: string): string {
  return file.slice(file.lastIndexOf('/') + 1);
}
