import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { startCountingProxy, type CountingProxy } from './counting-proxy.js';
import { freePort } from '../processes/ports.js';
import type { CallLogPage } from '@gwprof/subgraph-server';

/** A subgraph stand-in: echoes the method, path, a header and the body it got, with a status of its own. */
function upstream(): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      res.writeHead(201, { 'content-type': 'application/json', 'x-subgraph': 'yes' });
      res.end(JSON.stringify({ method: req.method, path: req.url, auth: req.headers.authorization ?? null, body }));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const closing: Array<{ close(): unknown }> = [];
afterAll(() => {
  for (const server of closing) server.close();
});

describe('the counting proxy', () => {
  it('forwards requests and answers unchanged, and counts every one of them but its own stats', async () => {
    const target = await upstream();
    closing.push(target);
    const port = await freePort();
    const proxy: CountingProxy = await startCountingProxy('things', port, (target.address() as AddressInfo).port);
    closing.push(proxy.server);
    const answers = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const response = await fetch(`http://127.0.0.1:${port}/graphql?n=${i}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${i}`, 'content-type': 'application/json' },
          body: JSON.stringify({ query: `{ n${i} }` }),
        });
        return { status: response.status, header: response.headers.get('x-subgraph'), json: (await response.json()) as Record<string, unknown> };
      }),
    );
    answers.forEach((a, i) => {
      expect(a).toEqual({
        status: 201,
        header: 'yes',
        json: { method: 'POST', path: `/graphql?n=${i}`, auth: `Bearer ${i}`, body: JSON.stringify({ query: `{ n${i} }` }) },
      });
    });
    const stats = (await (await fetch(`http://127.0.0.1:${port}/__gwprof/stats`)).json()) as { name: string; requests: number };
    expect(stats).toEqual({ name: 'things', requests: 40 });
    expect(proxy.requests()).toBe(40);
  });

  it('answers 502 with a GraphQL error when the subgraph is not there', async () => {
    const port = await freePort();
    const proxy = await startCountingProxy('gone', port, await freePort());
    closing.push(proxy.server);
    const response = await fetch(`http://127.0.0.1:${port}/graphql`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(502);
    expect(((await response.json()) as { errors: Array<{ message: string }> }).errors[0]!.message).toMatch(/could not reach the subgraph/);
  });

  it('logs the calls of sampled traces, with their trace id, times and answer bytes, and empties its log when read', async () => {
    const target = await upstream();
    closing.push(target);
    const port = await freePort();
    const proxy = await startCountingProxy('things', port, (target.address() as AddressInfo).port);
    closing.push(proxy.server);
    const traceId = 'ab'.repeat(16);
    const send = (flags: string) =>
      fetch(`http://127.0.0.1:${port}/graphql`, { method: 'POST', headers: { traceparent: `00-${traceId}-${'cd'.repeat(8)}-${flags}` }, body: '{}' }).then(
        (r) => r.text(),
      );
    const before = Number(process.hrtime.bigint()) / 1e6;
    const body = await send('01');
    await send('00');
    await fetch(`http://127.0.0.1:${port}/graphql`, { method: 'POST', body: '{}' });
    const after = Number(process.hrtime.bigint()) / 1e6;
    const read = async () => (await (await fetch(`http://127.0.0.1:${port}/__gwprof/calls`)).json()) as CallLogPage;
    const page = await read();
    expect(page.name).toBe('things');
    expect(page.dropped).toBe(0);
    expect(page.calls).toHaveLength(1);
    const call = page.calls[0]!;
    expect(call.traceId).toBe(traceId);
    expect(call.bytes).toBe(Buffer.byteLength(body));
    expect(call.start).toBeGreaterThanOrEqual(before);
    expect(call.end).toBeGreaterThanOrEqual(call.start);
    expect(call.end).toBeLessThanOrEqual(after);
    expect((await read()).calls).toEqual([]);
    // Every request was forwarded and counted, traced or not.
    expect(proxy.requests()).toBe(3);
  });
});
