/** A bisection as a self-contained page: the curve of the points counted, the steps, the table. */
import type { PublishedBisect } from '@gwprof/results';
import { escapeHtml } from '../escape.js';
import { htmlPage, htmlTable } from '../html-page.js';
import { lineChart } from '../svg-chart.js';
import { instructionBucketLine } from '../compare/instruction-moves.js';
import { bisectUnit, pointHeaders, bisectStatement, confirmationLine, noiseLine, pointRows, stepTitle, undecidedLines } from './bisect-rows.js';

export function renderBisectHtml(bisect: PublishedBisect): string {
  const { analysis } = bisect;
  const steps = analysis.steps
    .map((step) => {
      const confirmation = confirmationLine(bisect, step);
      const moves = bisect.confirmations.find((c) => c.good === step.good && c.bad === step.bad)?.moves;
      return `<h3>${escapeHtml(stepTitle(bisect, step))}</h3>${confirmation ? `<p>${escapeHtml(confirmation)}</p>` : ''}${moves ? `<p>${escapeHtml(instructionBucketLine(moves))}</p>` : ''}<pre>${escapeHtml(step.reproduce)}</pre>`;
    })
    .join('');
  const table = htmlTable(
    pointHeaders(bisect).map((header, i) => ({ header, numeric: i === 0 || (i >= 2 && i <= 4) })),
    pointRows(bisect).map((row) => ({ cells: row.map((cell) => escapeHtml(cell)), ...(row[5]!.startsWith('skipped') ? { className: 'failed' } : {}) })),
  );
  const undecided = undecidedLines(bisect);
  const noise = noiseLine(bisect);
  const body = `<h1>gwprof bisect: ${escapeHtml(analysis.verdict)}</h1>
${analysis.reasons.map((r) => `<p>${escapeHtml(r)}</p>`).join('')}
${curve(bisect)}
${steps}
${undecided.length > 0 ? `<h2>Not named as steps</h2><ul>${undecided.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>` : ''}
${noise ? `<h2>Noise</h2><p>${escapeHtml(noise)}</p>` : ''}
<h2>Points counted</h2>
${table}
<p>${escapeHtml(bisectStatement(bisect))}</p>`;
  return htmlPage({ title: `gwprof bisect: ${analysis.verdict}`, body });
}

/** Instructions per request of the counted points, in history order, as % above the lowest: a step stands out at any size. */
function curve(bisect: PublishedBisect): string {
  const counted = bisect.points.filter((p) => bisect.analysis.perRequest[p.index] != null && !p.skipped);
  if (counted.length < 2) return '';
  const values = counted.map((p) => bisect.analysis.perRequest[p.index]!);
  const lowest = Math.min(...values);
  const short = (label: string) => label.split(' ')[0]!.slice(0, 10);
  return lineChart({
    id: 'bisect-curve',
    title:
      bisect.config.measure === 'memory'
        ? `${bisectUnit(bisect)} above the lowest point counted (${lowest.toFixed(1)})`
        : `Instructions per request above the lowest point counted (${(lowest / 1e6).toFixed(3)} M)`,
    xLabels: counted.map((p) => short(p.label)),
    xTitle: 'points counted, oldest first',
    yTitle: '% above the lowest',
    series: [{ name: bisectUnit(bisect), color: '#1f5fa8', values: values.map((v) => (v / lowest - 1) * 100) }],
    markers: bisect.analysis.steps.map((s) => ({ index: counted.findIndex((p) => p.index === s.bad), label: 'step' })),
    formatValue: (v) => `${Number(v.toPrecision(3))}%`,
    width: Math.max(640, counted.length * 56),
  });
}
