/**
 * Loaded into the gateway process with `node --require` (through NODE_OPTIONS) when a sweep
 * profiles. It listens on a Unix socket named after its pid and, on the harness's command,
 * starts or stops V8's CPU sampler through the built-in inspector module, so each profile
 * covers exactly one measurement window. Idle until asked: no cost outside a window beyond
 * one unref'd socket. Plain CommonJS with no dependencies, so it adds no loader frames.
 */
import inspector = require('node:inspector');
import net = require('node:net');
import fs = require('node:fs');
import path = require('node:path');
import workerThreads = require('node:worker_threads');

interface Command {
  op: 'ping' | 'start' | 'stop';
  intervalUs?: number;
  file?: string;
}

const directory = process.env.GWPROF_PROFILER_DIR;
// Loader-hook threads (e.g. Hive Gateway's) run --require preloads again: only the main
// thread, where the gateway's JavaScript runs, may own the control socket.
if (directory && workerThreads.isMainThread) {
  const socketPath = path.join(directory, `profiler-${process.pid}.sock`);
  let session: inspector.Session | null = null;

  const post = <T,>(method: string, params?: object): Promise<T> =>
    new Promise((resolve, reject) => {
      session!.post(method, params ?? {}, (error: Error | null, result?: unknown) => (error ? reject(error) : resolve(result as T)));
    });

  const handle = async (command: Command): Promise<object> => {
    switch (command.op) {
      case 'ping':
        return { pid: process.pid };
      case 'start':
        if (!session) {
          session = new inspector.Session();
          session.connect();
        }
        await post('Profiler.enable');
        await post('Profiler.setSamplingInterval', { interval: command.intervalUs ?? 1000 });
        await post('Profiler.start');
        return { started: true };
      case 'stop': {
        if (!session) throw new Error('profiler was not started');
        const { profile } = await post<{ profile: { samples?: number[] } }>('Profiler.stop');
        await post('Profiler.disable');
        if (!command.file) throw new Error('stop needs a file');
        fs.writeFileSync(command.file, JSON.stringify(profile));
        return { samples: profile.samples?.length ?? 0 };
      }
      default:
        throw new Error(`unknown command ${String((command as Command).op)}`);
    }
  };

  const server = net.createServer((connection) => {
    let buffer = '';
    connection.setEncoding('utf8');
    connection.on('data', (chunk: string) => {
      buffer += chunk;
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        let command: Command;
        try {
          command = JSON.parse(line) as Command;
        } catch {
          connection.write(JSON.stringify({ ok: false, error: 'bad command' }) + '\n');
          continue;
        }
        handle(command).then(
          (result) => connection.write(JSON.stringify({ ok: true, ...result }) + '\n'),
          (error: Error) => connection.write(JSON.stringify({ ok: false, error: error.message }) + '\n'),
        );
      }
    });
    connection.on('error', () => undefined);
  });
  try {
    fs.rmSync(socketPath, { force: true });
  } catch {
    // nothing to remove
  }
  server.on('error', () => undefined);
  server.listen(socketPath, () => server.unref());
  process.on('exit', () => {
    try {
      fs.rmSync(socketPath, { force: true });
    } catch {
      // best effort
    }
  });
}
