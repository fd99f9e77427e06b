import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readScenarioFile } from './scenario-file.js';
import { requestKey, scenarioOfFile, writeGoldens } from './goldens.js';
import { candidateRequests, loadRequests, recordedSource } from '../run/scenario-source.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'gwprof-scenario-file-'));
const file = (name: string, content: string): string => {
  const p = path.join(dir, name);
  writeFileSync(p, content);
  return p;
};

file('a.graphql', 'query A($id: ID!) { a(id: $id) { id } }');
const VALID = `
gateway: cmd:node gw.js
subgraphs:
  - { name: things, url: "http://127.0.0.1:4999/graphql", command: node things.js }
operations:
  - { queryFile: a.graphql, variables: [{ id: "1" }, { id: "2" }, { id: "3" }] }
  - { query: "query B { b } query C { c }", operationName: C }
goldens: goldens.json
`;

describe('readScenarioFile', () => {
  it("takes paths from the file's folder and names the scenario after the file", () => {
    const spec = readScenarioFile(file('shop.yaml', VALID));
    expect(spec.name).toBe('shop');
    expect(spec.dir).toBe(dir);
    expect(spec.goldens).toBe(path.join(dir, 'goldens.json'));
    expect(spec.subgraphs).toEqual([{ name: 'things', url: 'http://127.0.0.1:4999/graphql', port: 4999, command: 'node things.js', proxy: false }]);
    expect(spec.operations[0]!.query).toMatch(/query A/);
  });

  it('puts a counting proxy in front of a subgraph it starts when asked', () => {
    const spec = readScenarioFile(file('proxied.yaml', VALID.replace('command: node things.js', 'command: node things.js, proxy: true')));
    expect(spec.subgraphs[0]!.proxy).toBe(true);
  });

  it('says in one line what to fix', () => {
    const cases: [string, RegExp][] = [
      ['operations: []', /operations must list at least one operation/],
      ['operations: [{ query: "{ a }", queryFile: a.graphql }]', /give query \(the text\) or queryFile \(a path\), one of them/],
      ['operations: [{ query: "{ a }", vars: {} }]', /operations\[0\]: unknown field "vars"/],
      ['subgraphs: [{ name: x, url: "http://10.0.0.2:80/graphql" }]\noperations: [{ query: "{ a }" }]', /loopback/],
      ['subgraphs: [{ name: x, url: "http://127.0.0.1/graphql" }]\noperations: [{ query: "{ a }" }]', /with a port/],
      ['operations: [{ query: "{ a }", variables: [1] }]', /variables must be an object or a non-empty list of objects/],
      ['operations: [ { query: ', /is not valid YAML or JSON/],
      ['subgraphs: [{ name: x, url: "http://127.0.0.1:4999/graphql", proxy: true }]\noperations: [{ query: "{ a }" }]', /proxy: true needs a command/],
      [
        'subgraphs: [{ name: x, url: "http://127.0.0.1:4999/graphql", command: x, proxy: yes }]\noperations: [{ query: "{ a }" }]',
        /proxy must be true or false/,
      ],
    ];
    for (const [text, message] of cases) expect(() => readScenarioFile(file('bad.yaml', text))).toThrow(message);
  });
});

describe('scenarioOfFile', () => {
  it('interleaves the operations and picks the named operation of a document', () => {
    const spec = { ...readScenarioFile(file('mix.yaml', VALID)), goldens: null };
    const requests = scenarioOfFile(spec).requests;
    expect(requests.map((r) => r.operationName)).toEqual(['A', 'C', 'A', 'A']);
    expect(requests.map((r) => r.variables)).toEqual([{ id: '1' }, null, { id: '2' }, { id: '3' }]);
    expect(requests.every((r) => r.expected === null)).toBe(true);
  });

  it('takes goldens given in the file before recorded ones, one for every set or one per set', () => {
    const given = `
operations:
  - { queryFile: a.graphql, variables: [{ id: "1" }, { id: "2" }], expect: [{ data: { a: 1 } }, { data: { a: 2 } }] }
  - { query: "{ b }", expect: { data: { b: true } } }
`;
    const requests = scenarioOfFile(readScenarioFile(file('given.yaml', given))).requests;
    expect(requests.map((r) => r.expected)).toEqual([{ a: 1 }, { b: true }, { a: 2 }]);
    expect(scenarioOfFile(readScenarioFile(file('given.yaml', given)), false).requests.every((r) => r.expected === null)).toBe(true);
    expect(() =>
      readScenarioFile(file('bad-given.yaml', 'operations: [{ query: "{ b }", variables: [{}, {}, {}], expect: [{ data: 1 }, { data: 2 }] }]')),
    ).toThrow(/has 2 responses for 3 variable sets/);
  });

  it('gives each request the golden recorded for its own body, and refuses one that was not recorded', () => {
    const spec = readScenarioFile(file('keyed.yaml', VALID));
    expect(() => scenarioOfFile(spec)).toThrow(/goldens file .*goldens\.json does not exist: record it with gwprof goldens/);
    const requests = scenarioOfFile(spec, false).requests;
    const responses = requests.map((r, i) => ({ operationName: r.operationName ?? null, variables: r.variables, request: requestKey(r.body), data: { n: i } }));
    writeGoldens(spec.goldens!, { gwprof: 'goldens', scenario: 'shop', recordedFrom: 'x', recordedAt: '', responses: [...responses].reverse() });
    expect(scenarioOfFile(spec).requests.map((r) => r.expected)).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }, { n: 3 }]);
    writeGoldens(spec.goldens!, { gwprof: 'goldens', scenario: 'shop', recordedFrom: 'x', recordedAt: '', responses: responses.slice(1) });
    expect(() => scenarioOfFile(spec)).toThrow(/no response for operation A with variables \{"id":"1"\}: record them again/);
  });
});

describe('loadRequests and candidateRequests: goldens are required, or none on purpose', () => {
  const noGoldens = () => readScenarioFile(file('bare.yaml', VALID.replace('goldens: goldens.json\n', '')));

  it('refuses a scenario file whose requests have no golden, unless --expect-none says so', () => {
    expect(() => loadRequests(noGoldens())).toThrow(
      /operation A of .*bare\.yaml has no golden response: record them with gwprof goldens .* or pass --expect-none/,
    );
    const unchecked = loadRequests({ ...noGoldens(), expectNone: true });
    expect(unchecked.requests.every((r) => r.expected === null)).toBe(true);
    expect(recordedSource({ ...noGoldens(), expectNone: true })).toMatchObject({ expect: null, expectNone: true });
  });

  it('refuses query files without an expected response, unless --expect-none says so', () => {
    const query = file('q.graphql', 'query Q { q }');
    expect(() => loadRequests({ query, variables: null, expect: null })).toThrow(
      /q\.graphql has no golden response: give --expect FILE .* or pass --expect-none/,
    );
    expect(loadRequests({ query, variables: null, expect: null, expectNone: true }).requests).toHaveLength(1);
  });

  it('checks the candidate against its own goldens for the same requests, and refuses goldens of other requests', () => {
    const spec = readScenarioFile(file('pr.yaml', VALID.replace('goldens: goldens.json', 'goldens: main-goldens.json')));
    const requests = scenarioOfFile(spec, false).requests;
    const goldens = (name: string, data: (i: number) => unknown, keyed = requests) =>
      writeGoldens(path.join(dir, name), {
        gwprof: 'goldens',
        scenario: 'pr',
        recordedFrom: name,
        recordedAt: '',
        responses: keyed.map((r, i) => ({ operationName: r.operationName ?? null, variables: r.variables, request: requestKey(r.body), data: data(i) })),
      });
    goldens('main-goldens.json', (i) => ({ price: i }));
    goldens('pr-goldens.json', (i) => ({ price: i + 1 }));
    const baseline = loadRequests(spec);
    const candidate = candidateRequests(spec, baseline, path.join(dir, 'pr-goldens.json'));
    expect(candidate.requests.map((r) => r.body)).toEqual(baseline.requests.map((r) => r.body));
    expect(candidate.requests.map((r) => r.expected)).toEqual(baseline.requests.map((_, i) => ({ price: i + 1 })));
    expect(candidateRequests(spec, baseline, null)).toBe(baseline);
    goldens('other-goldens.json', (i) => ({ price: i }), requests.slice(1));
    expect(() => candidateRequests(spec, baseline, path.join(dir, 'other-goldens.json'))).toThrow(/no response for operation A/);
    expect(() => candidateRequests({ ...spec, expectNone: true }, baseline, path.join(dir, 'pr-goldens.json'))).toThrow(/drop one of them/);
  });
});
