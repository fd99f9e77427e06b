import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gatewayDir } from '../paths.js';
import { meshConfig } from './mesh.js';

describe("legacy Mesh's config under --trace", () => {
  const shipped = readFileSync(path.join(gatewayDir('mesh'), '.meshrc.yaml'), 'utf8');

  it('is the shipped file untouched without it', () => {
    expect(meshConfig(shipped, false)).toBe(shipped);
  });

  it("adds the incoming traceparent to every source's operation headers with it", () => {
    const traced = meshConfig(shipped, true);
    expect(traced.match(/operationHeaders:\n {10}traceparent: "\{context\.headers\['traceparent'\]\}"/g)).toHaveLength(4);
    expect(traced.replace(/\n +operationHeaders:\n.*traceparent.*/g, '')).toBe(shipped);
  });
});
