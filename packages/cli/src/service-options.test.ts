import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addServiceOptions, serviceArgs, serviceOptions, type ServiceFlags } from './service-options.js';

const parse = (argv: string[]): ServiceFlags => addServiceOptions(new Command().exitOverride()).parse(argv, { from: 'user' }).opts<ServiceFlags>();

describe('serviceArgs', () => {
  const given = [
    '--timeout', '30', '--subgraph-delay', '5', '--subgraphs', 'native', '--subgraph-ports', '5001,5002,5003,5004', '--gateway-port', '5000',
    '--gateway-cpus', '1', '--gateway-memory', '512', '--gateway-cpu-quota', '0.5', '--sampling-interval', '4000', '--heap-sampling', '0',
  ]; // biome-ignore format: flag and value pairs

  it('gives another command every service flag a run was given, so that it runs under the same settings', () => {
    const flags = parse([...given, '--out', '/tmp/runs', '--run-id', 'x', '--no-color']);
    const again = parse(serviceArgs(flags));
    const { out: _o, runId: _r, color: _c, ...settings } = flags;
    const { out: _o2, runId: _r2, color: _c2, ...forwarded } = again;
    expect(forwarded).toEqual(settings);
  });

  it('names every service option but where runs go and colour', () => {
    const options = addServiceOptions(new Command()).options.map((o) => o.long!);
    const named = serviceArgs(parse(given)).filter((arg) => arg.startsWith('--'));
    expect(options.filter((o) => !named.includes(o))).toEqual(['--out', '--run-id', '--no-color']);
  });
});

describe('--subgraph-delay', () => {
  it('takes one delay for every subgraph, or one per subgraph named, and forwards either as given', () => {
    expect(serviceOptions(parse(['--subgraph-delay', '5ms'])).subgraphDelayMs).toBe(5);
    const named = parse(['--subgraph-delay', 'reviews=0.1s, accounts=3']);
    expect(named.subgraphDelay).toEqual({ reviews: 100, accounts: 3 });
    expect(serviceOptions(named)).toMatchObject({ subgraphDelayMs: 0, subgraphDelaysMs: { reviews: 100, accounts: 3 } });
    expect(parse(serviceArgs(named)).subgraphDelay).toEqual({ reviews: 100, accounts: 3 });
  });

  it('refuses an entry that is not name=time', () => {
    expect(() => parse(['--subgraph-delay', 'reviews=1=2'])).toThrow(/not name=time/);
    expect(() => parse(['--subgraph-delay', 'reviews=fast'])).toThrow(/duration/);
  });
});
