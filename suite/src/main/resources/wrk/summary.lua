-- wrk's own figures of a run as one line of JSON after its usual report, for the suite to read
-- (WrkGenerator): the report prints latency in rounded units and no minimum. Only done() is
-- defined, so wrk keeps its static request and reads no response body: the run costs what a run
-- without a script costs. https://github.com/wg/wrk/blob/master/SCRIPTING
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('wrk-summary: {"requests":%d,"duration_us":%d,"bytes":%d,"connect":%d,"read":%d,'
      .. '"write":%d,"status":%d,"timeout":%d,"min_us":%d,"max_us":%d,"mean_us":%.3f,"p50_us":%d,'
      .. '"p90_us":%d,"p95_us":%d,"p99_us":%d}\n',
      summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
      latency.min, latency.max, latency.mean, latency:percentile(50), latency:percentile(90),
      latency:percentile(95), latency:percentile(99)))
end
