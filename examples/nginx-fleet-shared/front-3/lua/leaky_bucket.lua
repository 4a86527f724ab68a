-- nginx's limit_req leaky bucket, run inside Redis as one atomic script
-- (EVALSHA), so that every edge of a fleet reads and updates the same bucket
-- in one step: a read and a write in two steps let several edges admit the
-- same token (apache/apisix#12592 measured 3.6 r/s through a 1 r/s limit).
-- It keeps nginx's own units and arithmetic (ngx_http_limit_req_module.c,
-- ngx_http_limit_req_lookup): the rate in requests per 1000 s, the excess in
-- thousandths of a request, and the time in milliseconds, read from Redis's
-- own clock so that the edges' clocks play no part.
--   KEYS[1]  the client's bucket
--   ARGV[1]  rate, requests/s x 1000
--   ARGV[2]  burst x 1000: beyond it a request is rejected
--   ARGV[3]  delay x 1000: beyond it a request is delayed (0 queues every
--            excess request as limit_req without nodelay; burst x 1000 is
--            nodelay; N x 1000 is delay=N)
-- Returns -1 to reject, else how many ms to delay the request (0: none).
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local delay = tonumber(ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'excess', 'last')
local excess = 0
if state[1] then
  local ms = now - tonumber(state[2])
  -- nginx's guard against a clock that stepped back by more than a minute.
  if ms < -60000 then
    ms = 1
  end
  excess = tonumber(state[1]) - math.floor(rate * math.abs(ms) / 1000) + 1000
  if excess < 0 then
    excess = 0
  end
  if excess > burst then
    return -1
  end
end
redis.call('HSET', KEYS[1], 'excess', excess, 'last', now)
-- Forget the bucket a minute after it has drained, as limit_req's zone does
-- with nodes it no longer needs.
redis.call('PEXPIRE', KEYS[1], math.floor(excess * 1000 / rate) + 60000)
if excess <= delay then
  return 0
end
return math.floor((excess - delay) * 1000 / rate)
