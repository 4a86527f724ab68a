-- One Redis script, run from the edge in one atomic step (EVALSHA): what the
-- fleet's shared limit (fleet_limit.lua) and the quota (quota.lua) share.
-- https://redis.io/docs/latest/commands/evalsha/

-- OpenResty and LuaRocks name the Redis client resty.redis; Debian's
-- lua-nginx-redis package installs the same library as nginx.redis.
local redis
do
  local ok, module = pcall(require, "resty.redis")
  redis = ok and module or require("nginx.redis")
end

local _M = {}

local function hex(bytes)
  return (bytes:gsub(".", function(c) return string.format("%02x", c:byte()) end))
end

-- The script at path, read once when nginx starts: its text and its SHA-1.
function _M.load(path)
  local f = assert(io.open(path, "rb"))
  local text = f:read("*a")
  f:close()
  return { text = text, sha = hex(ngx.sha1_bin(text)) }
end

-- Runs script on the Redis at r {host, port, timeout (ms)} with one key and
-- the arguments after it; returns its result, or nil and the error.
function _M.run(r, script, key, ...)
  local red = redis:new()
  -- One timeout for connect, send and read: Debian's lua-nginx-redis (0.27)
  -- predates set_timeouts.
  red:set_timeout(r.timeout)
  local ok, err = red:connect(r.host, r.port)
  if not ok then
    return nil, err
  end
  local res
  res, err = red:evalsha(script.sha, 1, key, ...)
  if not res and err and err:find("NOSCRIPT", 1, true) then
    -- The first call after Redis started: EVAL loads the script for the rest.
    res, err = red:eval(script.text, 1, key, ...)
  end
  if not res then
    red:close()
    return nil, err
  end
  red:set_keepalive(60000, 64)
  return res
end

return _M
