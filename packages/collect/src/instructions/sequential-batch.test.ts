import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseOperation, scenarioRequest, type Scenario } from '../scenario/scenario.js';
import { sendSequential } from './sequential-batch.js';

const seen: IncomingHttpHeaders[] = [];
const server = createServer((request, response) => {
  seen.push(request.headers);
  request.resume();
  request.on('end', () => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"data":{"a":1}}');
  });
});
let url = '';
const scenario: Scenario = { source: 'test', requests: [scenarioRequest(parseOperation('{ a }', 'test'), null, { a: 1 })] };

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
});
afterAll(() => server.close());

describe('sendSequential', () => {
  it("adds each request's extra headers, by its place in the batch, to the engine's", async () => {
    seen.length = 0;
    const sent = await sendSequential(url, scenario, [0, 0, 0], 5_000, new AbortController().signal, (n) => ({ traceparent: `request-${n}` }));
    expect(sent.ok).toBe(3);
    expect(seen.map((h) => h.traceparent)).toEqual(['request-0', 'request-1', 'request-2']);
    expect(seen.every((h) => h['content-type'] === 'application/json')).toBe(true);
  });

  it('sends no traceparent without them', async () => {
    seen.length = 0;
    await sendSequential(url, scenario, [0], 5_000, new AbortController().signal);
    expect(seen[0]!.traceparent).toBeUndefined();
  });
});
