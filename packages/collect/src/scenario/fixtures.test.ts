import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario } from './fixtures.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'gwprof-fixtures-'));
const file = (name: string, content: string): string => {
  const p = path.join(dir, name);
  writeFileSync(p, content);
  return p;
};

describe('loadScenario', () => {
  it('names a missing query file', () => {
    expect(() => loadScenario({ query: path.join(dir, 'nope.graphql') })).toThrow(/query file .*nope\.graphql does not exist/);
  });

  it('names a malformed query file with the location of the syntax error', () => {
    const q = file('bad.graphql', 'query { users { id }');
    expect(() => loadScenario({ query: q })).toThrow(/bad\.graphql is not valid GraphQL: Syntax Error.*line 1/);
  });

  it('rejects an empty query file and one with two operations', () => {
    expect(() => loadScenario({ query: file('empty.graphql', '  \n') })).toThrow(/is empty/);
    expect(() => loadScenario({ query: file('two.graphql', 'query A { a } query B { b }') })).toThrow(/exactly one operation \(found 2\)/);
  });

  it('loads variables lists and one golden per entry', () => {
    const q = file('q.graphql', 'query Q($id: ID!) { user(id: $id) { id } }');
    const v = file('v.json', JSON.stringify([{ id: '1' }, { id: '2' }]));
    const e = file('e.json', JSON.stringify([{ data: { user: { id: '1' } } }, { data: { user: { id: '2' } } }]));
    const scenario = loadScenario({ query: q, variables: v, expect: e });
    expect(scenario.requests.map((r) => r.operationName)).toEqual(['Q', 'Q']);
    expect(scenario.requests.map((r) => r.variables)).toEqual([{ id: '1' }, { id: '2' }]);
    expect(scenario.requests.map((r) => r.expected)).toEqual([{ user: { id: '1' } }, { user: { id: '2' } }]);
  });

  it('rejects goldens that do not match the variables count, or lack data', () => {
    const q = file('q2.graphql', 'query Q($id: ID!) { user(id: $id) { id } }');
    const v = file('v2.json', JSON.stringify([{ id: '1' }, { id: '2' }, { id: '3' }]));
    const e = file('e2.json', JSON.stringify([{ data: {} }, { data: {} }]));
    expect(() => loadScenario({ query: q, variables: v, expect: e })).toThrow(/has 2 responses but the variables file has 3 entries/);
    expect(() => loadScenario({ query: q, expect: file('e3.json', '{"users": []}') })).toThrow(/must hold \{"data": …\}/);
    expect(() => loadScenario({ query: q, variables: file('v3.json', '{not json') })).toThrow(/variables file .* is not valid JSON/);
  });
});
