import { attributeNodes, frameMatcher, type NodeAttribution } from './buckets.js';
import { selfWeights } from './cpuprofile.js';
import type { CpuProfile, CpuProfileCallFrame } from './cpuprofile.js';
import { DEFAULT_BUCKET_RULES, type BucketRule } from './rules.js';
import type { FrameKind } from './frame-kind.js';
import { GwprofError } from '@gwprof/results';

/** A rule as `explain` shows it: where it is in the rules, and what it says. */
export interface RuleRef {
  /** 0-based index in the rules tried (a maintainer's rules first, then the defaults). */
  index: number;
  bucket: string;
  weak: boolean;
  entry: boolean;
  functionName?: string;
  url?: string;
  frame?: FrameKind;
  comment?: string;
}

/** A frame of the profile, shown as an editor would (1-based line, 0 when V8 gives none). */
export interface FrameRef {
  functionName: string;
  url: string;
  line: number;
}

/** One way the nodes of a frame got their bucket, with the self time that went that way. */
export interface ExplainedOutcome {
  bucket: string;
  /**
   * `own rule`: the frame's own rule decided. `ancestor`: a caller's rule decided (ordinary rules
   * beat weak ones anywhere on the stack). `queued` / `unrecognised`: no rule decided; the frame ran
   * from the event loop's queues, below an entry rule's frame (→ unplaced), or not (→ other).
   */
  how: 'own rule' | 'ancestor' | 'queued' | 'unrecognised';
  /** The deciding frame and its rule (for `own rule` and `ancestor`). */
  decidedBy?: { frame: FrameRef; rule: RuleRef };
  /** For `queued`: the entry rule's frame that ran it (an event-loop runner, a native runtime's task poll or thread start). */
  queuedBy?: { frame: FrameRef; rule: RuleRef };
  /** How many of the frame's nodes (distinct caller chains) went this way. */
  nodes: number;
  /** Self time of those nodes, in ms (samples whose leaf is this frame). */
  selfMs: number;
}

export interface FrameExplanation {
  frame: FrameRef;
  /** The first rule this frame matches by itself, if any. */
  ownRule?: RuleRef;
  /** Ids of the profile nodes with this frame. */
  nodeIds: number[];
  selfMs: number;
  /** Largest self time first. */
  outcomes: ExplainedOutcome[];
}

/**
 * What a `--explain` argument selects: `#<node id>`, or a regular expression tested against the
 * function name and the url (a frame is selected when either matches).
 */
export type ExplainQuery = { nodeId: number } | { pattern: RegExp };

export function parseExplainQuery(text: string): ExplainQuery {
  const id = /^#(\d+)$/.exec(text.trim());
  if (id) return { nodeId: Number(id[1]) };
  try {
    return { pattern: new RegExp(text) };
  } catch (error) {
    throw new GwprofError(`--explain ${text}: not a valid regex (${(error as Error).message})`);
  }
}

/**
 * For every frame of the profile the query selects: which rule its frame matches, and how its nodes
 * got their buckets (its own rule, an ancestor's rule, or a fallback), with the self time of each
 * way. Sorted by self time, largest first.
 */
export function explainFrames(profile: CpuProfile, query: ExplainQuery, rules: readonly BucketRule[] = DEFAULT_BUCKET_RULES): FrameExplanation[] {
  const attribution = attributeNodes(profile, rules);
  const matchFrame = frameMatcher(rules);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const { selfUs } = selfWeights(profile);
  const selected = profile.nodes.filter((node) =>
    'nodeId' in query ? node.id === query.nodeId : query.pattern.test(node.callFrame.functionName) || query.pattern.test(node.callFrame.url),
  );

  const frames = new Map<string, FrameExplanation>();
  for (const node of selected) {
    const frame = frameRef(node.callFrame);
    const key = printedFrameKey(frame);
    let entry = frames.get(key);
    if (!entry) {
      const own = matchFrame(node.callFrame);
      entry = { frame, ...(own === undefined ? {} : { ownRule: ruleRef(rules, own) }), nodeIds: [], selfMs: 0, outcomes: [] };
      frames.set(key, entry);
    }
    const ms = (selfUs.get(node.id) ?? 0) / 1000;
    entry.nodeIds.push(node.id);
    entry.selfMs += ms;
    addOutcome(entry, outcomeOf(node.id, attribution.get(node.id)!, byId, rules), ms);
  }
  const explanations = [...frames.values()];
  for (const entry of explanations) entry.outcomes.sort((a, b) => b.selfMs - a.selfMs || b.nodes - a.nodes);
  return explanations.sort((a, b) => b.selfMs - a.selfMs || a.frame.functionName.localeCompare(b.frame.functionName));
}

/** Which rule a frame matches, without a profile (for a frame typed by hand). */
export function explainRule(
  frame: Pick<CpuProfileCallFrame, 'functionName' | 'url'>,
  rules: readonly BucketRule[] = DEFAULT_BUCKET_RULES,
): RuleRef | undefined {
  const index = frameMatcher(rules)(frame);
  return index === undefined ? undefined : ruleRef(rules, index);
}

/** Plain-text lines for a terminal: one block per frame, then the rules it refers to. */
export function formatExplanations(explanations: readonly FrameExplanation[], limit = 20): string[] {
  if (explanations.length === 0) return ['no frame in this profile matches'];
  const lines: string[] = [];
  for (const entry of explanations.slice(0, limit)) {
    const rules = new Map<number, RuleRef>();
    const cite = (rule: RuleRef): string => {
      rules.set(rule.index, rule);
      return `rule ${rule.index} (${rule.bucket}${rule.weak ? ', weak' : ''})`;
    };
    lines.push(`${describeFrame(entry.frame)}  (${entry.nodeIds.length} node${entry.nodeIds.length === 1 ? '' : 's'}, self ${entry.selfMs.toFixed(1)} ms)`);
    lines.push(`  own frame: ${entry.ownRule ? `matches ${cite(entry.ownRule)}` : 'matches no rule'}`);
    for (const outcome of entry.outcomes) {
      const where = `${outcome.bucket.padEnd(12)} ${outcome.selfMs.toFixed(1).padStart(8)} ms in ${outcome.nodes} node${outcome.nodes === 1 ? '' : 's'}`;
      lines.push(`  → ${where}: ${describeOutcome(outcome, cite)}`);
    }
    for (const rule of [...rules.values()].sort((a, b) => a.index - b.index)) lines.push(`  ${describeRule(rule)}`);
  }
  if (explanations.length > limit) lines.push(`… and ${explanations.length - limit} more frames (narrow the pattern)`);
  return lines;
}

function outcomeOf(
  nodeId: number,
  attribution: NodeAttribution,
  byId: ReadonlyMap<number, { callFrame: CpuProfileCallFrame }>,
  rules: readonly BucketRule[],
): Omit<ExplainedOutcome, 'nodes' | 'selfMs'> {
  const { bucket, decidedBy, fallback, queuedBy } = attribution;
  if (!decidedBy) {
    const runner = queuedBy && { frame: frameRef(byId.get(queuedBy.nodeId)!.callFrame), rule: ruleRef(rules, queuedBy.ruleIndex) };
    return { bucket, how: fallback ?? 'unrecognised', ...(runner ? { queuedBy: runner } : {}) };
  }
  return {
    bucket,
    how: decidedBy.nodeId === nodeId ? 'own rule' : 'ancestor',
    decidedBy: { frame: frameRef(byId.get(decidedBy.nodeId)!.callFrame), rule: ruleRef(rules, decidedBy.ruleIndex) },
  };
}

function addOutcome(entry: FrameExplanation, outcome: Omit<ExplainedOutcome, 'nodes' | 'selfMs'>, ms: number): void {
  const same = entry.outcomes.find(
    (o) =>
      o.bucket === outcome.bucket &&
      o.how === outcome.how &&
      o.decidedBy?.rule.index === outcome.decidedBy?.rule.index &&
      (o.decidedBy === undefined || printedFrameKey(o.decidedBy.frame) === printedFrameKey(outcome.decidedBy!.frame)) &&
      (o.queuedBy === undefined) === (outcome.queuedBy === undefined) &&
      (o.queuedBy === undefined || printedFrameKey(o.queuedBy.frame) === printedFrameKey(outcome.queuedBy!.frame)),
  );
  if (same) {
    same.nodes += 1;
    same.selfMs += ms;
  } else {
    entry.outcomes.push({ ...outcome, nodes: 1, selfMs: ms });
  }
}

function describeOutcome(outcome: ExplainedOutcome, cite: (rule: RuleRef) => string): string {
  switch (outcome.how) {
    case 'own rule':
      return `its own ${cite(outcome.decidedBy!.rule)}`;
    case 'ancestor':
      return `inherited from caller ${describeFrame(outcome.decidedBy!.frame)}, ${cite(outcome.decidedBy!.rule)}`;
    case 'queued':
      return outcome.queuedBy
        ? `no rule between it and ${describeFrame(outcome.queuedBy.frame)}, ${cite(outcome.queuedBy.rule)}, which ran it; the code that queued or started that work is not on the stack: unplaced`
        : 'no rule below the frame that ran it from a queue: unplaced';
    case 'unrecognised':
      return 'no rule on its stack: other';
  }
}

function describeRule(rule: RuleRef): string {
  const patterns = [
    rule.functionName === undefined ? '' : `functionName /${rule.functionName}/`,
    rule.url === undefined ? '' : `url /${rule.url}/`,
    rule.frame === undefined ? '' : `frame ${rule.frame}`,
  ]
    .filter(Boolean)
    .join(', ');
  return `rule ${rule.index} → ${rule.bucket}${rule.weak ? ' (weak)' : ''}${rule.entry ? ' (entry)' : ''} [${patterns}]${rule.comment ? `: ${rule.comment}` : ''}`;
}

function describeFrame(frame: FrameRef): string {
  return `${frame.functionName}${frame.url ? `  ${frame.url}${frame.line > 0 ? `:${frame.line}` : ''}` : ''}`;
}

function ruleRef(rules: readonly BucketRule[], index: number): RuleRef {
  const rule = rules[index]!;
  return {
    index,
    bucket: rule.bucket,
    weak: rule.weak === true,
    entry: rule.entry === true,
    ...(rule.functionName === undefined ? {} : { functionName: rule.functionName }),
    ...(rule.url === undefined ? {} : { url: rule.url }),
    ...(rule.frame === undefined ? {} : { frame: rule.frame }),
    ...(rule.comment === undefined ? {} : { comment: rule.comment }),
  };
}

function frameRef(frame: CpuProfileCallFrame): FrameRef {
  return { functionName: frame.functionName || '(anonymous)', url: frame.url, line: Math.max(0, frame.lineNumber + 1) };
}

/** Frames as the explanation prints them (by line, no column): two that print alike are one line of it. */
function printedFrameKey(frame: FrameRef): string {
  return `${frame.functionName}\0${frame.url}\0${frame.line}`;
}
