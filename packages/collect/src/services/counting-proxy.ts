/**
 * A counting proxy in front of a subgraph gwprof cannot count itself (a scenario file's own, with
 * `proxy: true`): it forwards every request to the subgraph on its inner port, streaming both ways
 * over kept-alive connections, and counts them, so fan-out can be reported. It answers
 * GET /__gwprof/stats itself, as gwprof's demo subgraphs do, logs the calls of traced requests as
 * they do (GET /__gwprof/calls), and forwards nothing else of its own.
 */
import http from 'node:http';
import { CallLog, logTracedCall, takeCallPage } from '@gwprof/subgraph-server';

export interface CountingProxy {
  server: http.Server;
  /** Requests forwarded so far. */
  requests(): number;
}

/** Listens on 127.0.0.1:listenPort and forwards to 127.0.0.1:targetPort. */
export function startCountingProxy(name: string, listenPort: number, targetPort: number): Promise<CountingProxy> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  let requests = 0;
  const calls = new CallLog(name);
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url?.startsWith('/__gwprof/stats')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ name, requests }));
      return;
    }
    if (req.method === 'GET' && req.url?.startsWith('/__gwprof/calls')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(takeCallPage(calls, req.url)));
      return;
    }
    requests++;
    let bytes = 0;
    logTracedCall(calls, req.headers.traceparent, res, () => bytes);
    forward(req, res, targetPort, agent, (n) => {
      bytes += n;
    });
  });
  // Longer than any gateway's own client keep-alive, so the proxy never closes a connection the gateway is about to reuse.
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(listenPort, '127.0.0.1', () => {
      server.off('error', reject);
      resolve({ server, requests: () => requests });
    });
  });
}

function forward(req: http.IncomingMessage, res: http.ServerResponse, targetPort: number, agent: http.Agent, onBytes: (n: number) => void): void {
  const upstream = http.request({ host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers: req.headers, agent }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.headers);
    answer.on('data', (chunk: Buffer) => onBytes(chunk.length));
    answer.pipe(res);
  });
  upstream.on('error', (error) => {
    // The subgraph failed, not the gateway: a 502 the gateway sees, as it would from the subgraph itself failing.
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ errors: [{ message: `gwprof's counting proxy could not reach the subgraph: ${error.message}` }] }));
  });
  // The gateway gave up on the call: so does the proxy.
  res.on('close', () => {
    if (!res.writableFinished) upstream.destroy();
  });
  req.pipe(upstream);
}
