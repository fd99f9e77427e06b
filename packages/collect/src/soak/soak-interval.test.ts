import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { soakSleep } from './soak-interval.js';

describe('soakSleep', () => {
  it('leaves no listener on the stop signal after each sleep, so a week of samples holds nothing', async () => {
    const stopper = new AbortController();
    for (let i = 0; i < 200; i++) await soakSleep(0, stopper.signal);
    expect(getEventListeners(stopper.signal, 'abort')).toHaveLength(0);
  });

  it('ends at once when the soak is stopped', async () => {
    const stopper = new AbortController();
    const keepAlive = setTimeout(() => undefined, 60_000);
    const started = Date.now();
    setTimeout(() => stopper.abort(), 20);
    await soakSleep(30_000, stopper.signal);
    clearTimeout(keepAlive);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
