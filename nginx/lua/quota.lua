-- A client's quota (--quota, or its tier's quota= in --tiers) beside its
-- burst limit, counted for the whole fleet in Redis by one atomic script
-- (lua/quota_window.lua). Called in the access phase
-- (snippets/shared/quota.conf), after limit_req's preaccess, so that a request
-- the burst limit rejects costs no quota: at the edge, or with --limit-scope
-- misses in the back end, behind the edge cache. When Redis fails or is slower
-- than its timeout, each tier that counts counts alone in a fixed window at
-- quota/N (N edges; the whole quota in the one back end): fail open with a
-- ceiling, never closed.
-- https://github.com/openresty/lua-nginx-module#access_by_lua_block

local redis_script = require "redis_script"

local _M = {}

local conf, script

-- c: redis {host, port, timeout (ms)}, script (the path of quota_window.lua),
-- mode (0 sliding, 1 fixed, 2 calendar: every tier's), status, key, tier and
-- exempt (names of the variables that hold the client's key, its tier, and
-- whether an --allow network exempts it), default_tier (the tier without a
-- tier variable) and tiers (name -> limit, window_ms, name (the policy's, as
-- RateLimit-Policy names it), fallback_limit (limit / N), problem (the
-- rejection's body)); a tier not in tiers has no quota.
function _M.configure(c)
  conf = c
  script = redis_script.load(c.script)
end

-- The edge's own count while Redis fails: a fixed window in this edge's
-- shared memory, the window's key expiring with it.
local function count_here(key, tier)
  local now = ngx.now() * 1000
  local window = math.floor(now / tier.window_ms)
  local reset = (window + 1) * tier.window_ms - now
  local dict = ngx.shared.quota_fallback
  local name = key .. ":" .. window
  if (dict:get(name) or 0) >= tier.fallback_limit then
    return false, 0, reset, reset, now
  end
  local count = dict:incr(name, 1, 0, math.ceil(reset / 1000) + 1)
  return true, tier.fallback_limit - (count or tier.fallback_limit), reset, 0, now
end

function _M.check()
  local v = ngx.var
  -- Once a request: not again in a subrequest.
  if ngx.is_subrequest or v.quota_status ~= "" then
    return
  end
  if conf.exempt and v[conf.exempt] == "1" then
    v.quota_status = "EXEMPT"
    return
  end
  local key = v[conf.key]
  -- The key's tier, as the per-client limit and RateLimit-Policy take it.
  local tier = conf.tiers[conf.tier and v[conf.tier] or conf.default_tier]
  if key == nil or key == "" or tier == nil then
    v.quota_status = "NONE"
    return
  end
  local admitted, remaining, reset, retry, at
  local res, err = redis_script.run(conf.redis, script, "ratecache:quota:" .. key, tier.limit, tier.window_ms,
                                    conf.mode)
  if res then
    admitted, remaining, reset, retry, at = res[1] == 1, res[2], res[3], res[4], res[5]
    v.quota_status = admitted and "PASSED" or "REJECTED"
  else
    ngx.log(ngx.WARN, "quota: Redis at ", conf.redis.host, ":", conf.redis.port, " failed (", err,
            "): this tier counts the request against its own share, ", tier.fallback_limit)
    admitted, remaining, reset, retry, at = count_here(key, tier)
    v.quota_status = admitted and "FALLBACK" or "FALLBACK_REJECTED"
  end
  -- RateLimit (draft-ietf-httpapi-ratelimit-headers-11): what is left, and
  -- the seconds until the window that counts it ends.
  v.quota_ratelimit = '"' .. tier.name .. '";r=' .. remaining .. ';t=' .. math.ceil(reset / 1000)
  -- For the log: when the count was taken (Redis's ms), what the client was
  -- told was left, and whose count it was, as a fingerprint: the key is a
  -- credential, which no log holds, but a run's windows are counted per key.
  v.quota_at = string.format("%d", math.floor(at))
  v.quota_remaining = remaining
  v.quota_of = string.sub(ngx.md5(key), 1, 12)
  if admitted then
    return
  end
  ngx.status = conf.status
  ngx.header["Retry-After"] = math.max(1, math.ceil(retry / 1000))
  -- Not stored by the edge cache (with --limit-scope misses the edge is in
  -- front), nor by the client's: the next request must ask again.
  ngx.header["Cache-Control"] = "no-store"
  ngx.header["Content-Type"] = "application/problem+json"
  ngx.say(tier.problem)
  return ngx.exit(ngx.HTTP_OK)
end

return _M
