import { describe, expect, it } from 'vitest';
import { resolveNode } from './node-binaries.js';

describe('resolveNode', () => {
  it('takes the harness’s Node for current or nothing, and a path as given', () => {
    expect(resolveNode(undefined)).toEqual({ path: process.execPath, version: process.version });
    expect(resolveNode('current')).toEqual({ path: process.execPath, version: process.version });
    expect(resolveNode(process.execPath)).toEqual({ path: process.execPath, version: process.version });
  });

  it('refuses what is neither a version, a path nor current, saying what to give', () => {
    expect(() => resolveNode('latest')).toThrow(/Node version "latest": give a version such as 22 or 24\.9\.0, a path to a node executable, or current/);
    expect(() => resolveNode('/nonexistent/node')).toThrow(/\/nonexistent\/node does not run/);
  });
});
