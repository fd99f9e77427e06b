import { mkdtempSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertFileWritable, assertFolderWritable, assertPortsFree, assertUrlAnswers, gatewayKindOf } from './preflight.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'gwprof-preflight-'));
const file = path.join(dir, 'a-file');
writeFileSync(file, '');

function listening(): Promise<net.Server> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => resolve(server));
  });
}

describe('preflight', () => {
  it('tells the gateway kinds apart, a version included', () => {
    expect(['mesh', 'hive@2.10.4', 'hive-router', 'grafbase@0.100.0', 'cmd:node x.js', 'url:http://127.0.0.1:1/graphql'].map(gatewayKindOf)).toEqual([
      'node',
      'node',
      'native',
      'native',
      'cmd',
      'url',
    ]);
  });

  it('takes a folder that does not exist yet under one that does, and refuses one under a file', () => {
    expect(() => assertFolderWritable(path.join(dir, 'new', 'deeper'), '--out')).not.toThrow();
    expect(() => assertFolderWritable(path.join(file, 'runs'), '--out')).toThrow(/a-file is a file, not a folder/);
  });

  it('wants a file in a folder that exists, and not a folder', () => {
    expect(() => assertFileWritable(path.join(dir, 'x.json'), '--json')).not.toThrow();
    expect(() => assertFileWritable(path.join(dir, 'missing', 'x.json'), '--json')).toThrow(/the folder .*missing does not exist/);
    expect(() => assertFileWritable(dir, '--json')).toThrow(/is a folder: give a file name/);
  });

  it('names a busy port with its service and flag, and a port given twice', async () => {
    const server = await listening();
    const port = (server.address() as net.AddressInfo).port;
    try {
      await expect(assertPortsFree([{ port, what: 'candidate gateway', flag: '--candidate-port' }])).rejects.toThrow(
        `port ${port} (candidate gateway) is already in use: stop what listens there, or give --candidate-port another port`,
      );
      await expect(
        assertPortsFree([
          { port: 1, what: 'gateway', flag: '--gateway-port' },
          { port: 1, what: 'candidate gateway', flag: '--candidate-port' },
        ]),
      ).rejects.toThrow('port 1 is given twice (gateway by --gateway-port, candidate gateway by --candidate-port)');
      await expect(assertUrlAnswers(`url:http://127.0.0.1:${port}/graphql`, '--gateway')).resolves.toBeUndefined();
    } finally {
      server.close();
    }
  });
});
