/**
 * The counting proxies' own process (scenario-subgraphs.ts starts it on the harness's cores, apart
 * from the gateway and the load): PROXIES is a JSON list of { name, listen, target } ports. On
 * SIGTERM it logs what it forwarded and the CPU it spent, the figures its cost is measured by.
 */
import { startCountingProxy } from './counting-proxy.js';

const list = JSON.parse(process.env.PROXIES ?? '[]') as Array<{ name: string; listen: number; target: number }>;
const proxies = await Promise.all(list.map((p) => startCountingProxy(p.name, p.listen, p.target)));
process.stdout.write(`${JSON.stringify({ msg: 'counting proxies ready', proxies: list })}\n`);

const stopped = (): void => {
  const cpu = process.cpuUsage();
  // A comparison's candidate has proxies of its own for the same subgraphs: one entry per port.
  const forwarded = list.map((p, i) => ({ name: p.name, listen: p.listen, requests: proxies[i]!.requests() }));
  process.stdout.write(`${JSON.stringify({ msg: 'counting proxies stopped', forwarded, cpuMs: (cpu.user + cpu.system) / 1000 })}\n`);
  process.exit(0);
};
process.on('SIGTERM', stopped);
process.on('SIGINT', stopped);
