import { describe, expect, it } from 'vitest';
import { callgrindTotal, parseCallgrindDump } from './callgrind-dump.js';

// A dump as callgrind writes it: compressed names, a call whose inclusive cost must not count as the caller's self cost.
const DUMP = `# callgrind format
version: 1
creator: callgrind-3.19.0
pid: 42
cmd:  node server.js
part: 1

desc: Trigger: dump batch1

positions: line
events: Ir
summary: 0

ob=(1) /usr/bin/node
fl=(1) ???
fn=(1) Builtins_InterpreterEntryTrampoline
0 100
cfn=(2) v8::internal::Heap::Scavenge
calls=2 0
0 5000
0 20
fl=(2) heap.cc
fn=(2)
16 4000
+2 1000
fn=(3) 0x000000000401a2b0
0 7

totals: 5127
`;

describe('parseCallgrindDump', () => {
  it("reads the total and each function's self count, names resolved, calls' inclusive costs left to the callee", () => {
    const dump = parseCallgrindDump(DUMP);
    expect(dump.events).toEqual(['Ir']);
    expect(dump.total).toBe(5127);
    const self = new Map([...dump.selfByFunction.values()].map((e) => [e.fn, e.self]));
    expect(self.get('Builtins_InterpreterEntryTrampoline')).toBe(120);
    expect(self.get('v8::internal::Heap::Scavenge')).toBe(5000);
    expect(self.get('0x000000000401a2b0')).toBe(7);
    expect([...self.values()].reduce((a, b) => a + b, 0)).toBe(dump.total);
  });

  it('takes the total from the totals line, not the summary that precedes it', () => {
    expect(callgrindTotal(DUMP)).toBe(5127);
    expect(callgrindTotal('summary: 12\n')).toBe(12);
    expect(callgrindTotal('no counts here')).toBeNull();
  });
});
