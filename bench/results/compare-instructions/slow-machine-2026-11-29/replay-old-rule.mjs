// The same batches judged by the rule before issue 54 item 4: first look after 4 epochs, plan fixed once.
import { readFileSync } from 'node:fs';
import { judgeRecord } from '../../../../packages/analysis/dist/index.js';
const file = process.argv[2];
const c = JSON.parse(readFileSync(file, 'utf8'));
const seconds = c.instructionEpochs.map((e) => (Date.parse(e.finishedAt) - Date.parse(e.startedAt)) / 1000);
const elapsed = (Date.parse(c.instructionEpochs.at(-1).finishedAt) - Date.parse(c.instructionEpochs[0].startedAt)) / 1000;
const pace = seconds.slice(1).reduce((a, b) => a + b, 0) / (seconds.length - 1);
console.log(`${file}: epochs ${seconds.map((s) => s.toFixed(0)).join(', ')} s; ${(elapsed / 60).toFixed(1)} min from the first epoch's start to the last's end`);
console.log(`another epoch at ${pace.toFixed(0)} s would end at ${((elapsed + pace) / 60).toFixed(1)} min (budget ${c.config.design.budgetMinutes})`);
const old = { ...c, config: { ...c.config, design: { ...c.config.design, minEpochs: 4 } }, plan: { maxEpochs: 4, epochSeconds: pace, fixedAfterEpoch: 3 } };
const v = judgeRecord(old);
console.log(`old rule (first look after 4): ${v.verdict}; ${v.reasons.join('; ')}`);
const now = judgeRecord(c);
console.log(`this run's rule (first look after ${c.config.design.minEpochs}, last looks ${JSON.stringify(c.plan.lastLooks)}): ${now.verdict}; ${now.reasons.join('; ')}`);
