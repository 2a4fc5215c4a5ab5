#!/usr/bin/env bash
# Benchmarks the Redis module: builds it (release), starts its own
# redis-server on a free loopback port, and runs scripts/redis_bench.py:
# BF/CF commands at pipeline 1 and 64 beside plain SET/EXISTS on the same
# server (interleaved, repeated, medians), and MEMORY USAGE per item after
# 10^6 and 10^7 items at 1 % and 0.1 %. Writes
# results/<machine>/redis-<date>-<commit>.json and .md, prints the tables.
#
#   ./scripts/redis-bench.sh [--reps N] [--quick] [--machine NAME] [--sizes N,...]
#                            [--peer MODULE.so [--peer-name NAME]] [--module-args "ARG VALUE ..."]
#
# --quick: 10^5 and 10^6 items, shorter runs (a check that it works).
# --sizes: the memory rows' item counts instead (e.g. 1e6).
# --peer: a second server with another module of RedisBloom's commands
#   (RedisBloom itself, built elsewhere) runs the same commands and memory
#   rows in the same interleaved repetitions: the two side by side.
# --module-args: this module's load-time arguments (e.g. other defaults).
set -euo pipefail
cd "$(dirname "$0")/.."

reps=5
quick=()
extra=()
machine=""
while [ $# -gt 0 ]; do
  case $1 in
    --reps) reps=$2; shift ;;
    --quick) quick=(--quick) ;;
    --machine) machine=$2; shift ;;
    --sizes|--peer|--peer-name|--module-args) extra+=("$1" "$2"); shift ;;
    *) echo "usage: $0 [--reps N] [--quick] [--machine NAME] [--sizes N,...] [--peer MODULE.so [--peer-name NAME]] [--module-args ARGS]" >&2; exit 2 ;;
  esac
  shift
done

./scripts/setup.sh >/dev/null

build=build/redis-bench
mkdir -p "$(dirname "$build")"
if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" -Dbuildtype=release -Dtests=false -Dbench=disabled -Dexamples=false \
    -Dtools=false -Dredis=enabled >"$build.setup.log" 2>&1 || { cat "$build.setup.log"; exit 1; }
fi
ninja -C "$build" >"$build.build.log" 2>&1 || { tail -n 40 "$build.build.log"; exit 1; }

# The machine's folder, named as for scripts/bench.sh.
[ -n "$machine" ] || machine=$(scripts/machine-name.sh)
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo nogit)
git diff --quiet HEAD -- 2>/dev/null || commit="$commit-dirty"
out="results/$machine"
mkdir -p "$out"
prefix="$out/redis-$(date -u +%Y-%m-%dT%H%MZ)-$commit"
[ ${#quick[@]} -eq 0 ] || prefix="$prefix-quick"

echo "redis-bench.sh: machine $machine, writing $prefix.json"
/usr/bin/python3 scripts/redis_bench.py --module "$build/redis/blockfilter-redis.so" \
  --lib "$build/lib/libblockfilter.so" --out "$prefix" --machine "$machine" --commit "$commit" \
  --reps "$reps" "${quick[@]}" "${extra[@]}"
