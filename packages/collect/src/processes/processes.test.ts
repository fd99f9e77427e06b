import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { spawnManaged } from './processes.js';

describe('spawnManaged', () => {
  it("logs a process's output up to its cap, then counts the lines it leaves out, and keeps the tail", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'gwprof-log-')), 'child.log');
    const logger = pino(pino.destination({ dest: file, sync: true }));
    // 1,000 lines of 100 bytes (with the newline) against a 10,000-byte cap: 100 logged, 900 counted.
    const child = spawnManaged({
      name: 'printer',
      command: process.execPath,
      args: ['-e', "for (let i = 0; i < 1000; i++) console.log(String(i).padStart(99, '.'))"],
      env: process.env,
      logger,
      logCapBytes: 10_000,
    });
    await child.exited;
    const entries = () =>
      readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { msg: string; stream?: string; unloggedLines?: number; capBytes?: number });
    await expect.poll(() => entries().some((e) => e.unloggedLines !== undefined), { timeout: 5000 }).toBe(true);
    const logged = entries().filter((e) => e.stream === 'stdout');
    expect(logged).toHaveLength(100);
    expect(logged.at(-1)!.msg).toBe('99'.padStart(99, '.'));
    expect(entries().filter((e) => e.capBytes === 10_000)).toHaveLength(1);
    expect(entries().find((e) => e.unloggedLines !== undefined)!.unloggedLines).toBe(900);
    expect(child.tail().at(-1)).toBe('999'.padStart(99, '.'));
  });
});
