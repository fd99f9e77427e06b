/** What the compare tests (compare.test.ts, compare.long.test.ts) share: their ports and short designs. */
import { portArgs } from './cli.js';

export const BASE_PORT = 4530;
export const ports = [...portArgs(BASE_PORT), '--candidate-port', String(BASE_PORT + 5)];
// A 4× effect needs no warm JIT: Mesh's CPU per request is still falling after 5 s of warm-up (and after 3).
export const fast = ['--window', '2', '--lead-in', '1', '-w', '3', '--min-epochs', '3', '--budget', '6'];
// The stub has no JIT to warm up, and a 50% or 4× effect needs no precision: short epochs of one window a side.
export const fastStub = ['--window', '2', '--lead-in', '1', '-w', '1', '--windows-per-side', '1', '--min-epochs', '3', '--budget', '5'];
// The stub is at its level from its first request: no lead-in before a window (a rate keeps one, so
// its windows count whole seconds of arrivals).
export const quickStub = ['--window', '2', '--lead-in', '0', '-w', '1', '--windows-per-side', '1', '--min-epochs', '3', '--budget', '5'];
