import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gatewayFromSpec } from './index.js';
import { BUILD_NOTE, NATIVE_BINARIES, callgrindClientBuild, nativeBinaryPath, nativeBuildRecord, nativeSpec } from './native-builds.js';

describe('a native gateway at another published version', () => {
  it('reads name@version for the native built-ins only', () => {
    expect(nativeSpec('grafbase')).toEqual({ name: 'grafbase' });
    expect(nativeSpec('hive-router@0.2.10')).toEqual({ name: 'hive-router', version: '0.2.10' });
    expect(nativeSpec('apollo-router@2.0.0-rc.1')).toEqual({ name: 'apollo-router', version: '2.0.0-rc.1' });
    expect(nativeSpec('mesh@1.0.0')).toBeNull();
    expect(nativeSpec('grafbase@latest')).toBeNull();
  });

  it('installs beside the pinned one, names its spec and its build by the version asked for', () => {
    const pinned = nativeBinaryPath('grafbase');
    const other = nativeBinaryPath('grafbase', '0.100.0');
    expect(other).not.toBe(pinned);
    expect(path.basename(path.dirname(path.dirname(other)))).toBe('grafbase-0.100.0');
    const adapter = gatewayFromSpec('grafbase@0.100.0');
    expect(adapter.spec).toBe('grafbase@0.100.0');
    expect(adapter.description).toContain('0.100.0');
    expect(adapter.description).not.toContain(NATIVE_BINARIES.grafbase!.version);
    expect(gatewayFromSpec('hive-router@0.2.10').spec).toBe('hive-router@0.2.10');
  });
});

describe('a build made by hand into the cache', () => {
  const saved = process.env.XDG_CACHE_HOME;
  afterEach(() => {
    if (saved === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = saved;
  });

  it('is recorded as its note says, not as gwprof would have built it', async () => {
    process.env.XDG_CACHE_HOME = mkdtempSync(path.join(os.tmpdir(), 'gwprof-cache-'));
    const binary = nativeBinaryPath('hive-router', '0.2.14-nofp');
    mkdirSync(path.dirname(binary), { recursive: true });
    writeFileSync(binary, 'not really a router');
    writeFileSync(
      path.join(path.dirname(path.dirname(binary)), BUILD_NOTE),
      JSON.stringify({ source: 'crates.io hive-router 0.2.14 (features graphiql)', profile: 'cargo install --locked (release), RUSTFLAGS=""' }),
    );
    const record = await nativeBuildRecord('hive-router', '0.2.14-nofp');
    expect(record.version).toBe('0.2.14-nofp');
    expect(record.profile).toBe('cargo install --locked (release), RUSTFLAGS=""');
    expect(record.source).toBe('crates.io hive-router 0.2.14 (features graphiql)');
    expect(record.sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('the build of a program valgrind runs', () => {
  it('is the program on its command line after valgrind’s own options, not valgrind’s tool', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gwprof-client-'));
    const program = path.join(dir, 'my-gateway.cjs');
    writeFileSync(program, 'setTimeout(() => {}, 30_000);\n');
    // As valgrind's process shows itself: its own name, its options, then the program and its arguments.
    const child = spawn(process.execPath, ['--no-warnings', program, '--port', '4000'], { argv0: 'valgrind.bin', stdio: 'ignore' });
    try {
      await new Promise((r) => setTimeout(r, 300));
      const build = await callgrindClientBuild(child.pid!, 'cmd:./my-gateway');
      expect(build?.name).toBe('my-gateway.cjs');
      expect(build?.binary).toBe(program);
      expect(build?.source).toBe('cmd:./my-gateway');
    } finally {
      child.kill();
    }
  });
});
