#!/usr/bin/env node
// How often real gateways answer with the golden's exact bytes (backs docs/validation/loadgen-cost.md):
// the load engine judges a body byte-equal to the golden's canonical bytes (`{"data":…}` compact,
// in the golden's key order) or to a body it judged before without parsing it. For each gateway, over
// the demo's subgraphs, every request of the stream is sent twice, one at a time; it counts the
// bodies equal to the golden's bytes, the second pass's bodies equal to the first's, and what the
// full validation says of them.
//
//   node bench/dist/golden-bytes.js [--gateways mesh,hive,apollo,grafbase,hive-router,apollo-router] [--stream varied] [--out bench/results/loadgen-cost/golden-bytes.json]
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import { DEFAULTS, RequestStream, bringUp } from '@gwprof/collect';
import { benchArgs } from './args.js';
import { streamScenario } from './loadgen-streams.js';

const { values } = benchArgs({
  options: {
    gateways: { type: 'string', default: 'mesh,hive,apollo,grafbase,hive-router,apollo-router' },
    stream: { type: 'string', default: 'varied' },
    out: { type: 'string' },
  },
});
const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};
const scenario = streamScenario(values.stream);
const canonical = scenario.requests.map((r) => (r.expected === null ? null : Buffer.from(JSON.stringify({ data: r.expected }))));

interface GatewayCount {
  gateway: string;
  error?: string;
  requests: number;
  goldenBytes: number;
  sameAsFirstPass: number;
  ok: number;
  orderWarnings: number;
  failed: number;
  /** A body that is not the golden's bytes, the first one seen: what differs. */
  example?: { index: number; body: string; golden: string };
}

async function post(url: string, body: string): Promise<{ status: number; bytes: Buffer }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body });
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
}

async function countGateway(gateway: string): Promise<GatewayCount> {
  const count: GatewayCount = { gateway, requests: 0, goldenBytes: 0, sameAsFirstPass: 0, ok: 0, orderWarnings: 0, failed: 0 };
  let bed: Awaited<ReturnType<typeof bringUp>> | undefined;
  try {
    bed = await bringUp({
      gateway,
      gatewayEnv: {},
      subgraphDelayMs: 0,
      subgraphPorts: DEFAULTS.subgraphPorts,
      gatewayPort: DEFAULTS.gatewayPort,
      outDir: mkdtempSync(path.join(os.tmpdir(), 'gwprof-golden-bytes-')),
      commandLine: process.argv.slice(2),
      onProgress: (line) => log(`  ${line}`),
    });
    const stream = new RequestStream(scenario);
    const firstPass: Buffer[] = [];
    for (let pass = 0; pass < 2; pass++) {
      for (let index = 0; index < scenario.requests.length; index++) {
        const { status, bytes } = await post(bed.gateway.url, scenario.requests[index]!.body);
        count.requests++;
        const golden = canonical[index];
        if (golden?.equals(bytes)) count.goldenBytes++;
        else if (!count.example && golden) count.example = { index, body: bytes.toString().slice(0, 300), golden: golden.toString().slice(0, 300) };
        if (pass === 0) firstPass[index] = bytes;
        else if (firstPass[index]!.equals(bytes)) count.sameAsFirstPass++;
        const verdict = stream.verdict(index, status, bytes);
        if (!verdict.ok) count.failed++;
        else {
          count.ok++;
          if (verdict.orderWarning) count.orderWarnings++;
        }
      }
    }
  } catch (error) {
    count.error = (error as Error).message.split('\n')[0];
  } finally {
    await bed?.close();
  }
  return count;
}

const counts: GatewayCount[] = [];
for (const gateway of values.gateways.split(',')) {
  log(`${gateway}: starting`);
  const count = await countGateway(gateway);
  counts.push(count);
  log(
    `${gateway}: ${count.error ? `not measured: ${count.error}` : `${count.goldenBytes} of ${count.requests} bodies are the golden's bytes, ${count.sameAsFirstPass} of ${count.requests / 2} repeat the first pass's bytes; ${count.ok} ok (${count.orderWarnings} order warnings), ${count.failed} failed`}`,
  );
}
const pct = (part: number, whole: number) => (whole > 0 ? `${((100 * part) / whole).toFixed(1)}%` : '–');
process.stdout.write(
  `${[
    `| gateway | bodies | equal to the golden's bytes | second pass equal to the first | ok (order warnings) | failed |`,
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...counts.map((c) =>
      c.error
        ? `| ${c.gateway} | not measured: ${c.error} | | | | |`
        : `| ${c.gateway} | ${c.requests} | ${c.goldenBytes} (${pct(c.goldenBytes, c.requests)}) | ${c.sameAsFirstPass} (${pct(c.sameAsFirstPass, c.requests / 2)}) | ${c.ok} (${c.orderWarnings}) | ${c.failed} |`,
    ),
  ].join('\n')}\n`,
);
if (values.out) {
  const command = `node bench/dist/golden-bytes.js ${process.argv.slice(2).join(' ')}`.trim();
  writeFileSync(
    path.resolve(values.out),
    `${JSON.stringify({ command, date: new Date().toISOString(), node: process.version, stream: values.stream, counts }, null, 2)}\n`,
  );
}
process.exit(0);
