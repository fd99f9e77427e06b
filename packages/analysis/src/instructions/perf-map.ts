/**
 * V8's perf map (`--perf-basic-prof`: /tmp/perf-<pid>.map, one line per code object, "start size
 * name"): where each piece of JIT code lives, and for JavaScript which function it is
 * ("JS:~name url:line:column", ~ interpreted, ^ baseline, + Maglev, * TurboFan). V8 reuses the
 * memory of code it has freed: a later entry that overlaps earlier ones is newer code, and the
 * earlier ones are dead, so they are dropped (a module's top-level code, freed after start-up, would
 * otherwise name the functions compiled into its place).
 */
export interface JitCode {
  start: number;
  end: number;
  /** The whole name as V8 wrote it. */
  label: string;
  /** For JavaScript code: the function, its script and 1-based position; null otherwise. */
  js: { functionName: string; url: string; line: number; column: number } | null;
}

export class PerfMap {
  private readonly codes: JitCode[];

  constructor(text: string) {
    // Non-overlapping and sorted by start, in the file's order: each entry evicts what it overlaps.
    this.codes = [];
    for (const line of text.split('\n')) {
      const match = /^([0-9a-f]+) ([0-9a-f]+) (.*)$/i.exec(line.trim());
      if (!match) continue;
      const start = Number.parseInt(match[1]!, 16);
      const size = Math.max(1, Number.parseInt(match[2]!, 16));
      this.insert({ start, end: start + size, label: match[3]!, js: jsFunction(match[3]!) });
    }
  }

  private insert(code: JitCode): void {
    // First entry that ends after the new one starts: the first that may overlap it.
    let low = 0;
    let high = this.codes.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.codes[mid]!.end <= code.start) low = mid + 1;
      else high = mid;
    }
    let last = low;
    while (last < this.codes.length && this.codes[last]!.start < code.end) last++;
    this.codes.splice(low, last - low, code);
  }

  get size(): number {
    return this.codes.length;
  }

  /** The code object holding `address`, or null. */
  lookup(address: number): JitCode | null {
    let low = 0;
    let high = this.codes.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const code = this.codes[mid]!;
      if (address < code.start) high = mid - 1;
      else if (address >= code.end) low = mid + 1;
      else return code;
    }
    return null;
  }
}

function jsFunction(label: string): JitCode['js'] {
  const match = /^JS:[~^+*]?(.*?) ?(\S*):(\d+):(\d+)$/.exec(label);
  if (!match) return null;
  return { functionName: match[1]!, url: match[2]!, line: Number(match[3]), column: Number(match[4]) };
}
