import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayAdapter } from '../gateways/types.js';
import type { RunningGateway } from '../services/gateway-process.js';
import { COMPOSED_QUERY } from '../testing/composed-query.js';
import { RELOAD_MARKER_FIELD } from './reload-marker.js';
import { reloadSwitch } from './reload-switch.js';

/** A supergraph as Apollo's composition writes it for the native routers. */
const SUPERGRAPH = [...COMPOSED_QUERY, ''].join('\n');

const options = { everySec: 20, windowSec: 5 };

function adapter(spec: string, files?: string[]): GatewayAdapter {
  return {
    spec,
    description: spec,
    startTimeoutMs: 1,
    packageVersions: () => ({}),
    prepare: async () => undefined,
    launch: () => ({ command: 'true', args: [], cwd: '/', isNodeScript: false }),
    ...(files ? { reloadFiles: () => files } : {}),
  };
}

const gatewayAt = (url: string): RunningGateway => ({ url }) as RunningGateway;

describe('reloadSwitch on a built-in gateway', () => {
  let dir: string;
  let file: string;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'gwprof-reload-switch-'));
    file = path.join(dir, 'supergraph.graphql');
    writeFileSync(file, SUPERGRAPH);
    // A gateway that serves the file as it is now: introspection lists Query's fields from it.
    server = createServer((_request, response) => {
      const fields = ['me', ...(readFileSync(file, 'utf8').includes(RELOAD_MARKER_FIELD) ? [RELOAD_MARKER_FIELD] : [])];
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ data: { __type: { fields: fields.map((name) => ({ name })) } } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a gateway that names no schema file to rewrite, listing the ones gwprof reloads', () => {
    expect(() => reloadSwitch(options, adapter('mesh'), gatewayAt(url))).toThrow(
      '--reload-every: gwprof cannot reload mesh while it serves (it reloads hive, grafbase, hive-router, apollo-router, each watching its schema files; see docs/soak-reload.md): give another --gateway',
    );
    expect(() => reloadSwitch({ ...options, signal: 'SIGHUP' }, adapter('hive-router', [file]), gatewayAt(url))).toThrow(/are for a cmd: gateway/);
  });

  it("rewrites a router's supergraph in place, B with the marker in Query and A as composed, and sees each served", async () => {
    const switched = reloadSwitch(options, adapter('apollo-router', [file]), gatewayAt(url));
    expect(switched.config).toMatchObject({ how: 'files', detail: [file], seenBy: { kind: 'introspection', field: RELOAD_MARKER_FIELD } });
    await switched.swap('b', 0);
    expect(readFileSync(file, 'utf8')).toBe(SUPERGRAPH.replace('PRODUCTS)\n{\n', `PRODUCTS)\n{\n  ${RELOAD_MARKER_FIELD}: Boolean\n`));
    expect(await switched.seen('b', 2_000)).toBe(true);
    await switched.swap('a', 1);
    expect(readFileSync(file, 'utf8')).toBe(SUPERGRAPH);
    expect(await switched.seen('a', 2_000)).toBe(true);
    expect(await switched.seen('b', 300)).toBe(false);
  });
});
