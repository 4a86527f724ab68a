-- The per-client limit shared by a fleet of edges (--fleet-limit shared):
-- nginx's limit_req, with each client's bucket kept in one Redis for every
-- edge instead of in each edge's memory. Called from the rewrite phase
-- (snippets/front/fleet-limit.conf), so that when Redis fails or is slower
-- than its timeout the edge's own limit_req zones, at rate/N and burst/N,
-- still count the request in the preaccess phase that follows: fail open with
-- a ceiling, never closed.
-- https://github.com/openresty/lua-nginx-module#rewrite_by_lua_block

local redis_script = require "redis_script"

local _M = {}

local conf, script

-- c: redis {host, port, timeout (ms)}, script (the path of leaky_bucket.lua),
-- status (the rejection's), key / tier / exempt (names of the variables that
-- hold the client's key, its tier and whether an --allow network exempts it),
-- default_tier (the tier without a tier variable) and tiers (name -> rate,
-- burst and delay in nginx's units, as leaky_bucket.lua takes them).
function _M.configure(c)
  conf = c
  script = redis_script.load(c.script)
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
  local bucket = "ratecache:fleet:" .. name .. ":" .. key
  local res, err = redis_script.run(conf.redis, script, bucket, tier.rate, tier.burst, tier.delay)
  if not res then
    return fall_back(err)
  end
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
