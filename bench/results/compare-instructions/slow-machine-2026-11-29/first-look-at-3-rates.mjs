// Shares of verdicts over 20,000 simulated comparisons by instructions, first look at 3 epochs, under plans the pace re-fixed
// before every look (lastLooks), at a true change of 0 or +1% and a per-process sd of 0.05-0.3%. Run: node first-look-at-3-rates.mjs
import { judgeInstructions, mulberry32 } from '../../../../packages/analysis/dist/index.js';
const batch = (epoch, side, v) => ({ epoch, side, batch: 1, startedAt: '', requests: 30, ok: 30, failureCounts: { non2xx: 0, badBody: 0, graphqlErrors: 0, mismatch: 0, timeouts: 0, socketErrors: 0 }, failureSamples: [], instructions: v * 30, instructionsPerOkRequest: v, seconds: 1, forcedGcMs: 1, dumpFile: 'x' });
const design = { threshold: 0.01, alpha: 0.05, spendingPower: 1, minEpochSd: 0.001, minEpochs: 3 };
function sim(paths, change, sd, plan, seed) {
  const r = mulberry32(seed); const normal = () => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
  const ended = {};
  for (let p = 0; p < paths; p++) { const b = []; let v = 'inconclusive';
    for (let e = 1; e <= plan.maxEpochs; e++) { b.push(batch(e,'baseline',57e6*Math.exp(sd*normal())), batch(e,'candidate',57e6*(1+change)*Math.exp(sd*normal())));
      if (e < 3) continue; const j = judgeInstructions(b, { ...design, ...plan }); v = j.verdict; if (j.done) break; }
    ended[v] = (ended[v] ?? 0) + 1; }
  return Object.fromEntries(Object.entries(ended).map(([k, n]) => [k, `${((100 * n) / paths).toFixed(2)}%`]));
}
for (const plan of [{ maxEpochs: 3, lastLooks: [3] }, { maxEpochs: 5, lastLooks: [4, 5, 5] }, { maxEpochs: 6, lastLooks: [6, 6, 6, 6] }])
  for (const [change, sd] of [[0, 0.0015], [0.01, 0.0015], [0, 0.003], [0.01, 0.003], [0, 0.0005]]) console.log(`last looks ${JSON.stringify(plan.lastLooks)} change ${change} process sd ${sd}`, JSON.stringify(sim(20000, change, sd, plan, 7)));
