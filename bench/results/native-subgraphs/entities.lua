-- wrk script: a typical _entities request of the varied stream, reviews' UserReviews__reviews__1
-- (a user's reviews with their products), one user after another (2,000), as Apollo Gateway
-- sends it. Counts answers that are not 200 with "data" and no "errors".
local n = 0
local bad = 0
local query = 'query UserReviews__reviews__1($representations:[_Any!]!){_entities(representations:$representations){...on User{reviews{id body product{__typename upc}}}}}'
request = function()
  n = n + 1
  local body = string.format('{"query":"%s","variables":{"representations":[{"__typename":"User","id":"%d"}]},"operationName":"UserReviews__reviews__1"}', query, (n % 2000) + 1)
  return wrk.format("POST", wrk.path, { ["content-type"] = "application/json" }, body)
end
response = function(status, headers, body)
  if status ~= 200 or not string.find(body, '"data"', 1, true) or string.find(body, '"errors"', 1, true) then bad = bad + 1 end
end
done = function(summary, latency, requests)
  io.write(string.format("bad answers (per wrk thread's count, threads=1): %d\n", bad))
end
