#!/usr/bin/env node
// What fills the kept caller places of a dump left by callgrind-depth.mjs: for the contexts whose
// chain filled all of them, the kinds of frame in their chains (JavaScript named through the perf
// map, V8's builtins, V8's and Node's C++), weighted by the contexts' instructions, and the native
// frames seen most; the patterns worth --fn-skip are picked from this.
//
//   node bench/results/buckets-own-code/chain-frames.mjs /tmp/depth/v0 80
import { readFileSync, readdirSync } from 'node:fs';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { PerfMap } from '@gwprof/analysis';

const [dir, callers] = [process.argv[2], Number(process.argv[3])];
const dump = readdirSync(dir).find((f) => /^callgrind\.out\.\d+\.\d+$/.test(f));
const map = new PerfMap(readFileSync(`${dir}/perf.map`, 'utf8'));
const kind = (name) => {
  const address = /^0x([0-9a-f]+)$/i.exec(name);
  if (address) return map.lookup(Number.parseInt(address[1], 16))?.js ? 'JavaScript' : 'JIT code, not JavaScript';
  if (name.startsWith('Builtins_')) return "V8's builtins (Builtins_*)";
  if (name.startsWith('v8::')) return "V8's C++ (v8::)";
  if (name.startsWith('node::')) return "Node's C++ (node::)";
  if (/^uv_|^uv__/.test(name)) return 'libuv';
  return 'other native';
};
// Contexts by compressed id: a name the first time, "(id)" after; self counts follow an fn= line.
const names = new Map();
let current = null;
let afterCalls = false;
let total = 0;
let truncated = 0;
const kinds = new Map();
const natives = new Map();
const lines = createInterface({ input: createReadStream(`${dir}/${dump}`, { encoding: 'utf8' }), crlfDelay: Infinity });
for await (const line of lines) {
  const fn = /^fn=\((\d+)\)(?: (.*))?$/.exec(line);
  if (fn) {
    if (fn[2] !== undefined) names.set(fn[1], fn[2].split("'"));
    current = names.get(fn[1]);
    continue;
  }
  const cfn = /^cfn=\((\d+)\) (.*)$/.exec(line);
  if (cfn) names.set(cfn[1], cfn[2].split("'"));
  if (line.startsWith('calls=')) {
    afterCalls = true;
    continue;
  }
  if (!/^[0-9+*-]/.test(line) || current === undefined || current === null) continue;
  if (afterCalls) {
    afterCalls = false;
    continue;
  }
  const self = Number(line.trim().split(/\s+/)[1] ?? 0);
  total += self;
  if (current.length - 1 < callers) continue;
  truncated += self;
  for (const frame of current) {
    const k = kind(frame);
    kinds.set(k, (kinds.get(k) ?? 0) + self);
    if (k !== 'JavaScript') natives.set(frame, (natives.get(frame) ?? 0) + self);
  }
}
const frames = [...kinds.values()].reduce((a, b) => a + b, 0);
console.log(`${dir}: ${total} instructions, ${((truncated / total) * 100).toFixed(1)}% in contexts whose chain filled all ${callers} places`);
console.log('frames of those chains, by kind (weighted by instructions):');
for (const [k, v] of [...kinds].sort((a, b) => b[1] - a[1])) console.log(`  ${((v / frames) * 100).toFixed(1).padStart(5)}%  ${k}`);
console.log('native frames seen most in them (instructions of the chains holding each, per truncated instruction):');
for (const [name, v] of [...natives].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${(v / truncated).toFixed(2).padStart(6)}  ${name.slice(0, 120)}`);
