#!/usr/bin/env bash
# run-tests.sh: measure what rate limiting and caching in front of an HTTP API do.
#
#   ./run-tests.sh [FLAGS]      run the stack and a JMeter plan, results in results/<timestamp>/
#   ./run-tests.sh test         install what is missing, then run every test (./mvnw -B verify)
#   ./run-tests.sh peak         peak throughput of each path with wrk, as ratios to nginx's own
#   ./run-tests.sh replay LOG   your access log through the matrix, each client from its own address
#   ./run-tests.sh advise LOG   limits and cache lifetimes for your access log, from the model
#   ./run-tests.sh up           start the stack and keep it up (Ctrl-C, or ./run-tests.sh down, stops it)
#   ./run-tests.sh --help       every flag
#
# This script only installs and builds; the Java command line it hands over to (suite/) starts,
# measures and stops every process, so that logic is tested like the rest of the code.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
readonly ROOT
readonly SUITE_JAR="$ROOT/suite/target/suite-all.jar"
readonly NGINX_PACKAGES=(nginx-light libnginx-mod-http-cache-purge libnginx-mod-http-js libnginx-mod-http-lua)
readonly PURGE_MODULE=/usr/lib/nginx/modules/ngx_http_cache_purge_module.so
readonly NJS_MODULE=/usr/lib/nginx/modules/ngx_http_js_module.so
readonly LUA_MODULE=/usr/lib/nginx/modules/ngx_http_lua_module.so
# The Redis client the edges' shared limit uses (--fleet-limit shared), unpacked from Debian's
# lua-nginx-redis: installing that package would pull in the nginx-extras flavour in place of ours.
readonly REDIS_LUA="$ROOT/.tools/lua/nginx/redis.lua"
# The config linter the tests run, from PyPI, in a virtualenv of the suite's own.
readonly GIXY_VERSION=0.2.59
readonly GIXY_HOME="$ROOT/.tools/gixy"

say() { printf 'run-tests.sh: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

is_root() { [[ $(id -u) -eq 0 ]]; }

apt_updated=false
apt_install() {
  if ! is_root || ! command -v apt-get >/dev/null 2>&1; then
    die "missing: $*. Install it with: sudo apt-get install -y $*"
  fi
  if [[ $apt_updated == false ]]; then
    say "apt-get update (once)"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    apt_updated=true
  fi
  say "installing $* from Debian's packages"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

need_java() {
  local version
  if ! command -v java >/dev/null 2>&1; then
    apt_install openjdk-17-jdk-headless
  fi
  version=$(java -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {print $2}')
  if [[ ${version%%.*} -lt 17 ]]; then
    die "Java 17 or newer is needed (found ${version}). Install it with: sudo apt-get install -y openjdk-17-jdk-headless"
  fi
}

need_nginx() {
  if ! command -v nginx >/dev/null 2>&1 && [[ ! -x /usr/sbin/nginx ]]; then
    apt_install "${NGINX_PACKAGES[@]}"
  elif [[ ! -f $PURGE_MODULE ]]; then
    if is_root && command -v apt-get >/dev/null 2>&1; then
      apt_install libnginx-mod-http-cache-purge
    else
      say "note: edge-cache PURGE is off (install libnginx-mod-http-cache-purge to turn it on)"
    fi
  fi
  if [[ ! -f $NJS_MODULE ]]; then
    if is_root && command -v apt-get >/dev/null 2>&1; then
      apt_install libnginx-mod-http-js
    else
      say "note: Age on edge-cache hits, RFC 9111 freshness and invalidation on writes are off (install libnginx-mod-http-js to turn them on)"
    fi
  fi
}

# The edges' shared per-client limit (--fleet-limit shared) runs in Debian's nginx Lua module and
# talks to Redis through lua-nginx-redis's one Lua file.
need_lua() {
  if [[ ! -f $LUA_MODULE ]]; then
    if is_root && command -v apt-get >/dev/null 2>&1; then
      apt_install libnginx-mod-http-lua
    else
      say "note: --fleet-limit shared is off (install libnginx-mod-http-lua to turn it on)"
      return 0
    fi
  fi
  if [[ ! -f $REDIS_LUA ]]; then
    local tmp
    tmp=$(mktemp -d)
    say "unpacking lua-nginx-redis (Debian's package) into .tools/lua"
    if [[ $apt_updated == false ]] && is_root; then
      DEBIAN_FRONTEND=noninteractive apt-get update -qq
      apt_updated=true
    fi
    (cd "$tmp" && apt-get download -qq lua-nginx-redis >/dev/null) || { rm -rf "$tmp"; die "cannot download lua-nginx-redis from Debian's packages"; }
    dpkg-deb -x "$tmp"/lua-nginx-redis_*.deb "$tmp/x"
    mkdir -p "$(dirname "$REDIS_LUA")"
    cp "$tmp/x/usr/share/lua/5.1/nginx/redis.lua" "$REDIS_LUA"
    rm -rf "$tmp"
  fi
}

# wrk (Debian's package) drives ./run-tests.sh peak and its test; HAProxy's cache is measured beside the edge's.
need_peak_tools() {
  local missing=()
  command -v wrk >/dev/null 2>&1 || missing+=(wrk)
  command -v haproxy >/dev/null 2>&1 || [[ -x /usr/sbin/haproxy ]] || missing+=(haproxy)
  if [[ ${#missing[@]} -gt 0 ]]; then
    apt_install "${missing[@]}"
  fi
}

# Build when a jar is missing or any source is newer than it; a warm rebuild is skipped entirely.
build_if_stale() {
  local stale=false
  for artifact in "$SUITE_JAR" "$ROOT/appserver/target/appserver.jar" "$ROOT/jmeter/target/jmeter/bin/ApacheJMeter.jar"; do
    [[ -f $artifact ]] || stale=true
  done
  if [[ $stale == false ]] && [[ -n $(find "$ROOT/pom.xml" "$ROOT"/*/pom.xml "$ROOT"/*/src -newer "$SUITE_JAR" -print -quit 2>/dev/null) ]]; then
    stale=true
  fi
  if [[ $stale == true ]]; then
    say "building (./mvnw -B -q package -DskipTests)"
    (cd "$ROOT" && ./mvnw -B -q package -DskipTests)
  fi
}

need_gixy() {
  if [[ -x $GIXY_HOME/bin/gixy ]] && "$GIXY_HOME/bin/gixy" --version 2>/dev/null | grep -q "$GIXY_VERSION"; then
    return
  fi
  command -v python3 >/dev/null 2>&1 || apt_install python3
  rm -rf "$GIXY_HOME"
  if ! python3 -m venv "$GIXY_HOME" >/dev/null 2>&1; then
    apt_install python3-venv
    rm -rf "$GIXY_HOME"
    python3 -m venv "$GIXY_HOME"
  fi
  say "installing gixy-ng $GIXY_VERSION from PyPI into .tools/gixy"
  "$GIXY_HOME/bin/pip" install --quiet --disable-pip-version-check "gixy-ng==$GIXY_VERSION"
}

# The GUI test opens JMeter in a virtual display, finds its window and keeps a screenshot;
# the acceptance test opens the report's index.html in headless Chromium and keeps a screenshot.
need_gui_tools() {
  local missing=()
  command -v Xvfb >/dev/null 2>&1 || missing+=(xvfb)
  command -v xwininfo >/dev/null 2>&1 || missing+=(x11-utils)
  command -v xwd >/dev/null 2>&1 || missing+=(x11-apps)
  command -v xdotool >/dev/null 2>&1 || missing+=(xdotool)
  # Debian's imagemagick provides convert-im6.q16; a bare "convert" may be something else.
  command -v convert-im6.q16 >/dev/null 2>&1 || missing+=(imagemagick)
  command -v chromium >/dev/null 2>&1 || missing+=(chromium)
  if [[ ${#missing[@]} -gt 0 ]]; then
    apt_install "${missing[@]}"
  fi
}

# The origin's app-cache tests and the app-cache cells (--app-cache redis, --matrix caches) start
# their own redis-server (Debian's package), on a port of their own, and stop it by its PID; never
# the system's service. REDIS_SERVER_BIN names another build.
need_redis() {
  [[ -n ${REDIS_SERVER_BIN:-} ]] && return
  command -v redis-server >/dev/null 2>&1 || [[ -x /usr/bin/redis-server ]] || apt_install redis-server
}

# Whether the arguments ask for the Redis app cache: --app-cache redis, the caches matrix, or
# peak's comparison of the edge with the app's cache (--app-path).
wants_redis() {
  local previous=""
  for arg in "$@"; do
    if [[ $arg == --app-cache=redis || $arg == --matrix=caches || $arg == --app-path* ]] \
      || [[ $previous == --app-cache && $arg == redis ]] || [[ $previous == --matrix && $arg == caches ]]; then
      return 0
    fi
    previous=$arg
  done
  return 1
}

install_prerequisites() {
  need_java
  need_nginx
  need_lua
}

run_tests() {
  install_prerequisites
  need_gixy
  need_gui_tools
  need_peak_tools
  need_redis
  cd "$ROOT"
  exec ./mvnw -B verify "$@"
}

main() {
  if [[ ${1:-} == test ]]; then
    shift
    run_tests "$@"
  fi
  install_prerequisites
  if [[ ${1:-} == peak ]]; then
    need_peak_tools
  fi
  if wants_redis "$@"; then
    need_redis
  fi
  build_if_stale
  # exec: the Java process owns every child it starts and stops them all on exit or Ctrl-C.
  exec java -Dratecache.home="$ROOT" -jar "$SUITE_JAR" "$@"
}

main "$@"
