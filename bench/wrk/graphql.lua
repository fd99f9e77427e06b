-- gwprof's peer load generator: POSTs the same GraphQL bodies gwprof sends (one JSON body per
-- line of the file given after --, cycled per request, like gwprof's stream) with the same
-- headers, and counts only validated responses: HTTP 200 with "data" and no "errors".
--   wrk -t1 -c10 -d20s --timeout 10s -s bench/wrk/graphql.lua http://127.0.0.1:4000/graphql -- bodies.jsonl
local bodies = {}
local index = 0
ok = 0
bad = 0
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  local file = assert(io.open(args[1], "r"))
  for line in file:lines() do
    if #line > 0 then table.insert(bodies, line) end
  end
  file:close()
  wrk.method = "POST"
  wrk.headers["content-type"] = "application/json"
  wrk.headers["accept"] = "application/json"
end

function request()
  index = index % #bodies + 1
  return wrk.format(nil, nil, nil, bodies[index])
end

function response(status, headers, body)
  if status == 200 and body:find('"data"', 1, true) and not body:find('"errors"', 1, true) then
    ok = ok + 1
  else
    bad = bad + 1
  end
end

function done(summary, latency, requests)
  local all_ok, all_bad = 0, 0
  for _, thread in ipairs(threads) do
    all_ok = all_ok + thread:get("ok")
    all_bad = all_bad + thread:get("bad")
  end
  io.write(string.format(
    '{"ok":%d,"bad":%d,"requests":%d,"duration_us":%d,"timeouts":%d,"connect_errors":%d,"read_errors":%d,"write_errors":%d,"mean_us":%.1f,"p50_us":%d,"p99_us":%d,"max_us":%d}\n',
    all_ok, all_bad, summary.requests, summary.duration, summary.errors.timeout, summary.errors.connect,
    summary.errors.read, summary.errors.write, latency.mean, latency:percentile(50), latency:percentile(99), latency.max))
end
