import path from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { apolloRouterConfig, apolloRouterGateway, hiveRouterGateway } from './native-routers.js';
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

  it("starts Apollo Router's Prometheus exporter only when a soak gives it a port", () => {
    expect(apolloRouterConfig(4000)).not.toContain('telemetry');
    expect(apolloRouterConfig(4000, 9464).split('\n').slice(-8)).toEqual([
      'telemetry:',
      '  exporters:',
      '    metrics:',
      '      prometheus:',
      '        enabled: true',
      '        listen: 127.0.0.1:9464',
      '        path: /metrics',
      '',
    ]);
  });
});
