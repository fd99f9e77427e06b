import { describe, expect, it } from 'vitest';
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { CallLog, logTracedCall, sampledTraceId, takeCallPage } from './call-log.js';

describe('the call log', () => {
  it('reads the trace id of a sampled traceparent only', () => {
    const id = '0af7651916cd43dd8448eb211c80319c';
    expect(sampledTraceId(`00-${id}-b7ad6b7169203331-01`)).toBe(id);
    expect(sampledTraceId(`00-${id}-b7ad6b7169203331-03`)).toBe(id);
    expect(sampledTraceId(`00-${id}-b7ad6b7169203331-00`)).toBeNull();
    expect(sampledTraceId(undefined)).toBeNull();
    expect(sampledTraceId('garbage')).toBeNull();
  });

  it('keeps at most its capacity between reads and counts the rest as dropped', () => {
    const log = new CallLog('accounts', 2);
    for (let i = 0; i < 5; i++) log.add({ traceId: String(i), start: i, end: i + 1, bytes: 10 });
    const page = log.take();
    expect(page.calls.map((call) => call.traceId)).toEqual(['0', '1']);
    expect(page.dropped).toBe(3);
    expect(log.take()).toEqual({ name: 'accounts', calls: [], dropped: 0 });
  });

  it('logs calls without a traceparent only while asked to (?untraced=1 until ?untraced=0), as trace id ""', () => {
    const log = new CallLog('reviews');
    const call = (traceparent: string | undefined): void => {
      const res = new EventEmitter() as unknown as ServerResponse;
      logTracedCall(log, traceparent, res, () => 5);
      res.emit('finish');
    };
    const unsampled = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00';
    call(undefined);
    expect(takeCallPage(log, '/__gwprof/calls?untraced=1').calls).toHaveLength(0);
    call(undefined);
    call(unsampled);
    const page = takeCallPage(log, '/__gwprof/calls?untraced=0');
    expect(page.calls.map((c) => c.traceId)).toEqual(['']);
    call(undefined);
    expect(takeCallPage(log, '/__gwprof/calls').calls).toHaveLength(0);
  });
});
