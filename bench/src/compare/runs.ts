// `runs`: real comparisons with the stopping rule, kinds interleaved; `runs-table`: all of them as one table.
import { burnOfKind, slimWindows } from './driver.mjs';
import { appendEntry, readEntries } from './json-log.mjs';
import { noiseTable } from './noise-components.mjs';
import { median } from './stats.mjs';

/** Interleaved kinds, so that the machine's drift over hours hits all of them alike. */
function runPlan(values) {
  const plan = [];
  for (let i = 0; i < Math.max(Number(values.aa), Number(values.burn10), Number(values.burn5)); i++) {
    if (i < Number(values.aa)) plan.push({ kind: 'A/A', budget: values.budget });
    if (i < Number(values.burn10)) plan.push({ kind: '+10%', budget: values.budget });
    if (i < Number(values.burn5)) plan.push({ kind: '+5%', budget: values.budget5 });
  }
  return plan;
}

/** Per kind of run: how the verdicts fell and how long they took, as markdown rows. */
function verdictSummary(runs) {
  const kinds = [...new Set(runs.map((r) => r.kind))];
  return [
    '| candidate | runs | regression | no change | improvement | inconclusive | invalid | median min | max min |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...kinds.map((k) => {
      const rs = runs.filter((r) => r.kind === k);
      const count = (v) => rs.filter((r) => r.verdict === v).length;
      return `| ${k} | ${rs.length} | ${count('regression')} | ${count('no change')} | ${count('improvement')} | ${count('inconclusive')} | ${count('invalid')} | ${median(rs.map((r) => r.minutes)).toFixed(1)} | ${Math.max(...rs.map((r) => r.minutes)).toFixed(1)} |`;
    }),
  ];
}

/** What a run's compare.json says, kept with the burn and the baseline's CPU per request. */
function runEntry(run, r, burnUs) {
  const level = r.result?.analysis?.levels?.[0];
  // The burn is a fixed CPU time, calibrated before the run; the machine's speed during the run decides what
  // share of the baseline's CPU per request it really is, so each run keeps that baseline.
  return {
    kind: run.kind, budget: Number(run.budget), exitCode: r.exitCode, verdict: r.result?.analysis?.verdict ?? null, minutes: r.minutes,
    change: level?.decision?.relativeChange ?? null, blocks: level?.decision?.blocks ?? null, burnUs, baselineCpuMs: level?.cpu?.baseline?.median ?? null,
    // Kept so that a run's noise (between blocks, between process pairs) can be studied afterwards.
    windows: r.result ? slimWindows(r.result) : [],
  };
}

export function runsCommand({ values, out, driver, log }) {
  const plan = runPlan(values);
  // The machine's speed drifts over an hour, and the burn is a fixed time: --recalibrate sizes it
  // again right before each burn run, at the cost of a 3-minute probe.
  const burns = (run) => run.kind !== 'A/A';
  let calibration = plan.some(burns) && !values.recalibrate ? driver.calibrateBurn(100) : null;
  const results = [];
  for (const [i, run] of plan.entries()) {
    if (values.recalibrate && burns(run)) calibration = driver.calibrateBurn(100);
    const burnUs = burnOfKind(calibration, run.kind);
    const r = driver.compare(`run-${i}`, ['--window', values.window, '--budget', run.budget, '--blocks-per-epoch', values['blocks-per-epoch']], driver.burnEnv(burnUs));
    const entry = runEntry(run, r, burnUs);
    results.push(entry);
    appendEntry(out, 'compare-runs.json', { date: new Date().toISOString(), gateway: values.gateway, window: Number(values.window), calibration, ...entry });
    log(`${i + 1}/${plan.length} ${run.kind}: ${entry.verdict} (exit ${entry.exitCode}) in ${entry.minutes.toFixed(1)} min, change ${entry.change === null ? '–' : (entry.change * 100).toFixed(1)}%`);
  }
  return `${verdictSummary(results).join('\n')}\n`;
}

/** The share of the baseline's CPU per request that a run's burn really was. */
function burnShare(r, pct) {
  // Runs recorded before burnUs was kept: the burn follows from the calibration and the kind.
  const burnUs = r.burnUs ?? burnOfKind(r.calibration, r.kind);
  if (!burnUs) return '–';
  return r.baselineCpuMs ? `${burnUs} µs ÷ ${r.baselineCpuMs.toFixed(2)} ms = ${pct(burnUs / 1000 / r.baselineCpuMs)}` : `${burnUs} µs`;
}

/** The noise components of the runs that kept their windows (from 2026-11-24 on), as a table. */
function runNoise(runs) {
  const kept = runs.map((r, i) => ({ name: `#${i + 1} ${r.kind}`, windows: r.windows ?? [] })).filter((r) => r.windows.length > 0);
  return kept.length > 0 ? ['', noiseTable(kept)] : [];
}

export function runsTableCommand({ values, out }) {
  const all = readEntries(out, 'compare-runs.json').filter((r) => !values.since || r.date >= values.since);
  const pct = (x) => (x === null ? '–' : `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`);
  return [
    '| # | date (UTC) | candidate | burn ÷ baseline CPU per request | verdict | exit | blocks | change | minutes |',
    '| ---: | --- | --- | --- | --- | ---: | ---: | ---: | ---: |',
    ...all.map((r, i) => `| ${i + 1} | ${r.date.slice(0, 16).replace('T', ' ')} | ${r.kind} | ${burnShare(r, pct)} | ${r.verdict} | ${r.exitCode} | ${r.blocks ?? '–'} | ${pct(r.change)} | ${r.minutes.toFixed(1)} |`),
    '',
    ...verdictSummary(all),
    ...runNoise(all),
  ].join('\n') + '\n';
}
