import { describe, expect, it } from 'vitest';
import { CallLog, sampledTraceId } from './call-log.js';

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
});
