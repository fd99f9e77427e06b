#!/usr/bin/env node
// What a chunked body costs gwprof's load engine per response against one with a Content-Length,
// and against undici, the client it replaced.
//
// `parser`: the engine's ResponseParser alone, on responses already in memory (one whole response
// a push, as a read of a gateway's answer on loopback brings it): ns per response for each body
// shape, in rounds of rotating order, the median. `--before FILE` adds another build's compiled
// http1-response-parser.js (no imports of its own) beside this one.
//
// `client`: one keep-alive connection, requests one after another, to a server in a process of its
// own that answers every request with the same bytes: this process's CPU µs per response (user +
// system), gwprof's Http1Connection and undici's Client taking turns, rounds in rotating order.
//
//   node bench/dist/chunked-cost.js [--body 2048] [--rounds 5] [--responses 20000] [--before /tmp/http1-response-parser.js]
// Prints a markdown table on stdout; progress on stderr.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { once } from 'node:events';
import { pathToFileURL } from 'node:url';
import { Http1Connection, ResponseParser } from '@gwprof/collect';
import { benchArgs } from './args.js';

const { values } = benchArgs({
  options: {
    body: { type: 'string', default: '2048' },
    rounds: { type: 'string', default: '5' },
    responses: { type: 'string', default: '20000' },
    'client-responses': { type: 'string', default: '10000' },
    before: { type: 'string', default: '' },
  },
});
const bodyBytes = Number(values.body);
const rounds = Number(values.rounds);
const responses = Number(values.responses);
const clientResponses = Number(values['client-responses']);
const log = (line: string) => process.stderr.write(`${line}\n`);

/** A JSON body of `bodyBytes`, its bytes as a gateway would send them. */
const BODY = Buffer.from(`{"data":{"pad":"${'x'.repeat(Math.max(0, bodyBytes - 20))}"}}`);

/** The body's framings compared: its length, or chunks of a given size (`chunk-8`: 8-byte chunks, as a streaming gateway may flush them). */
const SHAPES: Array<{ name: string; bytes: Buffer }> = [
  {
    name: 'content-length',
    bytes: Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${BODY.length}\r\n\r\n`), BODY]),
  },
  ...[BODY.length, 256, 64, 8].map((size) => ({ name: size === BODY.length ? 'chunked, 1 chunk' : `chunked, ${size}-byte chunks`, bytes: chunked(size) })),
];

function chunked(size: number): Buffer {
  const parts: Buffer[] = [Buffer.from('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n')];
  for (let at = 0; at < BODY.length; at += size) {
    const piece = BODY.subarray(at, Math.min(BODY.length, at + size));
    parts.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(parts);
}

interface Parser {
  push(chunk: Buffer): { body: Buffer } | null;
}
type ParserClass = new () => Parser;

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** ns per response of `Parser` on `bytes`, `responses` times on one parser. */
function parseCost(Parser: ParserClass, bytes: Buffer): number {
  const parser = new Parser();
  let length = 0;
  const started = process.hrtime.bigint();
  for (let i = 0; i < responses; i++) length += parser.push(bytes)!.body.length;
  const ns = Number(process.hrtime.bigint() - started) / responses;
  if (length !== responses * BODY.length) throw new Error('a body came back with the wrong length');
  return ns;
}

async function parserTable(): Promise<string[]> {
  const parsers: Array<{ name: string; Parser: ParserClass }> = [{ name: 'this build', Parser: ResponseParser as unknown as ParserClass }];
  if (values.before)
    parsers.push({ name: 'before', Parser: ((await import(pathToFileURL(values.before).href)) as { ResponseParser: ParserClass }).ResponseParser });
  const ns = new Map<string, number[]>();
  for (let round = 0; round < rounds; round++) {
    const order = parsers.map((_, i) => parsers[(i + round) % parsers.length]!);
    for (const { name, Parser } of order) {
      for (const shape of SHAPES) {
        parseCost(Parser, shape.bytes); // warm
        const key = `${name}\0${shape.name}`;
        ns.set(key, [...(ns.get(key) ?? []), parseCost(Parser, shape.bytes)]);
      }
    }
    log(`parser round ${round + 1}/${rounds} done`);
  }
  const lines = [
    `| body (${BODY.length} bytes) | ${parsers.map((p) => `${p.name}: ns/response`).join(' | ')} | ${parsers.map((p) => `${p.name}: × content-length`).join(' | ')} |`,
    `| --- |${' --- |'.repeat(parsers.length * 2)}`,
  ];
  for (const shape of SHAPES) {
    const cells = parsers.map((p) => median(ns.get(`${p.name}\0${shape.name}`)!));
    const base = parsers.map((p) => median(ns.get(`${p.name}\0content-length`)!));
    lines.push(`| ${shape.name} | ${cells.map((v) => v.toFixed(0)).join(' | ')} | ${cells.map((v, i) => (v / base[i]!).toFixed(2)).join(' | ')} |`);
  }
  return lines;
}

/** A server in a child process answering each request (head and Content-Length body) with `bytes`. */
async function startServer(bytes: Buffer): Promise<{ port: number; stop: () => void }> {
  const code = `
    const net = require('node:net');
    const answer = Buffer.from(process.env.ANSWER, 'base64');
    const server = net.createServer((socket) => {
      socket.setNoDelay(true);
      let pending = Buffer.alloc(0);
      socket.on('data', (chunk) => {
        pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
        for (;;) {
          const end = pending.indexOf('\\r\\n\\r\\n');
          if (end === -1) return;
          const length = Number(/content-length: (\\d+)/i.exec(pending.toString('latin1', 0, end))?.[1] ?? 0);
          if (pending.length < end + 4 + length) return;
          pending = pending.subarray(end + 4 + length);
          socket.write(answer);
        }
      });
      socket.on('error', () => {});
    });
    server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));`;
  const child = spawn(process.execPath, ['-e', code], { env: { ...process.env, ANSWER: bytes.toString('base64') }, stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  return { port: Number(line.toString().trim()), stop: () => child.kill() };
}

const REQUEST_BODY = '{"query":"{ pad }"}';

/** This process's CPU µs per response over `count` requests, one after another. */
async function cpuPerResponse(send: () => Promise<number>, count: number): Promise<number> {
  for (let i = 0; i < 500; i++) await send(); // warm
  const before = process.cpuUsage();
  for (let i = 0; i < count; i++) if ((await send()) !== BODY.length) throw new Error('a body came back with the wrong length');
  const used = process.cpuUsage(before);
  return (used.user + used.system) / count;
}

interface UndiciClient {
  request(options: { method: string; path: string; headers: Record<string, string>; body: string }): Promise<{ body: { arrayBuffer(): Promise<ArrayBuffer> } }>;
  close(): Promise<void>;
}

async function clientTable(): Promise<string[]> {
  // undici is collect's dependency, not the bench's: resolved from there.
  const { Client } = createRequire(import.meta.resolve('@gwprof/collect'))('undici') as { Client: new (url: string) => UndiciClient };
  const shapes = SHAPES.filter((s) => s.name === 'content-length' || s.name === 'chunked, 1 chunk' || s.name === 'chunked, 8-byte chunks');
  const us = new Map<string, number[]>();
  for (let round = 0; round < rounds; round++) {
    for (const shape of shapes) {
      const server = await startServer(shape.bytes);
      const message = Buffer.from(
        `POST /graphql HTTP/1.1\r\nhost: 127.0.0.1:${server.port}\r\nconnection: keep-alive\r\ncontent-type: application/json\r\naccept: application/json\r\ncontent-length: ${REQUEST_BODY.length}\r\n\r\n${REQUEST_BODY}`,
      );
      const connection = new Http1Connection('127.0.0.1', server.port);
      const gwprof = () =>
        new Promise<number>((resolve, reject) => connection.send(message, { onResponse: (_status, body) => resolve(body.length), onError: reject }));
      const client = new Client(`http://127.0.0.1:${server.port}`);
      const undici = async () => {
        const response = await client.request({
          method: 'POST',
          path: '/graphql',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: REQUEST_BODY,
        });
        return (await response.body.arrayBuffer()).byteLength;
      };
      const clients: Array<[string, () => Promise<number>]> = [
        ['gwprof', gwprof],
        ['undici', undici],
      ];
      for (const [name, send] of round % 2 === 0 ? clients : clients.reverse()) {
        const key = `${name}\0${shape.name}`;
        us.set(key, [...(us.get(key) ?? []), await cpuPerResponse(send, clientResponses)]);
      }
      connection.close();
      await client.close();
      server.stop();
    }
    log(`client round ${round + 1}/${rounds} done`);
  }
  const lines = [
    `| body (${BODY.length} bytes), one connection | gwprof µs CPU/response | undici µs CPU/response | gwprof / undici |`,
    '| --- | --- | --- | --- |',
  ];
  for (const shape of shapes) {
    const g = median(us.get(`gwprof\0${shape.name}`)!);
    const u = median(us.get(`undici\0${shape.name}`)!);
    lines.push(`| ${shape.name} | ${g.toFixed(1)} | ${u.toFixed(1)} | ${(g / u).toFixed(2)} |`);
  }
  return lines;
}

const parser = await parserTable();
const client = await clientTable();
process.stdout.write(
  [
    `chunked-cost, ${new Date().toISOString()}, node ${process.version}, ${rounds} rounds (medians), ${responses} responses a parse, ${clientResponses} a client`,
    '',
    ...parser,
    '',
    ...client,
    '',
  ].join('\n'),
);
