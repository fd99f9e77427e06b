/**
 * The one list of CPU buckets: their order (the columns of seed 000's CPU table), their colour in
 * every chart, and what each holds. Every renderer and `gwprof buckets` read it from here.
 */
export interface BucketInfo {
  name: string;
  color: string;
  /** One line: what work lands in this bucket. */
  holds: string;
  /** No rule placed this work: it counts as unattributed. */
  unattributed?: true;
}

export const BUCKETS: readonly BucketInfo[] = Object.freeze([
  { name: 'gc', color: '#d62728', holds: 'V8 garbage collection on the main thread' },
  { name: 'idle', color: '#c7c7c7', holds: 'the event loop waiting (not CPU work)' },
  { name: 'program', color: '#8c564b', holds: 'native code V8 cannot attribute to a JavaScript function' },
  { name: 'parse', color: '#1f77b4', holds: 'GraphQL lexing and parsing of the incoming query' },
  { name: 'validate', color: '#17becf', holds: 'GraphQL validation of the incoming query' },
  {
    name: 'execute',
    color: '#2ca02c',
    holds: "running the operation: resolvers, running the plan, merging and shaping subgraph results (Apollo's executeQueryPlan, delegate's result merging)",
  },
  { name: 'plan', color: '#9467bd', holds: 'building the query plan or the delegation requests to subgraphs' },
  {
    name: 'fetch',
    color: '#e7ba52',
    holds: "the gateway's HTTP client toward subgraphs: sending requests, its agent and sockets, reading and parsing responses",
  },
  { name: 'serialize', color: '#98df8a', holds: 'writing the response: JSON.stringify (natively, serde) of the result and the HTTP response' },
  {
    name: 'ownCode',
    color: '#f7b6d2',
    holds:
      "the gateway's own code outside node_modules that no rule claims: its server, its plugins, code preloaded into it, and what they call that no rule claims",
  },
  {
    name: 'httpParser',
    color: '#ff7f0e',
    holds:
      "receiving requests: Node's HTTP server and parser callbacks, the server framework reading the request (natively: hyper's, axum's or ntex's server side)",
  },
  { name: 'onconnection', color: '#e377c2', holds: 'accepting TCP connections' },
  { name: 'pubsub', color: '#bcbd22', holds: "legacy Mesh's pub/sub handler" },
  {
    name: 'telemetry',
    color: '#9c9ede',
    holds:
      "a native gateway's tracing and metrics: spans created, entered, exited and recorded, events and metrics exported (tracing, tracing-subscriber, OpenTelemetry, the routers' telemetry modules)",
  },
  {
    name: 'allocator',
    color: '#c49c94',
    holds: "a native gateway's memory allocator: malloc, free and realloc of glibc or musl, jemalloc, mimalloc, Rust's allocation shims",
  },
  {
    name: 'memcpy',
    color: '#e7969c',
    holds: "a native gateway copying or filling memory in the C library's memcpy, memmove and memset, whoever called them (moving large futures and buffers)",
  },
  {
    name: 'runtime',
    color: '#dbdb8d',
    holds:
      "a native gateway's async runtime: tokio's or ntex's scheduler, task polling, parking, timers, wakers and channels, its I/O driver, thread start-up (what a task's poll runs is bucketed by its own frames)",
  },
  {
    name: 'kernel',
    color: '#6b6ecf',
    holds: "a native gateway's time in the Linux kernel: system calls (socket reads and writes, epoll), the network stack, scheduling, page faults",
  },
  {
    name: 'ticks',
    color: '#7f7f7f',
    holds:
      "the event loop's own functions: running the microtask and nextTick queues, timers and immediates, async and promise hooks (what they run is bucketed by its own frames)",
  },
  {
    name: 'unplaced',
    color: '#aec7e8',
    holds:
      "unattributed: work run from the event loop's queues (a promise continuation, nextTick, timer or stream callback), or by a native runtime (a task's poll, a thread's start), with no recognised frame of its own; the profile does not record who queued it",
    unattributed: true,
  },
  { name: 'other', color: '#393b79', holds: 'unattributed: stacks with no frame any rule recognises', unattributed: true },
]);

/** The buckets no rule placed. */
export const UNATTRIBUTED_BUCKETS: readonly string[] = Object.freeze(BUCKETS.filter((bucket) => bucket.unattributed).map((bucket) => bucket.name));

/** Bucket names in display order; `other` is always last. */
export const BUCKET_ORDER: readonly string[] = Object.freeze(BUCKETS.map((bucket) => bucket.name));

/** Colours for buckets outside the catalog (a maintainer's own rules), in first-seen order. */
export const EXTRA_BUCKET_COLORS: readonly string[] = Object.freeze(['#637939', '#8c6d31', '#843c39', '#7b4173', '#3182bd', '#e6550d', '#31a354', '#756bb1']);
