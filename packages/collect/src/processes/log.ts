/** pino loggers writing JSON lines into the run folder's logs/, one file per process. */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import pino, { type Logger } from 'pino';

export interface RunLogs {
  harness: Logger;
  forProcess(name: string): Logger;
  flush(): void;
}

export function createRunLogs(runDir: string): RunLogs {
  const dir = path.join(runDir, 'logs');
  mkdirSync(dir, { recursive: true });
  const destinations: pino.DestinationStream[] = [];
  const open = (name: string): Logger => {
    // sync writes: logs must survive a Ctrl-C or a crash of the harness.
    const destination = pino.destination({ dest: path.join(dir, `${name}.log`), sync: true, mkdir: true });
    destinations.push(destination);
    return pino({ base: { process: name } }, destination);
  };
  const harness = open('harness');
  const cache = new Map<string, Logger>();
  return {
    harness,
    forProcess(name) {
      let logger = cache.get(name);
      if (!logger) cache.set(name, (logger = open(name)));
      return logger;
    },
    flush() {
      for (const d of destinations) (d as { flushSync?: () => void }).flushSync?.();
    },
  };
}
