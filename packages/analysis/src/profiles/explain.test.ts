import { describe, expect, it } from 'vitest';
import { explainFrames, explainRule, formatExplanations, parseExplainQuery } from './explain.js';
import { DEFAULT_BUCKET_RULES } from './rules.js';
import { frame, profileOf } from '../testing/profiles.js';

const pnpm = (pkg: string, file: string) => `file:///gw/node_modules/.pnpm/${pkg.replace('/', '+')}@1.0.0/node_modules/${pkg}/${file}`;
const ticks = frame('processTicksAndRejections', 'node:internal/process/task_queues');
const visit = frame('visit', pnpm('graphql', 'language/visitor.js'), 101);
const createRequest = frame('createRequest', pnpm('@graphql-tools/delegate', 'dist/index.js'), 2340);
const stripAndPrint = frame('stripAndPrint', pnpm('@graphql-tools/executor-common', 'dist/index.js'), 3);
const continuation = frame('', pnpm('some-lib', 'index.js'), 9);
const queuedCallback = frame('onDone', pnpm('other-lib', 'index.js'), 4);

const profile = profileOf([
  { stack: [ticks, createRequest, visit], count: 5 },
  { stack: [ticks, stripAndPrint, visit], count: 2 },
  { stack: [ticks, createRequest], count: 1 },
  { stack: [continuation], count: 3 },
  { stack: [ticks, queuedCallback], count: 4 },
]);

describe('explainFrames', () => {
  it('says which callers a frame without a rule inherits from, with the time of each', () => {
    const [entry] = explainFrames(profile, { pattern: /^visit$/ });
    expect(entry!.frame).toEqual({ functionName: 'visit', url: visit.url, line: 102 });
    expect(entry!.ownRule).toBeUndefined();
    expect(entry!.selfMs).toBe(7);
    expect(entry!.outcomes.map((o) => [o.bucket, o.how, o.decidedBy?.frame.functionName, o.selfMs])).toEqual([
      ['plan', 'ancestor', 'createRequest', 5],
      ['fetch', 'ancestor', 'stripAndPrint', 2],
    ]);
    const planRule = entry!.outcomes[0]!.decidedBy!.rule;
    expect(planRule).toMatchObject({ bucket: 'plan', weak: false });
    expect(DEFAULT_BUCKET_RULES[planRule.index]!.comment).toBe(planRule.comment);
  });

  it('says when a frame’s own rule decided, and which fallback decided when none did', () => {
    const [own] = explainFrames(profile, { pattern: /^createRequest$/ });
    expect(own!.ownRule?.bucket).toBe('plan');
    expect(own!.outcomes.map((o) => [o.how, o.nodes, o.selfMs])).toEqual([['own rule', 1, 1]]);
    const [lone] = explainFrames(profile, { pattern: /some-lib/ });
    expect(lone!.outcomes.map((o) => [o.bucket, o.how])).toEqual([['other', 'unrecognised']]);
    const [queued] = explainFrames(profile, { pattern: /other-lib/ });
    expect(queued!.outcomes.map((o) => [o.bucket, o.how, o.selfMs])).toEqual([['unplaced', 'queued', 4]]);
    const [runner] = explainFrames(profile, { pattern: /^processTicksAndRejections$/ });
    expect(runner!.ownRule).toMatchObject({ bucket: 'ticks', entry: true });
  });

  it('selects by node id and prints one block per frame', () => {
    const id = profile.nodes.find((node) => node.callFrame.functionName === 'stripAndPrint')!.id;
    expect(parseExplainQuery(`#${id}`)).toEqual({ nodeId: id });
    const explanations = explainFrames(profile, parseExplainQuery(`#${id}`));
    expect(explanations.map((e) => e.frame.functionName)).toEqual(['stripAndPrint']);
    const lines = formatExplanations(explainFrames(profile, parseExplainQuery('visit')));
    expect(lines[0]).toMatch(/^visit {2}file:.*visitor\.js:102 {2}\(2 nodes, self 7\.0 ms\)$/);
    expect(lines.some((line) => /→ plan .* 5\.0 ms in 1 node: inherited from caller createRequest/.test(line))).toBe(true);
    expect(formatExplanations([])).toEqual(['no frame in this profile matches']);
  });

  it("explains a plugin's frames and what they call by the gateway's own-code rule, nearer than the framework's", () => {
    const apolloServer = frame('runHttpQuery', pnpm('@apollo/server', 'dist/esm/runHttpQuery.js'), 90);
    const willSendResponse = frame('willSendResponse', 'file:///srv/gw/dist/server.js', 23);
    const leave = frame('leave', pnpm('graphql', 'language/printer.js'), 24);
    const plugin = profileOf([{ stack: [ticks, apolloServer, willSendResponse, leave], count: 4 }]);
    const [own] = explainFrames(plugin, { pattern: /^willSendResponse$/ });
    expect(own!.ownRule).toMatchObject({ bucket: 'ownCode', weak: true });
    const lines = formatExplanations(explainFrames(plugin, { pattern: /^leave$/ }));
    expect(
      lines.some((line) => /→ ownCode .* 4\.0 ms in 1 node: inherited from caller willSendResponse .*server\.js:24, rule \d+ \(ownCode, weak\)/.test(line)),
    ).toBe(true);
    expect(
      lines.some((line) =>
        /^ {2}rule \d+ → ownCode \(weak\) \[url .*\]: the gateway's own code: a JavaScript or TypeScript file .* outside any node_modules folder/.test(line),
      ),
    ).toBe(true);
  });

  it('names the rule a frame typed by hand would match', () => {
    expect(explainRule({ functionName: 'isSecureEndpoint', url: pnpm('agent-base', 'dist/index.js') })).toMatchObject({ bucket: 'fetch', weak: false });
    expect(explainRule({ functionName: 'runMicrotasks', url: '' })).toMatchObject({ bucket: 'ticks', weak: false, entry: true });
    expect(explainRule({ functionName: 'getLibuvNow', url: '' })).toMatchObject({ bucket: 'ticks', weak: true, entry: false });
    expect(explainRule({ functionName: 'resolveUser', url: '/srv/gw/resolvers.js' })).toMatchObject({ bucket: 'ownCode', weak: true });
    expect(explainRule({ functionName: 'resolveUser', url: pnpm('user-sdk', 'index.js') })).toBeUndefined();
    expect(explainRule({ functionName: 'gc', url: '/srv/gwprof/packages/collect/dist/profiler/full-gc.cjs' })).toBeUndefined();
  });
});
