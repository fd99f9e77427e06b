import { afterEach, describe, expect, it } from 'vitest';
import type http from 'node:http';
import { buildSchema } from 'graphql';
import { type CallLogPage, paddingFrom, startSubgraph } from './index.js';

const schemas = { fed1: buildSchema('type Query { hello: String }'), fed2: buildSchema('type Query { hello: String form: String }') };
let servers: http.Server[] = [];

afterEach(() => {
  for (const server of servers) server.close();
  servers = [];
});

const post = (port: number, path = '/graphql', query = '{ hello }') =>
  fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
const requestsOn = async (port: number) => ((await (await fetch(`http://127.0.0.1:${port}/__gwprof/stats`)).json()) as { requests: number }).requests;

describe('startSubgraph', () => {
  it("serves on every port it is given and counts each port's requests apart", async () => {
    servers = await startSubgraph({ name: 'test', schemas, ports: [4791, 4792] });
    for (let i = 0; i < 3; i++) expect((await post(4791)).status).toBe(200);
    expect(await (await post(4792)).json()).toEqual({ data: { hello: null } });
    expect(await requestsOn(4791)).toBe(3);
    expect(await requestsOn(4792)).toBe(1);
  });

  it('fails, leaving no port open, when one of its ports is taken', async () => {
    servers = await startSubgraph({ name: 'first', schemas, ports: [4793] });
    await expect(startSubgraph({ name: 'second', schemas, ports: [4794, 4793] })).rejects.toMatchObject({ code: 'EADDRINUSE' });
    // 4794 was opened before 4793 failed, and closed again: it can be taken.
    servers.push(...(await startSubgraph({ name: 'third', schemas, ports: [4794] })));
  });

  it('serves the Federation 2 form on /fed2/graphql and the first form elsewhere, both counted', async () => {
    servers = await startSubgraph({ name: 'forms', schemas, ports: [4795] });
    expect(await (await post(4795, '/fed2/graphql', '{ form }')).json()).toEqual({ data: { form: null } });
    expect((await (await post(4795, '/graphql', '{ form }')).json()) as { errors?: unknown[] }).toHaveProperty('errors');
    expect(await requestsOn(4795)).toBe(2);
  });

  it("pads GraphQL responses with whitespace on the ports it is told to only, leaving each response's JSON as it was", async () => {
    servers = await startSubgraph({ name: 'padded', schemas, ports: [4796, 4797], paddingByPort: paddingFrom('4797=5000') });
    const plain = await (await post(4796)).text();
    const padded = await (await post(4797)).text();
    expect(padded.length).toBe(plain.length + 5000);
    expect(JSON.parse(padded)).toEqual(JSON.parse(plain));
    expect(padded.trimStart()).toBe(plain);
    expect(() => paddingFrom('4797:5000')).toThrow(/"4797:5000" is not port=bytes/);
  });

  it('logs the calls of sampled traces with the bytes of their answers, and empties the log when read', async () => {
    servers = await startSubgraph({ name: 'test', schemas, ports: [4795] });
    const traceparent = `00-${'ab'.repeat(16)}-${'cd'.repeat(8)}-01`;
    const answer = await (
      await fetch('http://127.0.0.1:4795/graphql', { method: 'POST', headers: { traceparent }, body: JSON.stringify({ query: '{ hello }' }) })
    ).text();
    expect((await post(4795)).status).toBe(200);
    const page = (await (await fetch('http://127.0.0.1:4795/__gwprof/calls')).json()) as CallLogPage;
    expect(page.calls.map((call) => [call.traceId, call.bytes])).toEqual([['ab'.repeat(16), Buffer.byteLength(answer)]]);
    expect(((await (await fetch('http://127.0.0.1:4795/__gwprof/calls')).json()) as CallLogPage).calls).toEqual([]);
  });
});
