/**
 * The streaming reader of `.heapsnapshot` files: bytes in any split to typed arrays of nodes and
 * edges and a list of strings, never the whole text as one string (a large snapshot is longer than
 * the longest string V8 can hold). heap-snapshot.ts builds the graph from what it returns.
 */
import { GwprofError } from '@gwprof/results';

/** The arrays and tables of a snapshot as read, before they are checked. */
export interface GraphParts {
  meta: unknown;
  nodeCount: unknown;
  nodes: Uint32Array;
  edges: Uint32Array;
  strings: unknown;
}

const NONE = 0xffffffff;

export function notSnapshot(source: string, what: string): GwprofError {
  return new GwprofError(`${source}: not a V8 heap snapshot: ${what}`);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// Bytes the reader looks for.
const TAB = 9;
const NEWLINE = 10;
const RETURN = 13;
const SPACE = 32;
const QUOTE = 34;
const COMMA = 44;
const ZERO = 48;
const NINE = 57;
const COLON = 58;
const OPEN_BRACKET = 91;
const BACKSLASH = 92;
const CLOSE_BRACKET = 93;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;

/** A copy, since a chunk's memory may be reused once the next one is read. */
const copyOf = (b: Uint8Array, from: number, to: number): Uint8Array => new Uint8Array(b.subarray(from, to));

const isSpace = (c: number) => c === SPACE || c === NEWLINE || c === RETURN || c === TAB;

/** A growable Uint32Array. */
class NumberList {
  values: Uint32Array;
  length = 0;

  constructor(capacity: number) {
    this.values = new Uint32Array(Math.max(capacity, 1024));
  }

  push(v: number): void {
    if (this.length === this.values.length) {
      const bigger = new Uint32Array(this.values.length * 2);
      bigger.set(this.values);
      this.values = bigger;
    }
    this.values[this.length++] = v;
  }

  toArray(): Uint32Array {
    return this.values.length === this.length ? this.values : this.values.slice(0, this.length);
  }
}

/** Where the reader is: in the top-level object's keys, or inside the value of one of them. */
type Mode = 'start' | 'firstKey' | 'nextKey' | 'key' | 'colon' | 'value' | 'afterValue' | 'end' | 'numbers' | 'strings' | 'other';

/**
 * A byte-level state machine for the top-level object: the big arrays ("nodes", "edges", "strings")
 * go straight into typed arrays and a string list, "snapshot" (the small meta) is kept as text and
 * parsed, and every other value is skipped. Keys may come in any order.
 */
export class SnapshotReader {
  private mode: Mode = 'start';
  private key = '';
  private meta: Record<string, unknown> | null = null;
  private lists = new Map<string, NumberList>();
  private strings: string[] | null = null;
  // The value being read: a number, a string's bytes, or a skipped value's nesting.
  private list: NumberList | null = null;
  private number = -1;
  private opened = false;
  private inString = false;
  private escaped = false;
  private hasEscape = false;
  private depth = 0;
  private pieces: Uint8Array[] = [];
  private capture = false;
  private offset = 0;

  constructor(private readonly source: string) {}

  push(chunk: Uint8Array): void {
    let i = 0;
    while (i < chunk.length) i = this.step(chunk, i);
    this.offset += chunk.length;
  }

  finish(): GraphParts {
    if (this.mode !== 'end') throw notSnapshot(this.source, 'the file ends early (truncated?)');
    const [nodes, edges] = [this.lists.get('nodes'), this.lists.get('edges')];
    if (!this.meta) throw notSnapshot(this.source, 'no "snapshot"');
    if (!nodes || !edges || !this.strings) throw notSnapshot(this.source, 'no "nodes", "edges" or "strings"');
    return { meta: this.meta.meta, nodeCount: this.meta.node_count, nodes: nodes.toArray(), edges: edges.toArray(), strings: this.strings };
  }

  private step(b: Uint8Array, i: number): number {
    switch (this.mode) {
      case 'numbers':
        return this.readNumbers(b, i);
      case 'strings':
        return this.readStrings(b, i);
      case 'other':
      case 'key':
        return this.readValue(b, i);
      default:
        return this.readStructure(b, i);
    }
  }

  /** The top-level object's punctuation around its keys and values. */
  private readStructure(b: Uint8Array, i: number): number {
    const c = b[i]!;
    if (isSpace(c)) return i + 1;
    const mode = this.mode;
    if (mode === 'start' && c === OPEN_BRACE) this.mode = 'firstKey';
    else if ((mode === 'firstKey' || mode === 'afterValue') && c === CLOSE_BRACE) this.mode = 'end';
    else if (mode === 'afterValue' && c === COMMA) this.mode = 'nextKey';
    else if ((mode === 'firstKey' || mode === 'nextKey') && c === QUOTE) {
      this.startValue(true);
      this.mode = 'key';
      return i;
    } else if (mode === 'colon' && c === COLON) this.mode = 'value';
    else if (mode === 'value') {
      this.startKeyValue();
      return i;
    } else throw this.unexpected(c, i);
    return i + 1;
  }

  /** Chooses how to read the value of the key just read. */
  private startKeyValue(): void {
    const key = this.key;
    this.opened = false;
    if (key === 'nodes' || key === 'edges') {
      const meta = this.meta?.meta;
      const fields = isRecord(meta) ? meta[key === 'nodes' ? 'node_fields' : 'edge_fields'] : undefined;
      const count = this.meta?.[key === 'nodes' ? 'node_count' : 'edge_count'];
      // Sized from the meta when it came first (V8 writes it first); capped in case it lies.
      const known = Array.isArray(fields) && typeof count === 'number' && Number.isSafeInteger(count) && count >= 0;
      const capacity = known ? Math.min(fields.length * count, 1 << 28) : 0;
      this.list = new NumberList(capacity);
      this.lists.set(key, this.list);
      this.number = -1;
      this.mode = 'numbers';
    } else if (key === 'strings') {
      this.strings = [];
      this.inString = false;
      this.mode = 'strings';
    } else {
      this.startValue(key === 'snapshot');
      this.mode = 'other';
    }
  }

  /** "nodes" and "edges": non-negative integers, comma-separated, straight into a typed array. */
  private readNumbers(b: Uint8Array, i: number): number {
    const list = this.list!;
    let number = this.number;
    for (; i < b.length; i++) {
      const c = b[i]!;
      if (c >= ZERO && c <= NINE) {
        number = number < 0 ? c - ZERO : number * 10 + (c - ZERO);
        continue;
      }
      if (number >= 0) {
        if (number > NONE) throw notSnapshot(this.source, `a number in "${this.key}" does not fit 32 bits`);
        list.push(number);
        number = -1;
      }
      const punctuation = this.listPunctuation(c);
      if (punctuation === 'skip') continue;
      if (punctuation === 'closed') return i + 1;
      throw this.unexpected(c, i);
    }
    this.number = number;
    return i;
  }

  /** A list's own bytes: space, commas and its opening bracket are skipped; its closing bracket ends it. */
  private listPunctuation(c: number): 'skip' | 'closed' | 'item' {
    if (isSpace(c) || (c === COMMA && this.opened)) return 'skip';
    if (c === OPEN_BRACKET && !this.opened) {
      this.opened = true;
      return 'skip';
    }
    if (c === CLOSE_BRACKET && this.opened) {
      this.mode = 'afterValue';
      return 'closed';
    }
    return 'item';
  }

  /** "strings": JSON strings, each decoded once its closing quote is found. */
  private readStrings(b: Uint8Array, i: number): number {
    if (this.inString) return this.readStringBody(b, i);
    for (; i < b.length; i++) {
      const c = b[i]!;
      const punctuation = this.listPunctuation(c);
      if (punctuation === 'skip') continue;
      if (punctuation === 'closed') return i + 1;
      if (c !== QUOTE || !this.opened) throw this.unexpected(c, i);
      this.inString = true;
      this.hasEscape = false;
      this.escaped = false;
      this.pieces = [];
      return this.readStringBody(b, i + 1);
    }
    return i;
  }

  private readStringBody(b: Uint8Array, i: number): number {
    const from = i;
    let escaped = this.escaped;
    for (; i < b.length; i++) {
      const c = b[i]!;
      if (escaped) escaped = false;
      else if (c === BACKSLASH) escaped = this.hasEscape = true;
      else if (c === QUOTE) {
        this.pieces.push(b.subarray(from, i));
        this.strings!.push(this.decodeString());
        this.inString = false;
        return i + 1;
      }
    }
    this.escaped = escaped;
    this.pieces.push(copyOf(b, from, i));
    return i;
  }

  private decodeString(): string {
    const bytes = this.pieces.length === 1 ? this.pieces[0]! : Buffer.concat(this.pieces);
    this.pieces = [];
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    return this.hasEscape ? (JSON.parse(`"${text}"`) as string) : text;
  }

  private startValue(capture: boolean): void {
    this.capture = capture;
    this.pieces = [];
    this.depth = 0;
    this.inString = false;
    this.escaped = false;
    this.opened = false;
  }

  /**
   * Any JSON value, skipped or (for keys and "snapshot") kept as bytes. A string or container ends at
   * its closing character; a bare scalar at the first character that cannot belong to it.
   */
  private readValue(b: Uint8Array, i: number): number {
    const from = i;
    for (; i < b.length; i++) {
      const c = b[i]!;
      if (!this.opened) {
        if (isSpace(c)) continue;
        this.opened = true;
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) {
          this.inString = false;
          if (this.depth === 0) return this.endValue(b, from, i + 1);
        }
      } else if (c === QUOTE) this.inString = true;
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) this.depth++;
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        if (this.depth === 0) return this.endValue(b, from, i);
        if (--this.depth === 0) return this.endValue(b, from, i + 1);
      } else if (this.depth === 0 && (c === COMMA || isSpace(c))) return this.endValue(b, from, i);
    }
    if (this.capture) this.pieces.push(copyOf(b, from, i));
    return i;
  }

  private endValue(b: Uint8Array, from: number, end: number): number {
    if (this.capture) {
      this.pieces.push(b.subarray(from, end));
      const text = Buffer.concat(this.pieces).toString('utf8');
      this.pieces = [];
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        throw notSnapshot(this.source, `invalid JSON near byte ${this.offset + end} (${(error as Error).message})`);
      }
      if (this.mode === 'key') {
        this.key = String(value);
        this.mode = 'colon';
        return end;
      }
      if (!isRecord(value)) throw notSnapshot(this.source, '"snapshot" is not an object');
      this.meta = value;
    }
    this.mode = 'afterValue';
    return end;
  }

  private unexpected(c: number, i: number): GwprofError {
    const shown = c >= 32 && c < 127 ? `"${String.fromCharCode(c)}"` : `byte ${c}`;
    return notSnapshot(this.source, `unexpected ${shown} at byte ${this.offset + i}`);
  }
}
