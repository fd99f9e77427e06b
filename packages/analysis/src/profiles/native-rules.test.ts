/**
 * The native rules (native-bucket-rules.json) on frames as perf script names them: Rust symbols,
 * C symbols, the kernel. Each frame alone, then whole stacks for the nearest-frame semantics, then
 * the line between the two rule files: no native rule matches a V8 frame, and no V8 rule (ownCode
 * least of all) a native one.
 */
import { describe, expect, it } from 'vitest';
import { analyzeProfile, frameMatcher } from './buckets.js';
import { explainFrames, formatExplanations } from './explain.js';
import nativeRulesJson from './native-bucket-rules.json' with { type: 'json' };
import { DEFAULT_BUCKET_RULES } from './rules.js';
import { frame, profileOf, type Frame } from '../testing/profiles.js';

const hive = '/root/.cache/gwprof/native/hive-router-0.2.14/bin/hive_router';
const apollo = '/root/.cache/gwprof/native/apollo-router-2.17.0/bin/router';
const grafbase = '/root/.cache/gwprof/native/grafbase-0.103.0/package/grafbase';
const libc = '/usr/lib/x86_64-linux-gnu/libc.so.6';
const kernel = (name: string) => frame(name, '[kernel.kallsyms]');
const thread = frame('(thread tokio-runtime-w)');
const taskPoll = [
  frame('start_thread', libc),
  frame('std::sys::pal::unix::thread::Thread::new::thread_start', hive),
  frame('tokio::runtime::scheduler::multi_thread::worker::run', hive),
  frame('tokio::runtime::task::harness::Harness<T,S>::poll', hive),
  frame('tokio::runtime::task::core::Core<T,S>::poll', hive),
];

function bucketOf(stack: Frame[]): string {
  const result = analyzeProfile(profileOf([{ stack: [thread, ...stack], count: 1 }]));
  return Object.entries(result.counts).find(([, n]) => n === 1)![0];
}

describe('native rules, frame by frame', () => {
  it.each([
    // The kernel, the allocators, memory copies and the runtime: what the CPU did.
    ['tcp_sendmsg_locked', '[kernel.kallsyms]', 'kernel'],
    ['__GI___libc_malloc', libc, 'allocator'],
    ['_int_free', libc, 'allocator'],
    ['_rjem_sdallocx', apollo, 'allocator'],
    ['tcache_bin_flush_edatas_lookup.constprop.0', apollo, 'allocator'],
    ['_mi_page_malloc', hive, 'allocator'],
    ['__rustc::__rust_dealloc', apollo, 'allocator'],
    ['alloc::raw_vec::finish_grow', grafbase, 'allocator'],
    ['__memmove_avx512_unaligned_erms', libc, 'memcpy'],
    ['__memcpy_fwd', 'inlined', 'memcpy'],
    ['tokio::runtime::io::driver::Driver::turn', hive, 'runtime'],
    ['<tokio::time::sleep::Sleep as core::future::future::Future>::poll', grafbase, 'runtime'],
    ['tokio::sync::mpsc::list::Tx<T>::push', hive, 'runtime'],
    ['ntex_rt::driver::block_on', hive, 'runtime'],
    // The server side.
    ['<hyper::proto::h1::role::Server as hyper::proto::h1::Http1Transaction>::parse', grafbase, 'httpParser'],
    ['<hyper::proto::h1::role::Server as hyper::proto::h1::Http1Transaction>::encode', grafbase, 'serialize'],
    ['<F as axum::handler::Handler<(M,T1,T2),S>>::call::{{closure}}', grafbase, 'httpParser'],
    ['<ntex::http::h1::dispatcher::Dispatcher<F,S,B,C> as core::future::future::Future>::poll', hive, 'httpParser'],
    // GraphQL stages, by crate and module.
    ['hive_router::pipeline::parser::parse_operation_with_cache::{{closure}}', hive, 'parse'],
    ['graphql_parser::query::grammar::selection_set', hive, 'parse'],
    ['hive_router::pipeline::validation::validate_operation_with_cache::{{closure}}', hive, 'validate'],
    ['apollo_federation::query_plan::query_planner::QueryPlanner::build_query_plan', apollo, 'plan'],
    ['engine::prepare::operation_plan::plan::{{closure}}', grafbase, 'plan'],
    ['hive_router::executor::execution::plan::execute_query_plan_with_data::{{closure}}', hive, 'execute'],
    ['<serde_json_bytes::value::Value as apollo_router::json_ext::ValueExt>::type_aware_deep_merge', apollo, 'execute'],
    ['apollo_router::spec::query::Query::format_value', apollo, 'execute'],
    ['hive_router::executor::projection::response::project_selection_set_with_map', hive, 'serialize'],
    ['<engine::response::read::ser::data::SerializableResponseObject as serde_core::ser::Serialize>::serialize', grafbase, 'serialize'],
    // The client toward the subgraphs, and what it parses.
    ['<reqwest::async_impl::client::PendingRequest as core::future::future::Future>::poll', grafbase, 'fetch'],
    ['<hyper::proto::h1::role::Client as hyper::proto::h1::Http1Transaction>::parse', apollo, 'fetch'],
    ['core::ptr::drop_in_place<hyper_util::client::legacy::pool::Pooled<T,K>>', hive, 'fetch'],
    ['<&mut sonic_rs::serde::de::Deserializer<R> as serde_core::de::Deserializer>::deserialize_any', hive, 'other'],
    ['<engine::response::write::deserialize::field::FieldSeed as serde_core::de::DeserializeSeed>::deserialize', grafbase, 'fetch'],
    ['apollo_router::services::subgraph_service::call_single_http::{{closure}}', apollo, 'fetch'],
    // Tracing and metrics, but not tracing's wrapper of another future.
    ['<apollo_router::plugins::telemetry::otel::layer::OpenTelemetryLayer<S,T> as tracing_subscriber::layer::Layer<S>>::on_enter', apollo, 'telemetry'],
    ['tracing_core::dispatcher::get_default', hive, 'telemetry'],
    ['<tracing::instrument::Instrumented<T> as core::future::future::Future>::poll', hive, 'other'],
    // Shared plumbing with no rule of its own takes its caller's bucket: alone, it is other.
    ['httparse::parse_headers_iter_uninit', grafbase, 'other'],
    ['hyper::proto::h1::dispatch::Dispatcher<D,Bs,I,T>::poll_catch', grafbase, 'other'],
    ['__memcmp_evex_movbe', libc, 'other'],
    ['main', '/tmp/native-stub', 'other'],
  ])('%s → %s', (functionName, url, bucket) => {
    expect(bucketOf([frame(functionName, url)])).toBe(bucket);
  });
});

describe('native rules, whole stacks', () => {
  it("puts the kernel's work under a system call in kernel, whoever made the call", () => {
    const write = [frame('__GI___writev', libc), kernel('do_writev'), kernel('tcp_sendmsg')];
    const server = [
      frame('<hyper::proto::h1::dispatch::Server<S,hyper::body::incoming::Incoming> as hyper::proto::h1::dispatch::Dispatch>::poll_msg', grafbase),
    ];
    const client = [frame('hyper_util::client::legacy::client::Client<C,B>::send_request::{{closure}}', grafbase)];
    expect(bucketOf([...taskPoll, ...server, ...write])).toBe('kernel');
    expect(bucketOf([...taskPoll, ...client, ...write])).toBe('kernel');
    // The user-space side of the call takes its caller's bucket.
    expect(bucketOf([...taskPoll, ...client, frame('__GI___writev', libc)])).toBe('fetch');
  });

  it('puts malloc in allocator and memcpy in memcpy under any stage, and shared code in its nearest stage', () => {
    const fetching = [...taskPoll, frame('<runtime_local::fetch::NativeFetcher as runtime::fetch::Fetcher>::fetch::{{closure}}', grafbase)];
    expect(bucketOf([...fetching, frame('malloc', grafbase)])).toBe('allocator');
    expect(bucketOf([...fetching, frame('__memcpy_fwd', 'inlined')])).toBe('memcpy');
    expect(bucketOf([...fetching, frame('httparse::parse_headers_iter_uninit', grafbase)])).toBe('fetch');
  });

  it("lets an ordinary stage under the server framework's weak frames win, and the framework keep what no rule claims", () => {
    const server = [...taskPoll, frame('<F as axum::handler::Handler<(M,T1,T2),S>>::call::{{closure}}', grafbase)];
    expect(bucketOf([...server, frame('engine::execution::operation::coordinator::OperationExecution<R>::run::{{closure}}', grafbase)])).toBe('execute');
    expect(bucketOf([...server, frame('<futures_util::future::future::map::Map<Fut,F> as core::future::future::Future>::poll', grafbase)])).toBe('httpParser');
  });

  it("keeps the runtime's task poll for its own time and leaves what the task runs to the task's own frames, unplaced when none is known", () => {
    expect(bucketOf(taskPoll)).toBe('runtime');
    const future = frame('<futures_util::future::future::Map<Fut,F> as core::future::future::Future>::poll', hive);
    expect(bucketOf([...taskPoll, future])).toBe('unplaced');
    expect(bucketOf([...taskPoll, future, frame('hive_router::executor::executors::http::HTTPSubgraphExecutor::execute', hive)])).toBe('fetch');
    // A stage above the task poll does not reach below it: the poll ran work the stage did not call.
    const stageThenPoll = [frame('hive_router::executor::execution::plan::Executor::run', hive), ...taskPoll.slice(3), future];
    expect(bucketOf(stageThenPoll)).toBe('unplaced');
  });

  it('explains a native frame: its rule, the callers it inherited from, and the task poll that ran it', () => {
    const future = frame('<futures_util::future::future::Map<Fut,F> as core::future::future::Future>::poll', hive);
    const profile = profileOf([
      { stack: [thread, ...taskPoll, future], count: 2 },
      { stack: [thread, ...taskPoll, frame('hive_router::executor::execution::plan::Executor::run', hive), future], count: 3 },
    ]);
    const [entry] = explainFrames(profile, { pattern: /futures_util::future::future::Map/ });
    expect(entry!.outcomes.map((o) => [o.bucket, o.how, o.selfMs])).toEqual([
      ['execute', 'ancestor', 3],
      ['unplaced', 'queued', 2],
    ]);
    expect(entry!.outcomes[1]!.queuedBy!.frame.functionName).toBe('tokio::runtime::task::core::Core<T,S>::poll');
    const lines = formatExplanations([entry!]).join('\n');
    expect(lines).toMatch(/→ unplaced .* no rule between it and tokio::runtime::task::core::Core<T,S>::poll .*, rule \d+ \(runtime\), which ran it/);
    expect(lines).toMatch(/rule \d+ → runtime \(entry\) \[functionName/);
  });
});

describe('the line between V8 rules and native rules', () => {
  const nativeIndexes = new Set(DEFAULT_BUCKET_RULES.map((_, i) => i).slice(-nativeRulesJson.length));
  const matcher = frameMatcher(DEFAULT_BUCKET_RULES);

  it('appends the native rules after the V8 ones, so every V8 rule keeps its index', () => {
    expect(DEFAULT_BUCKET_RULES.slice(-nativeRulesJson.length).map((rule) => rule.comment)).toEqual(nativeRulesJson.map((rule) => rule.comment));
  });

  it.each([
    ['malloc', '/srv/gw/native-shim.js'],
    ['free', 'node:internal/process/task_queues'],
    ['memcpy', 'file:///srv/gw/buffer.mjs'],
    ['start', '/srv/gw/server.ts'],
    ['(garbage collector)', ''],
    ['(program)', ''],
    ['mi_malloc', '/srv/gw/node_modules/some-lib/index.js'],
  ])('no native rule matches the V8 frame %s (%s)', (functionName, url) => {
    const index = matcher({ functionName, url });
    expect(index === undefined || !nativeIndexes.has(index)).toBe(true);
  });

  it("gives the gateway's own code (ownCode) only JavaScript and TypeScript files, so an unclaimed native frame is other", () => {
    expect(bucketOf([frame('resolveUser', '/srv/gw/resolvers.ts')])).toBe('ownCode');
    expect(bucketOf([frame('my_gateway::handler', '/srv/gw/target/release/my-gateway')])).toBe('other');
    expect(bucketOf([frame('some_function', '/usr/lib/x86_64-linux-gnu/libfoo.so.1')])).toBe('other');
  });
});
