import { describe, expect, it } from 'vitest';
import { gatewayFromSpec } from './index.js';
import { gatewayPins, parseVersionAsk, pinOf, resolveGatewaySpec, versionFor } from './gateway-versions.js';
import { NATIVE_BINARIES, missingProtoc, rustTooOld, type CargoBinary } from './native-builds.js';

const CRATES = ['0.2.10', '0.2.14', '0.2.19', '0.3.0', '0.3.9', '0.3.10', '0.4.0-rc.1'];
const listed = async () => CRATES;
const noRegistry = async (): Promise<string[]> => {
  throw new Error('no registry may be asked');
};

describe('the version asked for after a built-in gateway’s name', () => {
  it('reads one version, a line of them, or latest, and nothing else', () => {
    expect(parseVersionAsk('0.3.10')).toEqual({ exact: '0.3.10' });
    expect(parseVersionAsk('2.0.0-rc.1')).toEqual({ exact: '2.0.0-rc.1' });
    for (const line of ['0.3.x', '0.3.*', '0.3']) expect(parseVersionAsk(line), line).toEqual({ line: [0, 3] });
    for (const line of ['2', '2.x', '2.*', '2.x.x']) expect(parseVersionAsk(line), line).toEqual({ line: [2] });
    expect(parseVersionAsk('latest')).toEqual({ latest: true });
    for (const bad of ['banana', '', '^0.3', '>=0.3', '0.3.1.2', 'v0.3.1', '0.x.3']) expect(parseVersionAsk(bad), bad).toBeNull();
  });

  it('takes the newest release of a line, never a prerelease, and an exact version only when published', () => {
    expect(versionFor({ line: [0, 3] }, CRATES)).toBe('0.3.10');
    expect(versionFor({ line: [0, 2] }, CRATES)).toBe('0.2.19');
    expect(versionFor({ line: [0] }, CRATES)).toBe('0.3.10');
    expect(versionFor({ latest: true }, CRATES)).toBe('0.3.10');
    expect(versionFor({ line: [0, 4] }, CRATES)).toBeNull();
    expect(versionFor({ exact: '0.4.0-rc.1' }, CRATES)).toBe('0.4.0-rc.1');
    expect(versionFor({ exact: '0.2.99' }, CRATES)).toBeNull();
  });
});

describe('a gateway spec turned into one version before anything is built', () => {
  it('resolves a line to its newest release and says which, from the gateway’s registry', async () => {
    expect(await resolveGatewaySpec('hive-router@0.3.x', listed)).toEqual({
      spec: 'hive-router@0.3.10',
      note: 'hive-router@0.3.x is hive-router 0.3.10, the newest of 0.3.x on crates.io',
    });
    expect((await resolveGatewaySpec('grafbase@latest', async () => ['0.100.0', '0.103.0', '0.104.0-beta.1'])).spec).toBe('grafbase@0.103.0');
    expect((await resolveGatewaySpec('hive@2', async () => ['1.0.5', '2.10.4', '2.15.1'])).note).toMatch(/the newest of 2 on the npm registry$/);
  });

  it('leaves specs without a version, cmd: and url: alone, asking no registry', async () => {
    for (const spec of ['mesh', 'hive-router', 'cmd:node my@1.0.0.js', 'url:http://127.0.0.1:4000/graphql', 'cmd:x@0.3.x'])
      expect(await resolveGatewaySpec(spec, noRegistry)).toEqual({ spec });
  });

  it('refuses in one line what is not a version, what is not published, and a version of mesh', async () => {
    await expect(resolveGatewaySpec('hive-router@banana', noRegistry)).rejects.toThrow(
      /^hive-router@banana: "banana" is not a version: give one version \(hive-router@0\.2\.14\), the newest of a line \(hive-router@0\.2\.x\) or hive-router@latest$/,
    );
    await expect(resolveGatewaySpec('hive-router@0.9.x', listed)).rejects.toThrow(
      /^hive-router has no published version in 0\.9\.x on crates\.io \(newest: 0\.3\.10, 0\.3\.9, 0\.3\.0\): give one version/,
    );
    await expect(resolveGatewaySpec('hive-router@0.2.99', listed)).rejects.toThrow(/^hive-router has no published version 0\.2\.99 on crates\.io/);
    await expect(resolveGatewaySpec('mesh@1.0.0', noRegistry)).rejects.toThrow(/^mesh@1\.0\.0: .*mesh runs at its pin only/);
  });

  it('keeps a line out of the adapters: only one version is ever built or recorded', () => {
    expect(() => gatewayFromSpec('hive-router@0.3.x')).toThrow(/^hive-router@0\.3\.x names no single version: give one \(hive-router@0\.2\.14\)/);
    expect(gatewayFromSpec('hive-router@0.3.10').spec).toBe('hive-router@0.3.10');
  });

  it('names each default version for the help', () => {
    expect(gatewayPins()).toContain(`hive-router ${NATIVE_BINARIES['hive-router']!.version}`);
    expect(gatewayPins()).toContain(`hive ${pinOf('hive')}`);
    expect(pinOf('apollo')).toMatch(/^\d+\.\d+\.\d+$/);
  });
});

describe('a cargo build refused for the Rust it was given', () => {
  const hive0310: CargoBinary = { ...(NATIVE_BINARIES['hive-router'] as CargoBinary), version: '0.3.10' };

  it('names the Rust needed, the one there is, and the default that builds', () => {
    const cargo =
      'cargo install hive-router failed (exit 101): error: rustc 1.95.0 is not supported by the following packages: |   ntex@4.0.2 requires rustc 1.97';
    expect(rustTooOld(hive0310, cargo)?.message).toBe(
      'hive-router 0.3.10 needs Rust 1.97 or newer (rustc here: 1.95.0): update Rust (rustup update stable), or give a version your Rust builds (hive-router@0.2.14, the default)',
    );
    const older = 'error: package `ntex v4.0.2` cannot be built because it requires rustc 1.97 or newer, while the currently active rustc version is 1.95.0';
    expect(rustTooOld(hive0310, older)?.message).toMatch(/^hive-router 0\.3\.10 needs Rust 1\.97 or newer \(rustc here: 1\.95\.0\)/);
  });

  it('leaves any other failure as it was', () => {
    expect(rustTooOld(hive0310, 'cargo install hive-router failed (exit 101): error: linker `cc` not found')).toBeNull();
  });
});

describe('a cargo build stopped for want of protoc', () => {
  const apollo = NATIVE_BINARIES['apollo-router'] as CargoBinary;

  it('names protoc and how to install it, from the build script line cargo printed', () => {
    const cargo =
      'cargo install apollo-router failed (exit 101): Error: Custom { kind: NotFound, error: "Could not find `protoc`. If `protoc` is installed, try setting the `PROTOC` environment variable" } | error: failed to compile `apollo-router v2.17.0`';
    expect(missingProtoc(apollo, cargo)?.message).toBe(
      'apollo-router 2.17.0 needs protoc, the Protocol Buffers compiler, to build: install it (Debian: apt-get install protobuf-compiler; or set PROTOC to its path) and run again',
    );
    expect(missingProtoc(apollo, 'cargo install apollo-router failed (exit 101): error: linker `cc` not found')).toBeNull();
  });
});
