#!/usr/bin/env bash
# compare-in-ci.sh: run your matrix against a baseline committed to your repository, and fail the CI
# job when a metric got worse. docs/compare.md says how to read what it prints.
#
#   docs/compare-in-ci.sh BASELINE [FLAG...]      run ./run-tests.sh FLAG... and compare the run with
#                                                 BASELINE; exit 1 on a regression (or a failed cell or check)
#   docs/compare-in-ci.sh --check BASELINE RUN    compare a finished run folder RUN with BASELINE
#   docs/compare-in-ci.sh --save BASELINE [RUN]   keep RUN (default results/latest) as BASELINE, for
#                                                 committing: summary.json, each cell's timeline.json and JTL
#
# REGRESSION_PCT (default 10): a metric worse than the baseline's by more than this per cent, and
# outside the noise, fails the job. RATECACHE_CLI: the command to run instead of this checkout's
# ./run-tests.sh (the suite's own test of this script sets it; words split at spaces).
# Exit codes: 0 no regression, 1 a regression or a failed cell or check, 2 bad input.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
readonly ROOT
readonly PCT=${REGRESSION_PCT:-10}

say() { printf 'compare-in-ci.sh: %s\n' "$*" >&2; }
usage() {
  say "usage: $0 BASELINE [FLAG...] | --check BASELINE RUN | --save BASELINE [RUN]"
  exit 2
}

read -r -a CLI <<<"${RATECACHE_CLI:-$ROOT/run-tests.sh}"

# Copies what compare reads of a run folder, and nothing else: a baseline stays small enough to commit.
save() {
  local baseline=$1 run=$2 file relative
  if [[ ! -f $run/summary.json ]]; then
    say "$run is not a run folder (no summary.json)"
    exit 2
  fi
  if [[ -e $baseline && ! -f $baseline/summary.json ]] && [[ -n $(ls -A "$baseline") ]]; then
    say "$baseline holds files and no summary.json: it is not a baseline this script saved; give an empty or new folder"
    exit 2
  fi
  if [[ -d $baseline && $(cd "$baseline" && pwd -P) == "$(cd "$run" && pwd -P)" ]]; then
    say "$baseline is the run itself: give the baseline a folder of its own"
    exit 2
  fi
  rm -rf "$baseline"
  mkdir -p "$baseline"
  cp "$run/summary.json" "$baseline/summary.json"
  if [[ -d $run/cells ]]; then
    while IFS= read -r -d '' file; do
      relative=${file#"$run"/}
      mkdir -p "$baseline/$(dirname "$relative")"
      cp "$file" "$baseline/$relative"
    done < <(find "$run/cells" \( -name timeline.json -o -name results.jtl \) -type f -print0)
  fi
  say "saved $run as $baseline ($(du -sh "$baseline" | cut -f1)); commit it"
}

main() {
  case ${1:-} in
    "" | -h | --help)
      usage
      ;;
    --save)
      [[ $# -ge 2 && $# -le 3 ]] || usage
      local run=${3:-$ROOT/results/latest}
      # results/latest is a link: the baseline gets the folder it points at.
      save "$2" "$(cd "$run" 2>/dev/null && pwd -P || printf '%s' "$run")"
      ;;
    --check)
      [[ $# -eq 3 ]] || usage
      exec "${CLI[@]}" compare "$2" "$3" --fail-on-regression "$PCT"
      ;;
    *)
      local baseline=$1
      shift
      exec "${CLI[@]}" "$@" --baseline "$baseline" --fail-on-regression "$PCT"
      ;;
  esac
}

main "$@"
