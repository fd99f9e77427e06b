import { readFileSync } from 'node:fs';
import defaultRulesJson from './bucket-rules.json' with { type: 'json' };
import nativeRulesJson from './native-bucket-rules.json' with { type: 'json' };
import { GwprofError } from '@gwprof/results';
import { BUCKET_ORDER } from './bucket-catalog.js';
import { FRAME_KINDS, type FrameKind } from './frame-kind.js';

/**
 * One line of a bucket rules file. A rule matches a stack frame when every regex it gives matches;
 * rules are tried in file order and the first match names the frame's bucket.
 */
export interface BucketRule {
  bucket: string;
  /** Regex (JavaScript syntax, unanchored) tested against `callFrame.functionName`. */
  functionName?: string;
  /** Regex tested against `callFrame.url` (`file:///…`, an absolute path, or `node:…`). */
  url?: string;
  /** The kind of code the frame must be (`frame-kind.ts`): a native rule names only a native binary's or library's frames. */
  frame?: FrameKind;
  /** Why the rule exists; ignored by the classifier. */
  comment?: string;
  /**
   * A weak rule names where Node entered or plumbed the work (event loop, HTTP server, shared
   * OutgoingMessage; natively, the server framework) rather than what the work is: a sample takes
   * the nearest frame matched by an ordinary rule anywhere on its stack, and the nearest weak one
   * only when there is none.
   */
  weak?: boolean;
  /**
   * An entry rule names the event loop's own functions, which run work queued earlier (promise
   * continuations, nextTick callbacks, timers, immediates), and natively an async runtime's task
   * poll or a thread's start: the frame's own time is its bucket, but what it runs is not its work,
   * and the profile does not record who queued it. A frame it calls takes no bucket from anything
   * above; without a rule of its own it is `unplaced`.
   */
  entry?: boolean;
  /** A bucket of the maintainer's own, not in the catalog: without it an unknown name is refused, since a typo would make a bucket of its own. */
  new?: boolean;
}

const RULE_FIELDS = new Set(['bucket', 'functionName', 'url', 'frame', 'comment', 'weak', 'entry', 'new']);

/** Checks a parsed rules file: an array of rules, known fields only, valid regexes. */
export function parseBucketRules(value: unknown, source: string): BucketRule[] {
  const fail = (what: string): never => {
    throw new GwprofError(`${source}: ${what}`);
  };
  if (!Array.isArray(value)) fail('expected a JSON array of rules like {"bucket": "plan", "url": "…"}');
  return (value as unknown[]).map((entry, index) => {
    const where = `rule ${index}`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) fail(`${where} is not an object`);
    const rule = entry as Record<string, unknown>;
    for (const key of Object.keys(rule)) {
      if (!RULE_FIELDS.has(key)) fail(`${where} has unknown field "${key}" (allowed: ${[...RULE_FIELDS].join(', ')})`);
    }
    if (typeof rule.bucket !== 'string' || rule.bucket.trim() === '') fail(`${where} needs a non-empty string "bucket"`);
    if (rule.functionName === undefined && rule.url === undefined) fail(`${where} needs "functionName" or "url"`);
    for (const field of ['functionName', 'url', 'comment'] as const) {
      if (rule[field] !== undefined && typeof rule[field] !== 'string') fail(`${where}: "${field}" must be a string`);
    }
    if (rule.frame !== undefined && !FRAME_KINDS.includes(rule.frame as FrameKind)) fail(`${where}: "frame" must be one of ${FRAME_KINDS.join(', ')}`);
    for (const flag of ['weak', 'entry', 'new'] as const) {
      if (rule[flag] !== undefined && typeof rule[flag] !== 'boolean') fail(`${where}: "${flag}" must be true or false`);
    }
    for (const field of ['functionName', 'url'] as const) {
      const pattern = rule[field];
      if (typeof pattern !== 'string') continue;
      try {
        new RegExp(pattern);
      } catch (error) {
        fail(`${where}: "${field}" is not a valid regex (${(error as Error).message})`);
      }
    }
    if (!BUCKET_ORDER.includes(rule.bucket as string) && rule.new !== true) {
      fail(
        `${where} names bucket "${String(rule.bucket)}", which is not one of ${BUCKET_ORDER.join(', ')}: fix the name, or mark a bucket of your own with "new": true`,
      );
    }
    return rule as unknown as BucketRule;
  });
}

/**
 * The built-in rules: `bucket-rules.json` (V8 frames: files, Node's internals, V8's pseudo-frames),
 * then `native-bucket-rules.json` (perf's frames: symbols of a native binary, its libraries and the
 * kernel). Each file's rules are written so they cannot match the other's frames, so their order
 * between files changes no bucket; appended, the native rules leave every V8 rule's index as it was.
 */
export const DEFAULT_BUCKET_RULES: readonly BucketRule[] = Object.freeze([
  ...parseBucketRules(defaultRulesJson, 'bucket-rules.json'),
  ...parseBucketRules(nativeRulesJson, 'native-bucket-rules.json'),
]);

/**
 * Reads a maintainer's rules file; its rules come before the defaults, so they win on the same frame.
 * Synchronous: a small file read once when a command starts.
 */
export function loadBucketRules(path: string): BucketRule[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    throw new GwprofError(`${path}: cannot read bucket rules (${code ?? message})`, { cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new GwprofError(`${path}: invalid JSON (${(error as Error).message.replace(/\s+/g, ' ')})`);
  }
  return [...parseBucketRules(value, path), ...DEFAULT_BUCKET_RULES];
}
