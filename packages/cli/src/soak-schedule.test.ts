import { describe, expect, it } from 'vitest';
import { soakCalmSec, soakSchedule } from './soak-command.js';

describe('the calm a soak takes', () => {
  it('is 3 s for the Node built-ins, read after a forced GC', () => {
    for (const gateway of ['mesh', 'hive', 'apollo', 'hive@2.15.1', 'apollo@2.14.x']) expect(soakCalmSec(gateway, 90)).toBe(3);
  });

  it('is 15 s for a native or cmd: gateway, whose allocator returns pages slowly, and at most a third of a short interval', () => {
    for (const gateway of ['grafbase', 'hive-router', 'apollo-router@2.17.0', 'cmd:./my-router', 'hive-gateway-like-cmd'])
      expect(soakCalmSec(gateway, 90)).toBe(15);
    expect(soakCalmSec('grafbase', 30)).toBe(10);
    expect(soakCalmSec('grafbase', 5)).toBe(1);
  });

  it('takes --calm as given, and refuses one as long as the interval', () => {
    const flags = { duration: 1800, gateway: 'grafbase', calm: undefined, interval: undefined, snapshotEvery: undefined, warmup: undefined };
    expect(soakSchedule(flags)).toMatchObject({ intervalSec: 90, calmSec: 15 });
    expect(soakSchedule({ ...flags, calm: 2 }).calmSec).toBe(2);
    expect(() => soakSchedule({ ...flags, calm: 90 })).toThrow(/^--calm \(90 s\) must be shorter than the interval \(90 s, from --duration\)$/);
  });
});
