/**
 * The Prometheus text exposition format, as far as reading one gauge needs: samples as
 * `name{label="value",…} value [timestamp]`, comments and blank lines skipped. A selector names a
 * metric and, optionally, labels its series must carry (`name{kind="allocated"}`).
 */

export interface MetricSelector {
  name: string;
  labels: Record<string, string>;
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*/;

/** `{a="1",b="x\"y"}` at the start of `text`: the labels and the length read; null when malformed. */
function readLabels(text: string): { labels: Record<string, string>; length: number } | null {
  const labels: Record<string, string> = {};
  let at = 1;
  for (;;) {
    while (text[at] === ' ' || text[at] === ',') at++;
    if (text[at] === '}') return { labels, length: at + 1 };
    const name = LABEL_NAME.exec(text.slice(at))?.[0];
    if (!name || text[at + name.length] !== '=' || text[at + name.length + 1] !== '"') return null;
    at += name.length + 2;
    let value = '';
    while (at < text.length && text[at] !== '"') {
      if (text[at] === '\\') {
        const escaped = text[at + 1];
        value += escaped === 'n' ? '\n' : (escaped ?? '');
        at += 2;
      } else value += text[at++];
    }
    if (at >= text.length) return null;
    labels[name] = value;
    at++;
  }
}

/** A metric name with optional labels, as a selector or a sample line begins; null when it is not one. */
function readSeries(text: string): { name: string; labels: Record<string, string>; length: number } | null {
  const name = NAME.exec(text)?.[0];
  if (!name) return null;
  if (text[name.length] !== '{') return { name, labels: {}, length: name.length };
  const labels = readLabels(text.slice(name.length));
  return labels ? { name, labels: labels.labels, length: name.length + labels.length } : null;
}

/** A selector as --allocator-metric gives it (`name` or `name{label="value"}`); null when it is not one. */
export function parseSelector(text: string): MetricSelector | null {
  const series = readSeries(text.trim());
  return series && series.length === text.trim().length ? { name: series.name, labels: series.labels } : null;
}

function parseValue(token: string | undefined): number | null {
  if (token === undefined) return null;
  if (token === '+Inf' || token === 'Inf') return Number.POSITIVE_INFINITY;
  if (token === '-Inf') return Number.NEGATIVE_INFINITY;
  const value = Number(token);
  return token !== '' && !Number.isNaN(value) ? value : null;
}

/** Every sample in an exposition; lines that are not samples are skipped. */
export function parseSamples(exposition: string): Sample[] {
  const samples: Sample[] = [];
  for (const raw of exposition.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const series = readSeries(line);
    if (!series) continue;
    const value = parseValue(line.slice(series.length).trim().split(/\s+/)[0]);
    if (value !== null) samples.push({ name: series.name, labels: series.labels, value });
  }
  return samples;
}

const matches = (sample: Sample, selector: MetricSelector): boolean =>
  sample.name === selector.name && Object.entries(selector.labels).every(([k, v]) => sample.labels[k] === v);

/**
 * The value of the first selector that matches a series; an error when none matches or one matches
 * several series (a sum of them could count the same bytes twice).
 */
export function gaugeValue(exposition: string | Sample[], selectors: readonly string[]): { value: number; selector: string } | { error: string } {
  const samples = typeof exposition === 'string' ? parseSamples(exposition) : exposition;
  for (const text of selectors) {
    const selector = parseSelector(text);
    if (!selector) return { error: `${text} is not a metric selector` };
    const found = samples.filter((s) => matches(s, selector));
    if (found.length === 1) return { value: found[0]!.value, selector: text };
    if (found.length > 1) return { error: `${found.length} series match ${text}: name one by its labels` };
  }
  return { error: `no metric ${selectors.join(' or ')} on the endpoint` };
}
