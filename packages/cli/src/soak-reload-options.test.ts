import { describe, expect, it } from 'vitest';
import { reloadOptions } from './soak-reload-options.js';

const flags = { reloadEvery: 30, reloadWindow: 10 };

describe('soak --reload-every: the flags checked before anything starts', () => {
  it('takes hive, grafbase and the two routers as they are, and a cmd: gateway with a command or a signal and a log line', () => {
    expect(reloadOptions(flags, 'hive', 60, 3)).toEqual({ everySec: 30, windowSec: 10 });
    expect(reloadOptions(flags, 'grafbase@0.100.0', 60, 3)).toEqual({ everySec: 30, windowSec: 10 });
    expect(reloadOptions(flags, 'hive-router', 60, 3)).toEqual({ everySec: 30, windowSec: 10 });
    expect(reloadOptions(flags, 'apollo-router@2.17.0', 60, 3)).toEqual({ everySec: 30, windowSec: 10 });
    expect(reloadOptions({ ...flags, reloadSignal: 'SIGHUP', reloadSeen: 'reloaded' }, 'cmd:./router', 60, 3)).toEqual({
      everySec: 30,
      windowSec: 10,
      signal: 'SIGHUP',
      seenPattern: 'reloaded',
    });
    expect(reloadOptions({ reloadWindow: 10 }, 'mesh', 60, 3)).toBeNull();
  });

  it('refuses what cannot be reloaded or seen, and windows that overlap or do not fit, each in one line', () => {
    expect(() => reloadOptions(flags, 'mesh', 60, 3)).toThrow(
      '--reload-every: gwprof cannot reload mesh while it serves (it reloads hive, grafbase, hive-router, apollo-router, each watching its schema files, and a cmd: gateway given --reload-command or --reload-signal): see docs/soak-reload.md',
    );
    expect(() => reloadOptions({ ...flags, reloadSeen: 'x' }, 'cmd:./router', 60, 3)).toThrow(/--reload-command <cmd> or --reload-signal <SIG>, one of them/);
    expect(() => reloadOptions({ ...flags, reloadCommand: 'swap' }, 'cmd:./router', 60, 3)).toThrow(/give --reload-seen <regex>/);
    expect(() => reloadOptions({ ...flags, reloadSignal: 'SIGHUP' }, 'hive', 60, 3)).toThrow(/are for a cmd: gateway/);
    expect(() => reloadOptions({ ...flags, reloadEvery: 5 }, 'hive', 60, 3)).toThrow(/shorter than --reload-window/);
    expect(() => reloadOptions(flags, 'hive', 12, 3)).toThrow(/does not fit in an interval's load \(9 s\)/);
    expect(() => reloadOptions({ reloadWindow: 10, reloadSignal: 'SIGHUP' }, 'cmd:x', 60, 3)).toThrow(/need --reload-every/);
  });
});
