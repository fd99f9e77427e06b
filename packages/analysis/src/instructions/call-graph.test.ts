import { describe, expect, it } from 'vitest';
import { callGraph } from './call-graph.js';

// A dump without --separate-callers: two callers of one function, a recursion's deeper level ("f'2"), a call into libc.
const DUMP = `events: Ir
positions: line
ob=(1) /usr/bin/node
fn=(1) main
0 10
cfn=(2) work
calls=3 0
0 900
cfn=(3) other
calls=1 0
0 100
fn=(3)
0 40
cfn=(2)
calls=1 0
0 60
fn=(2)
0 500
cob=(2) /usr/lib/libc.so.6
cfn=(4) memcpy
calls=5 0
0 70
cfn=(5) work'2
calls=1 0
0 330
fn=(5)
0 300
cfn=(2)
calls=1 0
0 30
ob=(2)
fn=(4)
0 70
totals: 920
`;

describe('callGraph', () => {
  const graph = callGraph(DUMP);
  const fn = (name: string) => graph.functions.find((f) => f.name === name)!;

  it("keeps each function's self count, a recursion's deeper levels counted as the function", () => {
    expect(graph.total).toBe(920);
    expect(graph.functions.map((f) => [f.name, f.self])).toEqual(
      expect.arrayContaining([
        ['main', 10],
        ['other', 40],
        ['work', 800],
        ['memcpy', 70],
      ]),
    );
    expect(graph.functions).toHaveLength(4);
  });

  it("weighs each caller by its calls' inclusive instructions, leaves out a function's calls to itself, and names the callee's object", () => {
    expect([...fn('work').callers].map(([caller, inclusive]) => [caller.name, inclusive])).toEqual([
      ['main', 900],
      ['other', 60],
    ]);
    expect([...fn('memcpy').callers].map(([caller, inclusive]) => [caller.name, inclusive])).toEqual([['work', 70]]);
    expect(fn('memcpy').object).toBe('/usr/lib/libc.so.6');
    expect(fn('main').callers.size).toBe(0);
  });
});
