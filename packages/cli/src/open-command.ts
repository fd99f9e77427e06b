/**
 * `gwprof open [run-dir]`: serves the profiles folder on 127.0.0.1 (read-only, files only)
 * and prints the report's URL. Useful where file:// is awkward (remote machines with a
 * forwarded port, browsers that restrict file:// pages).
 */
import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Command } from 'commander';
import { DEFAULTS } from '@gwprof/collect';
import { GwprofError } from '@gwprof/results';
import { parsePort } from './options.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.cpuprofile': 'application/json; charset=utf-8',
  '.log': 'text/plain; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/** The newest run folder (by name: run ids start with a timestamp) that has a report. */
export function latestRun(profilesDir: string): string | null {
  if (!existsSync(profilesDir)) return null;
  const runs = readdirSync(profilesDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(path.join(profilesDir, e.name, 'index.html')))
    .map((e) => e.name)
    .sort();
  return runs.at(-1) ?? null;
}

export function serveFolder(root: string, port: number): Promise<http.Server> {
  const base = path.resolve(root);
  const server = http.createServer((req, res) => {
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
    } catch {
      res.writeHead(400).end('bad request');
      return;
    }
    const file = path.resolve(base, `.${pathname}`);
    // Never serve outside the folder.
    if (file !== base && !file.startsWith(base + path.sep)) {
      res.writeHead(403).end('forbidden');
      return;
    }
    const target = existsSync(file) && statSync(file).isDirectory() ? path.join(file, 'index.html') : file;
    if (!existsSync(target) || !statSync(target).isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(target)] ?? 'application/octet-stream' });
    createReadStream(target).pipe(res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new GwprofError(`port ${port} is already in use: choose another with --port`) : error),
    );
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

export function openCommand(): Command {
  return new Command('open')
    .description("serve the profiles folder on 127.0.0.1 and print the URL of a run's report (default: the newest run)")
    .argument('[run-dir]', 'a run folder')
    .option('-p, --port <port>', 'port to listen on (default: any free port)', parsePort('--port'))
    .option('--profiles <dir>', 'the profiles folder to serve when no run folder is given', DEFAULTS.outDir)
    .action(async (runDirArg: string | undefined, flags: { port?: number; profiles: string }) => {
      let root: string;
      let run: string;
      if (runDirArg) {
        const runDir = path.resolve(runDirArg);
        if (!existsSync(runDir)) throw new GwprofError(`${runDir} does not exist: give a run folder (gwprof open with no argument opens the newest run)`);
        const hasRecord = ['results.json', 'compare.json'].some((file) => existsSync(path.join(runDir, file)));
        if (!hasRecord) throw new GwprofError(`${runDir} holds neither results.json nor compare.json: is this a gwprof run folder?`);
        if (!existsSync(path.join(runDir, 'index.html'))) throw new GwprofError(`${runDir} has no index.html: run 'gwprof report ${runDirArg}' first`);
        root = path.dirname(runDir);
        run = path.basename(runDir);
      } else {
        root = path.resolve(flags.profiles);
        const latest = latestRun(root);
        if (!latest) throw new GwprofError(`no run with a report in ${root}: run 'pnpm bench:sweep' first`);
        run = latest;
      }
      const server = await serveFolder(root, flags.port ?? 0);
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : flags.port;
      process.stdout.write(
        `serving ${root} on http://127.0.0.1:${port}/ (Ctrl-C to stop)\nreport: http://127.0.0.1:${port}/${encodeURIComponent(run)}/index.html\n`,
      );
      await new Promise<void>((resolve) => {
        const stop = (): void => {
          server.close();
          server.closeAllConnections();
          resolve();
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}
