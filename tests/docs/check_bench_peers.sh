#!/usr/bin/env bash
# scripts/bench.sh --peers DIR refuses, at once and with exit status 2, a
# DIR that is not a folder, a DIR holding none of the three peers' sources
# (naming each file it looked for), and --peers without a folder; and
# installs, configures and builds nothing before it does (no build folder
# appears). CI has no peer sources: nothing here needs them.
#
#   check_bench_peers.sh SOURCE_ROOT WORK_DIR
set -u
src=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
bench="$src/scripts/bench.sh"
fails=0

# expect NAME STATUS PATTERN... -- ARGS...: runs bench.sh with ARGS, checks
# its status and that its stderr holds every PATTERN (fixed strings).
expect() {
  local name=$1 want=$2
  shift 2
  local pats=()
  while [ "$1" != "--" ]; do pats+=("$1"); shift; done
  shift
  local build="$work/build-$name"
  local err rc
  err=$(cd "$work" && BF_BENCH_BUILD="$build" "$bench" "$@" 2>&1 >/dev/null </dev/null)
  rc=$?
  local ok=1
  [ "$rc" = "$want" ] || { ok=0; echo "FAIL $name: exit status $rc, expected $want"; }
  for p in "${pats[@]}"; do
    case "$err" in *"$p"*) ;; *) ok=0; echo "FAIL $name: stderr lacks '$p'" ;; esac
  done
  if [ -e "$build" ] || [ -e "$build-peers" ]; then ok=0; echo "FAIL $name: a build folder was made"; fi
  [ "$ok" = 1 ] && echo "ok   $name" || { fails=$((fails + 1)); echo "     stderr: $err"; }
}

expect missing-dir 2 "no such folder" "$work/not-there" -- --peers "$work/not-there" --no-plots
# A relative DIR is taken from the caller's folder, not the project's.
expect missing-relative 2 "no such folder" "$work/not-there-either" -- --peers not-there-either --no-plots

mkdir -p "$work/empty"
expect no-peer 2 "holds none of the peers' sources" \
  partitioned-filters/src/bloom/bloom_filter.hpp libfilter/c/include/filter/block.h \
  fastfilter_cpp/src/bloom/simd-block-fixed-fpp.h -- --peers "$work/empty" --no-plots

# The peers' folders without their sources (an unpacked archive one level
# too deep, say) are no peers either.
mkdir -p "$work/shallow/partitioned-filters/partitioned-filters-main/src/bloom" \
  "$work/shallow/libfilter/c" "$work/shallow/fastfilter_cpp/src"
touch "$work/shallow/partitioned-filters/partitioned-filters-main/src/bloom/bloom_filter.hpp" \
  "$work/shallow/libfilter/UPSTREAM_COMMIT"
expect folders-without-sources 2 "holds none of the peers' sources" "libfilter/c/include/filter/block.h" \
  -- --peers "$work/shallow" --no-plots

expect no-argument 2 "--peers needs a folder" -- --peers
expect empty-argument 2 "--peers needs a folder" -- --peers ""

[ "$fails" = 0 ] || { echo "$fails check(s) failed"; exit 1; }
echo "all bench.sh --peers option checks passed"
