import { mkdtempSync, readFileSync, rmSync, writeFileSync, chmodSync, mkdirSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEV_HELP_FILE, grafbaseDevArgs, grafbaseDevForm, grafbaseDevHelp, grafbaseGatewaySettings } from './grafbase-dev-form.js';

// `grafbase dev --help` as the published binaries print it.
const files = { subgraphs: '/run/grafbase.toml', gateway: '/run/gateway.toml' };
const help = (version: string) => readFileSync(new URL(`./fixtures/grafbase-${version}-dev-help.txt`, import.meta.url), 'utf8');

describe('grafbaseDevForm', () => {
  it('starts 0.103.0 with --config and --listen-address on loopback', () => {
    const form = grafbaseDevForm(help('0.103.0'));
    expect(form).toEqual({ subgraphsOption: '--config', gatewayConfigOption: null, listen: 'listen-address' });
    expect(grafbaseDevArgs(form, files, 4000)).toEqual(['dev', '--config', '/run/grafbase.toml', '--listen-address', '127.0.0.1:4000']);
  });

  it('starts 0.92.0, which has no --listen-address, with --port', () => {
    const form = grafbaseDevForm(help('0.92.0'));
    expect(form).toEqual({ subgraphsOption: '--config', gatewayConfigOption: null, listen: 'port' });
    expect(grafbaseDevArgs(form, files, 4010)).toEqual(['dev', '--config', '/run/grafbase.toml', '--port', '4010']);
  });

  it('gives 0.88.2 its subgraphs by --graph-overrides and its own settings by --gateway-config', () => {
    const form = grafbaseDevForm(help('0.88.2'));
    expect(form).toEqual({ subgraphsOption: '--graph-overrides', gatewayConfigOption: '--gateway-config', listen: 'port' });
    expect(grafbaseDevArgs(form, files, 4000)).toEqual([
      'dev',
      '--gateway-config',
      '/run/gateway.toml',
      '--graph-overrides',
      '/run/grafbase.toml',
      '--port',
      '4000',
    ]);
  });

  it("writes the gateway's settings as a table per subgraph with nothing set", () => {
    expect(grafbaseGatewaySettings(['accounts', 'reviews'])).toBe('[subgraphs.accounts]\n\n[subgraphs.reviews]\n');
  });

  it('refuses a CLI whose dev command says neither where to listen nor where the subgraphs are, naming what is missing', () => {
    expect(() => grafbaseDevForm('Usage: grafbase dev [OPTIONS]\n\nOptions:\n  -h, --help  Print help\n', 'grafbase-9.0.0')).toThrow(
      /grafbase-9.0.0 dev --help lists neither --listen-address nor --port and neither --config nor --graph-overrides/,
    );
  });
});

describe('grafbaseDevHelp', () => {
  let root: string;
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('asks the binary once and keeps its answer beside it', () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'gwprof-grafbase-help-'));
    mkdirSync(path.join(root, 'package'));
    const binary = path.join(root, 'package', 'grafbase');
    const calls = path.join(root, 'calls');
    writeFileSync(binary, `#!/bin/sh\necho "$@" >> ${calls}\necho '      --listen-address <LISTEN_ADDRESS>'\n`);
    chmodSync(binary, 0o755);
    expect(grafbaseDevHelp(binary)).toContain('--listen-address');
    expect(grafbaseDevHelp(binary)).toContain('--listen-address');
    expect(readFileSync(calls, 'utf8')).toBe('dev --help\n');
    expect(existsSync(path.join(root, DEV_HELP_FILE))).toBe(true);
  });
});
