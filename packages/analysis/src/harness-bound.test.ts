import { describe, expect, it } from 'vitest';
import { harnessBoundReason, neighbourWarning } from './harness-bound.js';

const cores = (cpus: string, busyPercent: number) => ({ cpus, busyPercent });

describe('harnessBoundReason', () => {
  it('flags a gateway with room to spare beside a full harness core, naming who used it', () => {
    const reason = harnessBoundReason({
      gatewayCpuPercent: 44,
      gatewayCores: cores('1', 45),
      harnessCores: cores('0', 97),
      processes: { 'load engine': 10, reviews: 23, products: 17, accounts: 7, inventory: 12 },
    });
    expect(reason).toMatch(
      /CPU 0 was 97% busy \(gwprof's processes: reviews 23%, products 17%, inventory 12%, load engine 10%, accounts 7%; other processes about 28%\)/,
    );
    expect(reason).toMatch(/the gateway used 44% of its CPU 1/);
  });

  it('flags one single-threaded process flat out even when the cores are not full', () => {
    const reason = harnessBoundReason({
      gatewayCpuPercent: 60,
      gatewayCores: cores('1', 61),
      harnessCores: cores('0,2', 60),
      processes: { 'load engine': 98, reviews: 20 },
    });
    expect(reason).toMatch(/load engine at its limit/);
  });

  it('flags a gateway just short of its limit beside a full harness: whose limit it met is unknown', () => {
    expect(harnessBoundReason({ gatewayCpuPercent: 86, gatewayCores: cores('1', 87), harnessCores: cores('0', 98), processes: { reviews: 40 } })).toMatch(
      /the gateway used 86%/,
    );
  });

  it('does not flag a gateway at its limit, a quiet harness, or a gateway it cannot see', () => {
    expect(harnessBoundReason({ gatewayCpuPercent: 97, gatewayCores: cores('1', 98), harnessCores: cores('0', 99), processes: { reviews: 95 } })).toBeNull();
    expect(harnessBoundReason({ gatewayCpuPercent: 180, gatewayCores: cores('2,3', 91), harnessCores: cores('0,1', 99), processes: {} })).toBeNull();
    expect(harnessBoundReason({ gatewayCpuPercent: 36, gatewayCores: cores('1', 37), harnessCores: cores('0', 70), processes: { reviews: 20 } })).toBeNull();
    expect(harnessBoundReason({ gatewayCpuPercent: null, gatewayCores: null, harnessCores: cores('0', 99), processes: { reviews: 99 } })).toBeNull();
  });
});

describe('neighbourWarning', () => {
  it("says when other processes took a fair share of the gateway's core, and not otherwise", () => {
    expect(neighbourWarning(40, { cpus: '1', busyPercent: 100 })).toMatch(/other processes of the machine used about 60% of the gateway's CPU 1/);
    expect(neighbourWarning(95, { cpus: '1', busyPercent: 99 })).toBeNull();
    expect(neighbourWarning(150, { cpus: '2,3', busyPercent: 80 })).toBeNull();
    expect(neighbourWarning(null, null)).toBeNull();
  });
});

describe('harnessBoundReason under a CPU quota', () => {
  it('measures the gateway against its quota, not its whole core', () => {
    const quota = { cpus: '1', busyPercent: 50, quotaCores: 0.5 };
    expect(harnessBoundReason({ gatewayCpuPercent: 48, gatewayCores: quota, harnessCores: cores('0', 99), processes: { reviews: 40 } })).toBeNull();
    expect(harnessBoundReason({ gatewayCpuPercent: 30, gatewayCores: quota, harnessCores: cores('0', 99), processes: { reviews: 40 } })).toMatch(
      /60% of its CPU 1 \(quota 0\.5 cores\)/,
    );
  });
});
