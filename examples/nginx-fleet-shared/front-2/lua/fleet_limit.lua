-- The per-client limit shared by a fleet of edges (--fleet-limit shared):
-- nginx's limit_req, with each client's bucket kept in one Redis for every
-- edge instead of in each edge's memory. Called from the rewrite phase
-- (snippets/front/fleet-limit.conf), so that when Redis fails or is slower
-- than its timeout the edge's own limit_req zones, at rate/N and burst/N,
-- still count the request in the preaccess phase that follows: fail open with
-- a ceiling, never closed.
-- https://github.com/openresty/lua-nginx-module#rewrite_by_lua_block

-- OpenResty and LuaRocks name the Redis client resty.redis; Debian's
-- lua-nginx-redis package installs the same library as nginx.redis.
local redis
do
  local ok, module = pcall(require, "resty.redis")
  redis = ok and module or require("nginx.redis")
end

local _M = {}

local conf, script, sha

local function hex(bytes)
  return (bytes:gsub(".", function(c) return string.format("%02x", c:byte()) end))
end

-- c: redis {host, port, timeout (ms)}, script (the path of leaky_bucket.lua),
-- status (the rejection's), key / tier / exempt (names of the variables that
-- hold the client's key, its tier and whether an --allow network exempts it),
-- default_tier (the tier without a tier variable) and tiers (name -> rate,
-- burst and delay in nginx's units, as leaky_bucket.lua takes them).
function _M.configure(c)
  conf = c
  local f = assert(io.open(c.script, "rb"))
  script = f:read("*a")
  f:close()
  sha = hex(ngx.sha1_bin(script))
end

local function fall_back(err)
  ngx.var.fleet_limit = "FALLBACK"
  ngx.log(ngx.WARN, "fleet limit: Redis at ", conf.redis.host, ":", conf.redis.port,
          " failed (", err, "): this edge's own split limit counts the request")
end

function _M.limit()
  local v = ngx.var
  -- Once a request: not again in a subrequest, nor after a jump to a named
  -- location, which runs the rewrite phase again.
  if ngx.is_subrequest or v.fleet_limit ~= "" then
    return
  end
  if conf.exempt and v[conf.exempt] == "1" then
    v.fleet_limit = "EXEMPT"
    return
  end
  local key = v[conf.key]
  if key == nil or key == "" then
    v.fleet_limit = "NONE"
    return
  end
  local name = conf.tier and v[conf.tier] or conf.default_tier
  local tier = conf.tiers[name]
  local red = redis:new()
  -- One timeout for connect, send and read: Debian's lua-nginx-redis (0.27)
  -- predates set_timeouts.
  red:set_timeout(conf.redis.timeout)
  local ok, err = red:connect(conf.redis.host, conf.redis.port)
  if not ok then
    return fall_back(err)
  end
  local bucket = "ratecache:fleet:" .. name .. ":" .. key
  local res
  res, err = red:evalsha(sha, 1, bucket, tier.rate, tier.burst, tier.delay)
  if not res and err and err:find("NOSCRIPT", 1, true) then
    -- The first call after Redis started: EVAL loads the script for the rest.
    res, err = red:eval(script, 1, bucket, tier.rate, tier.burst, tier.delay)
  end
  if not res then
    red:close()
    return fall_back(err)
  end
  red:set_keepalive(60000, 64)
  if res < 0 then
    v.fleet_limit = "REJECTED"
    return ngx.exit(conf.status)
  end
  if res > 0 then
    v.fleet_limit = "DELAYED"
    ngx.sleep(res / 1000)
  else
    v.fleet_limit = "PASSED"
  end
end

return _M
