-- wrk's script for Benchmarks/run-gateway.sh: every request a POST of the same JSON body, and the run's figures as
-- one JSON object in a file, for the script to read instead of wrk's text.
--
-- wrk loads this file afresh in every thread's Lua state and in the main one (which calls done() but never init()),
-- so what it needs comes from the environment, read at the top level, not from init(args):
--   GATEWAY_BODY    the file whose bytes are the body (an empty file: Content-Length 0, no params)
--   GATEWAY_REPORT  where done() writes the figures

wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"

local body_path = os.getenv("GATEWAY_BODY")
if body_path then
    local file = assert(io.open(body_path, "rb"))
    wrk.body = file:read("*a")
    file:close()
end

function done(summary, latency, requests)
    local report = assert(io.open(assert(os.getenv("GATEWAY_REPORT"), "GATEWAY_REPORT is not set"), "w"))
    local errors = summary.errors
    report:write(string.format(
        '{"requests":%d,"duration_us":%d,"bytes":%d,' ..
        '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
        '"latency":{"min_us":%d,"mean_us":%.1f,"stddev_us":%.1f,"p50_us":%d,"p90_us":%d,"p99_us":%d,' ..
        '"p99_9_us":%d,"max_us":%d}}\n',
        summary.requests, summary.duration, summary.bytes,
        errors.connect, errors.read, errors.write, errors.status, errors.timeout,
        latency.min, latency.mean, latency.stdev, latency:percentile(50), latency:percentile(90),
        latency:percentile(99), latency:percentile(99.9), latency.max))
    report:close()
end
