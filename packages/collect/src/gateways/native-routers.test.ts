import path from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BUILT_IN_GATEWAYS, RELOADING_GATEWAYS } from './index.js';
import { apolloRouterConfig, apolloRouterGateway, hiveRouterConfig, hiveRouterGateway, routerTracing } from './native-routers.js';
import { type GatewayContext, OTLP_ENDPOINT_ENV, TRACE_CONTEXT_ENV } from './types.js';

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
    const config = parse(apolloRouterConfig(4000, undefined, { prometheusPort: 9464 })) as { telemetry: unknown };
    expect(config.telemetry).toEqual({ exporters: { metrics: { prometheus: { enabled: true, listen: '127.0.0.1:9464', path: '/metrics' } } } });
  });

  it('holds one telemetry section when a traced soak asks for spans and the exporter both', () => {
    const yaml = apolloRouterConfig(4000, routerTracing({ [TRACE_CONTEXT_ENV]: '1', [OTLP_ENDPOINT_ENV]: 'http://127.0.0.1:45678' }), { prometheusPort: 9464 });
    expect(yaml.match(/^telemetry:/gm)).toHaveLength(1);
    const exporters = (parse(yaml) as { telemetry: { exporters: Record<string, unknown> } }).telemetry.exporters;
    expect(Object.keys(exporters).sort()).toEqual(['metrics', 'tracing']);
  });
});

const receiver = 'http://127.0.0.1:45678';
const parsed = (yaml: string): Record<string, unknown> => parse(yaml) as Record<string, unknown>;

describe("the routers' config without --trace", () => {
  it('holds no telemetry and no header rule', () => {
    expect(routerTracing({ PORT: '4000' })).toEqual({ traceContext: false });
    expect(Object.keys(parsed(hiveRouterConfig('/r/supergraph.graphql', 4000)))).toEqual(['supergraph', 'http', 'log']);
    expect(Object.keys(parsed(apolloRouterConfig(4000)))).toEqual(['supergraph', 'health_check', 'homepage']);
    expect(hiveRouterConfig('/r/s.graphql', 4000, routerTracing({}))).toBe(hiveRouterConfig('/r/s.graphql', 4000));
    expect(apolloRouterConfig(4000, routerTracing({}))).toBe(apolloRouterConfig(4000));
  });
});

describe("Hive Router's config under --trace", () => {
  it('forwards traceparent by a header rule when gwprof takes no spans (its own propagator injects only a span it records)', () => {
    const config = parsed(hiveRouterConfig('/r/s.graphql', 4000, routerTracing({ [TRACE_CONTEXT_ENV]: '1' })));
    expect(config.headers).toEqual({ all: { request: [{ propagate: { named: 'traceparent' } }] } });
    expect(config.telemetry).toBeUndefined();
  });

  it('exports its spans over OTLP/HTTP to the receiver, parent-based, with W3C propagation', () => {
    const config = parsed(hiveRouterConfig('/r/s.graphql', 4000, routerTracing({ [TRACE_CONTEXT_ENV]: '1', [OTLP_ENDPOINT_ENV]: receiver })));
    expect(config.telemetry).toEqual({
      tracing: {
        collect: { sampling: 1, parent_based_sampler: true },
        propagation: { trace_context: true },
        exporters: [{ kind: 'otlp', enabled: true, endpoint: `${receiver}/v1/traces`, protocol: 'http', batch_processor: { scheduled_delay: '1s' } }],
      },
    });
    expect(config.headers).toBeUndefined();
    expect(config.http).toEqual({ host: '127.0.0.1', port: 4000 });
  });
});

describe("Apollo Router's config under --trace", () => {
  it('turns its W3C propagator on, with no exporter when gwprof takes no spans', () => {
    const config = parsed(apolloRouterConfig(4000, routerTracing({ [TRACE_CONTEXT_ENV]: '1' })));
    expect(config.telemetry).toEqual({
      exporters: { tracing: { common: { sampler: 'always_on', parent_based_sampler: true }, propagation: { trace_context: true } } },
    });
  });

  it('exports its spans over OTLP/HTTP to the receiver, parent-based', () => {
    const config = parsed(apolloRouterConfig(4000, routerTracing({ [TRACE_CONTEXT_ENV]: '1', [OTLP_ENDPOINT_ENV]: receiver })));
    const tracing = (config.telemetry as { exporters: { tracing: Record<string, unknown> } }).exporters.tracing;
    expect(tracing.otlp).toEqual({ enabled: true, endpoint: receiver, protocol: 'http', batch_processor: { scheduled_delay: '1s' } });
    expect(tracing.common).toEqual({ sampler: 'always_on', parent_based_sampler: true });
    expect(config.supergraph).toEqual({ listen: '127.0.0.1:4000', path: '/graphql' });
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
    expect(parse(hiveRouterConfig('/run/supergraph.graphql', 4000, undefined, true)).supergraph).toEqual({
      source: 'file',
      path: '/run/supergraph.graphql',
      poll_interval: '1s',
    });
    expect(hiveRouterGateway().reloading!().launch(context).args).toEqual([]);
    expect(parse(apolloRouterConfig(4000, undefined, { reloads: true })).supergraph).toEqual({
      listen: '127.0.0.1:4000',
      path: '/graphql',
      introspection: true,
    });
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
