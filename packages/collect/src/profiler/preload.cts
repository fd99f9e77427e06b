/**
 * Loaded into the gateway process with `node --require` (through NODE_OPTIONS) when a sweep
 * profiles or a soak runs. It listens on a Unix socket named after its pid and, on the harness's
 * command, starts or stops V8's CPU sampler and its allocation sampler through the built-in
 * inspector module, so each profile covers exactly one measurement window; for a soak it reports
 * the process's state, forces a full GC and writes heap snapshots. Idle until asked: no cost
 * outside a window beyond one unref'd socket. Plain CommonJS with no dependencies, so it adds no
 * loader frames.
 */
import inspector = require('node:inspector');
import net = require('node:net');
import fs = require('node:fs');
import path = require('node:path');
import workerThreads = require('node:worker_threads');
import perfHooks = require('node:perf_hooks');
import v8 = require('node:v8');
import fullGc = require('./full-gc.cjs');
import accounts = require('./preload-accounts.cjs');
import type { ProfilerCommand, ProfilerEnvelope, ProfilerReply } from './protocol.js';

const directory = process.env.GWPROF_PROFILER_DIR;
// Loader-hook threads (e.g. Hive Gateway's) run --require preloads again: only the main
// thread, where the gateway's JavaScript runs, may own the control socket.
if (directory && workerThreads.isMainThread) {
  const socketPath = path.join(directory, `profiler-${process.pid}.sock`);
  let session: inspector.Session | null = null;
  let samplingHeap = false;
  const window = new accounts.WindowAccount();
  const allocated = new accounts.AllocatedBytes();
  let account: accounts.ProcessAccount | null = null;

  const post = <T,>(method: string, params?: object): Promise<T> =>
    new Promise((resolve, reject) => {
      session!.post(method, params ?? {}, (error: Error | null, result?: unknown) => (error ? reject(error) : resolve(result as T)));
    });

  const connect = (): void => {
    if (session) return;
    session = new inspector.Session();
    session.connect();
  };

  const handle = async (command: ProfilerCommand): Promise<ProfilerReply> => {
    switch (command.op) {
      case 'ping':
        return { pid: process.pid };
      case 'stats':
        account ??= new accounts.ProcessAccount();
        return account.sample();
      case 'gc': {
        // As global.gc() does, not the inspector's HeapProfiler.collectGarbage: that is V8's
        // low-memory notification, which also clears the compilation cache, and Mesh came out of
        // every such calm with about 20% more CPU per request and 5 times the p99 (docs/validation/soak.md).
        // Twice: the first pass queues weak callbacks and finalizers that free more in the second.
        fullGc.fullGc();
        fullGc.fullGc();
        const memory = process.memoryUsage();
        const heap = v8.getHeapStatistics();
        return {
          rssBytes: memory.rss,
          heapUsedBytes: memory.heapUsed,
          heapTotalBytes: memory.heapTotal,
          externalBytes: memory.external,
          arrayBuffersBytes: memory.arrayBuffers,
          rssAnonBytes: accounts.anonymousRss(),
          heapPhysicalBytes: heap.total_physical_size,
          v8MallocedBytes: heap.malloced_memory,
        };
      }
      case 'allocated':
        return { bytes: allocated.bytes() };
      case 'snapshot': {
        if (!command.file) throw new Error('snapshot needs a file');
        const before = process.memoryUsage();
        const file = v8.writeHeapSnapshot(command.file);
        // A snapshot leaves V8 tracking object moves in every GC (GC time tripled in a test here)
        // until the heap profiler is switched off: the gateway must not stay slower for having been looked at.
        if (!samplingHeap) {
          connect();
          await post('HeapProfiler.enable');
          await post('HeapProfiler.disable');
        }
        // RSS and heap on both sides of the snapshot: the allocator keeps (or gives back) much of what
        // building it took, which is why the soak reads RSS only up to its first snapshot; the report shows the step.
        const after = process.memoryUsage();
        return {
          file,
          bytes: fs.statSync(file).size,
          memoryAround: { before: { rssBytes: before.rss, heapTotalBytes: before.heapTotal }, after: { rssBytes: after.rss, heapTotalBytes: after.heapTotal } },
        };
      }
      case 'inlining': {
        // V8's allocation sampler names only the outermost function of an optimised frame, so a
        // function TurboFan inlined has its bytes charged to its caller. Without inlining each
        // function keeps its frame. The flag holds for code optimised from now on; switching the
        // inspector's coverage to precise mode drops every optimised function at once (V8 does so
        // because inlined functions would not count their calls), and back to best effort at once.
        connect();
        const t0 = perfHooks.performance.now();
        v8.setFlagsFromString(command.enabled ? '--turbo-inlining' : '--no-turbo-inlining');
        await post('Profiler.enable');
        await post('Profiler.startPreciseCoverage', { callCount: false, detailed: false });
        await post('Profiler.stopPreciseCoverage');
        await post('Profiler.disable');
        return { ms: perfHooks.performance.now() - t0 };
      }
      case 'heapStart':
        connect();
        await startHeapSampling(command.heapSamplingBytes);
        return { started: true as const };
      case 'heapStop':
        if (!session || !samplingHeap) throw new Error('allocations were not being sampled');
        return { heapSamples: await stopHeapSampling(command.heapFile) };
      case 'start':
        connect();
        if (command.heapSamplingBytes) await startHeapSampling(command.heapSamplingBytes);
        await post('Profiler.enable');
        await post('Profiler.setSamplingInterval', { interval: command.intervalUs ?? 1000 });
        await post('Profiler.start');
        window.start();
        return { started: true as const };
      case 'stop': {
        if (!session) throw new Error('profiler was not started');
        const { profile } = await post<{ profile: { samples?: number[] } }>('Profiler.stop');
        const account = window.stop();
        await post('Profiler.disable');
        const heapSamples = samplingHeap ? await stopHeapSampling(command.heapFile) : null;
        if (!command.file) throw new Error('stop needs a file');
        fs.writeFileSync(command.file, JSON.stringify(profile));
        return { samples: profile.samples?.length ?? 0, heapSamples, ...account };
      }
      default:
        throw new Error(`unknown command ${String((command as { op?: unknown }).op)}`);
    }
  };

  const startHeapSampling = async (samplingInterval: number): Promise<void> => {
    // Every sampled object stays in the profile, collected or not: the profile is what was
    // allocated in the window, not what survived it.
    await post('HeapProfiler.enable');
    await post('HeapProfiler.startSampling', { samplingInterval, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    samplingHeap = true;
  };

  const stopHeapSampling = async (file: string | undefined): Promise<number> => {
    samplingHeap = false;
    const { profile } = await post<{ profile: { samples?: unknown[] } }>('HeapProfiler.stopSampling');
    await post('HeapProfiler.disable');
    if (!file) throw new Error('stop needs a heapFile when allocations were sampled');
    fs.writeFileSync(file, JSON.stringify(profile));
    return profile.samples?.length ?? 0;
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
        const send = (envelope: ProfilerEnvelope) => connection.write(`${JSON.stringify(envelope)}\n`);
        let command: ProfilerCommand;
        try {
          command = JSON.parse(line) as ProfilerCommand;
        } catch {
          send({ ok: false, error: 'bad command' });
          continue;
        }
        handle(command).then(
          (reply) => send({ ok: true, reply }),
          (error: Error) => send({ ok: false, error: error.message }),
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
