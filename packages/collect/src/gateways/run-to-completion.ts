import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Logger } from 'pino';

/** Runs a preparation command (build, compose) to the end, logging its output; throws with its last lines on failure. */
export function runToCompletion(
  what: string,
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; logger: Logger; timeoutMs: number },
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const tail: string[] = [];
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => {
        tail.push(line);
        if (tail.length > 20) tail.shift();
        options.logger.info({ step: what }, line);
      });
    }
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`${what} could not run: ${error.message}`));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`${what} failed (${signal ?? `exit ${code}`}); last output:\n  ${tail.slice(-10).join('\n  ')}`));
    });
  });
}
