-- A client's quota (--quota), run inside Redis as one atomic script (EVALSHA),
-- so that every edge of a fleet counts the same window in one step: a read
-- and a write in two steps would let several edges admit the same request.
-- A counter per window, not a bucket: a leaky bucket cannot hold a window of
-- hours or days. Time in milliseconds from Redis's own clock, so that the
-- edges' clocks play no part.
--   KEYS[1]  the client's quota (each window's counter is KEYS[1]:START)
--   ARGV[1]  N, the requests a window allows
--   ARGV[2]  W, the window in milliseconds
--   ARGV[3]  0 sliding, 1 fixed (from the epoch), 2 calendar (from each UTC
--            midnight; for W dividing a day the same as fixed)
-- Returns {admitted (1 or 0), remaining, ms until the window ends, ms until a
-- request would be admitted again (0 when admitted), now (Redis's ms, which
-- the edge logs so that a run's windows can be counted on the same clock)}. A rejected request
-- costs nothing. Each counter expires with the window it can still matter
-- in, so Redis holds only the active clients' keys.
local n = tonumber(ARGV[1])
local w = tonumber(ARGV[2])
local mode = tonumber(ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)

local start = now - now % w
local length = w
if mode == 2 then
  local day = 86400000
  local midnight = now - now % day
  start = midnight + (now - midnight) - (now - midnight) % w
  length = math.min(w, midnight + day - start)
end
local reset = start + length - now
local current = KEYS[1] .. ':' .. start
local cur = tonumber(redis.call('GET', current) or '0')

if mode ~= 0 then
  if cur >= n then
    return {0, 0, reset, reset, now}
  end
  cur = redis.call('INCR', current)
  if cur == 1 then
    redis.call('PEXPIRE', current, reset + 1000)
  end
  return {1, n - cur, reset, 0, now}
end

-- Sliding: the previous window's count, weighed by the share of it the
-- sliding window still covers, plus the current one's.
local prev = tonumber(redis.call('GET', KEYS[1] .. ':' .. (start - w)) or '0')
local elapsed = now - start
local estimate = prev * (w - elapsed) / w + cur
if estimate + 1 > n then
  local retry
  if cur + 1 <= n and prev > 0 then
    -- Within this window, once enough of the previous one has slid out.
    retry = math.ceil(w * (1 - (n - cur - 1) / prev)) - elapsed
  else
    -- In the next window, where this one's count is the one sliding out.
    local into = 0
    if cur > 0 then
      into = math.max(0, math.ceil(w * (1 - (n - 1) / cur)))
    end
    retry = reset + into
  end
  return {0, 0, reset, math.max(retry, 1), now}
end
cur = redis.call('INCR', current)
if cur == 1 then
  redis.call('PEXPIRE', current, 2 * w + 1000)
end
local remaining = math.floor(n - (prev * (w - elapsed) / w + cur))
if remaining < 0 then
  remaining = 0
end
return {1, remaining, reset, 0, now}
