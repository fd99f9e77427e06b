// A recording proxy in front of the four subgraphs: PROXY_PORTS=a,b,c,d TARGET_PORTS=w,x,y,z OUT=file.jsonl;
// every POST body is appended to OUT as {subgraph, path, body}, then forwarded.
import http from 'node:http';
import { appendFileSync } from 'node:fs';
const names = ['accounts', 'reviews', 'products', 'inventory'];
const proxy = process.env.PROXY_PORTS.split(',').map(Number);
const target = process.env.TARGET_PORTS.split(',').map(Number);
names.forEach((name, i) => {
  http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.method === 'POST') appendFileSync(process.env.OUT, JSON.stringify({ subgraph: name, path: req.url, body: body.toString() }) + '\n');
      const up = http.request({ host: '127.0.0.1', port: target[i], method: req.method, path: req.url, headers: req.headers }, (r) => {
        res.writeHead(r.statusCode, r.headers);
        r.pipe(res);
      });
      up.end(body);
    });
  }).listen(proxy[i], '127.0.0.1');
});
console.log('recording');
