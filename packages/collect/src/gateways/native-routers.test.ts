import path from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BUILT_IN_GATEWAYS, RELOADING_GATEWAYS } from './index.js';
import { apolloRouterConfig, apolloRouterGateway, hiveRouterConfig, hiveRouterGateway } from './native-routers.js';
import type { GatewayContext } from './types.js';

const context: GatewayContext = {
  port: 4000,
  subgraphUrls: { accounts: 'http://127.0.0.1:4001/fed2/graphql', reviews: 'http://127.0.0.1:4002/fed2/graphql' },
  env: {},
  runDir: '/tmp/run',
  node: process.execPath,
  logger: pino({ level: 'silent' }),
};

describe('native routers launch', () => {
  it("names Hive Router's config file, which releases before 0.0.13 would not find by its default name", () => {
    const launch = hiveRouterGateway('0.0.12').launch(context);
    expect(launch.env?.ROUTER_CONFIG_FILE_PATH).toBe(path.join(launch.cwd, 'router.config.yaml'));
    expect(launch.args).toEqual([]);
  });

  it('gives Apollo Router its config and supergraph by flags, telemetry off', () => {
    const launch = apolloRouterGateway().launch(context);
    expect(launch.args).toEqual(['--supergraph', path.join(launch.cwd, 'supergraph.graphql'), '--config', path.join(launch.cwd, 'router.yaml')]);
    expect(launch.env).toEqual({ APOLLO_TELEMETRY_DISABLED: 'true' });
  });
});

describe('native routers in a reload soak', () => {
  it('start exactly as before unless a reload soak asks: no watch, no introspection, no file to rewrite', () => {
    expect(parse(hiveRouterConfig('/run/supergraph.graphql', 4000)).supergraph).toEqual({ source: 'file', path: '/run/supergraph.graphql' });
    expect(parse(apolloRouterConfig(4000)).supergraph).toEqual({ listen: '127.0.0.1:4000', path: '/graphql' });
    for (const router of [hiveRouterGateway(), apolloRouterGateway()]) expect(router.reloadFiles).toBeUndefined();
    expect(apolloRouterGateway().launch(context).args).not.toContain('--hot-reload');
  });

  it('Hive Router polls its supergraph file every second; Apollo Router watches it (--hot-reload) and answers introspection', () => {
    expect(parse(hiveRouterConfig('/run/supergraph.graphql', 4000, true)).supergraph).toEqual({
      source: 'file',
      path: '/run/supergraph.graphql',
      poll_interval: '1s',
    });
    expect(hiveRouterGateway().reloading!().launch(context).args).toEqual([]);
    expect(parse(apolloRouterConfig(4000, true)).supergraph).toEqual({ listen: '127.0.0.1:4000', path: '/graphql', introspection: true });
    const launch = apolloRouterGateway('2.17.0').reloading!().launch(context);
    expect(launch.args).toEqual([
      '--supergraph',
      path.join(launch.cwd, 'supergraph.graphql'),
      '--config',
      path.join(launch.cwd, 'router.yaml'),
      '--hot-reload',
    ]);
  });

  it('names the supergraph file the last prepare() wrote as the one to rewrite, and keeps spec and version', () => {
    const router = apolloRouterGateway('2.17.0').reloading!();
    expect(router.spec).toBe('apollo-router@2.17.0');
    expect(router.reloadFiles!()).toEqual([]);
    expect(router.reloading).toBeUndefined();
  });

  it('RELOADING_GATEWAYS lists exactly the built-ins that name files to rewrite once set to reload', () => {
    const reloadable = Object.entries(BUILT_IN_GATEWAYS)
      .filter(([, factory]) => {
        const adapter = factory();
        return (adapter.reloading?.() ?? adapter).reloadFiles !== undefined;
      })
      .map(([name]) => name);
    expect(reloadable.sort()).toEqual([...RELOADING_GATEWAYS].sort());
  });
});
