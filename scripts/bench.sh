#!/usr/bin/env bash
# Runs the benchmark suite: installs what is missing, builds an optimised
# harness, runs the matrix, writes results/<machine>/<date>-<commit>.json,
# draws the plots and prints a summary table.
#
#   scripts/bench.sh                 default matrix (about 5 minutes on 2 cores)
#   scripts/bench.sh --full          n = 1e4..1e8, fpp 10%..0.01%, 1 GiB kernel filters
#   scripts/bench.sh --quick         tiny matrix, for tests (well under 30 s once built)
# Options:
#   --families LIST   sbbf,bloom,counting,cuckoo,scalable,cuckoo-shapes,design,sbbf-api,sbbf-generic,
#                     and the key paths sbbf-header,sbbf-typed,sbbf-binary (comma-separated)
#   --kernels LIST    SBBF kernels (default: every kernel this CPU supports)
#   --threads LIST    thread counts of the scaling runs (default 1..cores)
#   --n LIST          keys per filter (e.g. 1e4,1e6)   --fpp LIST  (e.g. 0.01,0.001)
#   --shape-n LIST    n of the cuckoo-shapes series (default: --n if given, else 1e6;
#                     --full: 1e6,1e8)
#   --design-n LIST   n of the design-space series (default 1e6; --full: 1e5,1e6,1e7,1e8)
#   --design-bpk LIST its bits/key (default 8,10,12,16)
#   --design-fpr-keys N  its absent keys for the measured FPR (default 1e6; --full: 1e7)
#   --hash MODE       excluded | included | both (default both; included at fpp 1% only)
#   --1gib            add the 1 GiB filter to the kernel benchmark
#   --repetitions N   repeat every benchmark N times; JSON keeps each run, plots use medians
#   --out DIR         write the JSON and plots into DIR (default results/<machine>)
#   --machine NAME    the results folder name (default: CPU model, cores, best kernel)
#   --no-plots        skip plot.py
#   --settle S        before the benchmarks, wait up to S seconds for the
#                     1-minute load average to fall to 0.5 (default 300 with
#                     --full, else 0): it still carries the build just made
#   --peers DIR       add the peer libraries unpacked in DIR to the design series as contenders:
#                     DIR/partitioned-filters, DIR/libfilter, DIR/fastfilter_cpp (public snapshots,
#                     each optional, each with an optional UPSTREAM_COMMIT file; docs/benchmarks.md).
#                     Compiled with their own flags (-march=native: this machine only) in the build
#                     folder $BF_BENCH_BUILD-peers; rows design-peer/<peer>/<filter>/...
#   -- ARGS           passed to blockfilter_bench (e.g. --benchmark_filter=REGEX)
# The run records the load average (/proc/loadavg) before, every 30 s during
# and after the benchmarks in the JSON ("bf_loadavg") and prints it; the
# paper refuses a primary run whose recorded load exceeds 1.5.
# Environment: BF_BENCH_BUILD (default build-bench-release).
# Exit status 2: a wrong option (a --peers DIR that holds no peer's sources
# is refused before anything is installed or built).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
start_dir=$PWD
cd "$root"

mode=default
extra=()
out=""
machine=""
plots=1
settle=""
peers=""
while [ $# -gt 0 ]; do
  case "$1" in
    --full) mode=full ;;
    --quick) mode=quick ;;
    --families) extra+=("--bf_families=$2"); shift ;;
    --kernels) extra+=("--bf_kernels=$2"); shift ;;
    --threads) extra+=("--bf_threads=$2"); shift ;;
    --n) extra+=("--bf_n=$2"); shift ;;
    --shape-n) extra+=("--bf_shape_n=$2"); shift ;;
    --design-n) extra+=("--bf_design_n=$2"); shift ;;
    --design-bpk) extra+=("--bf_design_bpk=$2"); shift ;;
    --design-fpr-keys) extra+=("--bf_design_fpr_keys=$2"); shift ;;
    --fpp) extra+=("--bf_fpp=$2"); shift ;;
    --hash) extra+=("--bf_hash=$2"); shift ;;
    --1gib) extra+=("--bf_1gib") ;;
    --repetitions) extra+=("--benchmark_repetitions=$2"); shift ;;
    --out) out=$2; shift ;;
    --machine) machine=$2; shift ;;
    --no-plots) plots=0 ;;
    --settle) settle=$2; shift ;;
    --peers)
      [ $# -ge 2 ] && [ -n "$2" ] || { echo "bench.sh: --peers needs a folder (see --help)" >&2; exit 2; }
      peers=$2; shift ;;
    --) shift; extra+=("$@"); break ;;
    -h|--help) sed -n '2,40p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

# 0. The peers' sources (--peers DIR), checked before anything is
# installed or built. What marks each peer here is what marks it in
# bench/meson.build (peer_marks), which builds what it finds.
peer_names=(partitioned-filters libfilter fastfilter_cpp)
peer_marks=(src/bloom/bloom_filter.hpp c/include/filter/block.h src/bloom/simd-block-fixed-fpp.h)
if [ -n "$peers" ]; then
  case "$peers" in /*) ;; *) peers="$start_dir/$peers" ;; esac
  [ -d "$peers" ] || { echo "bench.sh: --peers $peers: no such folder" >&2; exit 2; }
  peers=$(cd "$peers" && pwd)
  found=()
  missing=()
  for i in "${!peer_names[@]}"; do
    if [ -f "$peers/${peer_names[$i]}/${peer_marks[$i]}" ]; then
      found+=("${peer_names[$i]}")
    else
      missing+=("${peer_names[$i]} (no ${peer_names[$i]}/${peer_marks[$i]})")
    fi
  done
  if [ ${#found[@]} -eq 0 ]; then
    echo "bench.sh: --peers $peers holds none of the peers' sources: looked for" \
      "$(printf '%s/%s, ' "${peer_names[0]}" "${peer_marks[0]}" "${peer_names[1]}" "${peer_marks[1]}" \
         "${peer_names[2]}" "${peer_marks[2]}" | sed 's/, $//') (docs/benchmarks.md says how to unpack them)" >&2
    exit 2
  fi
  echo "bench.sh: peers from $peers: ${found[*]}${missing:+; missing: ${missing[*]}}"
  case " ${extra[*]} " in
    *" --bf_families="*) case " ${extra[*]} " in *" --bf_families="*design*) ;;
      *) echo "bench.sh: warning: --peers adds contenders to the design series only, which --families leaves out" >&2 ;;
    esac ;;
  esac
fi

# 1. Dependencies.
if [ -x scripts/setup.sh ]; then
  scripts/setup.sh --bench
else
  need=()
  for p in meson ninja-build pkg-config gcc g++ libxxhash-dev libbenchmark-dev libhwloc-dev python3-matplotlib git; do
    [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" = "install ok installed" ] || need+=("$p")
  done
  if [ ${#need[@]} -gt 0 ]; then
    sudo=(); [ "$(id -u)" -eq 0 ] || sudo=(sudo -n)
    echo "bench.sh: installing ${need[*]}"
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" </dev/null
  fi
fi

# 2. An optimised build of the harness.
# With --peers, a build folder of its own, where the peers are compiled.
build=${BF_BENCH_BUILD:-build-bench-release}
[ -z "$peers" ] || build="$build-peers"
log=$(mktemp)
if [ ! -f "$build/build.ninja" ]; then
  echo "bench.sh: configuring $build (release)"
  meson setup "$build" --buildtype=release -Db_ndebug=true -Dbench=enabled \
    -Dtests=false -Dtools=false -Dexamples=false -Dbench_peers="$peers" >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
elif [ -n "$peers" ]; then
  meson configure "$build" -Dbench_peers="$peers" >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
fi
echo "bench.sh: building $build/bench/blockfilter_bench"
ninja -C "$build" -j2 bench/blockfilter_bench >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
rm -f "$log"
exe="$build/bench/blockfilter_bench"
# The peers allocate their filters with malloc (aligned_alloc); the library
# madvises its own bitsets onto huge pages. So that both sides get them,
# glibc (>= 2.35) is told to do the same for the peers' allocations; the
# run records the setting (bf_design_peers_glibc_tunables).
if [ -n "$peers" ] && [ -z "${GLIBC_TUNABLES:-}" ]; then
  export GLIBC_TUNABLES=glibc.malloc.hugetlb=1
fi

# 3. Where the results go: results/<machine>/, named by
# scripts/machine-name.sh (CPU model, cores, best SBBF kernel).
auto_machine=0
if [ -z "$machine" ]; then
  auto_machine=1
  machine=$(scripts/machine-name.sh)
fi
[ -n "$out" ] || out="results/$machine"
mkdir -p "$out"
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo nogit)
git diff --quiet HEAD -- 2>/dev/null || commit="$commit-dirty"
suffix=""; [ "$mode" = default ] || suffix="-$mode"
json="$out/$(date -u +%Y-%m-%dT%H%MZ)-$commit$suffix.json"
# A second run in the same minute (short --families runs) must not
# overwrite the first's files: its stamp gets the seconds too.
if [ -e "$json" ] || [ -e "$json.part" ]; then
  json="$out/$(date -u +%Y-%m-%dT%H%M%SZ)-$commit$suffix.json"
fi

# The 1-minute load average decays with a 60 s time constant, so right after
# the build it still reads the compiler: a full run (the paper's primary one
# must record a quiet machine) waits for it to settle, and says so.
[ -n "$settle" ] || { settle=0; [ "$mode" = full ] && settle=300; }
waited=0
while [ "$waited" -lt "$settle" ] &&
      awk '{ exit !($1 > 0.5) }' /proc/loadavg; do
  [ "$waited" = 0 ] && echo "bench.sh: waiting up to ${settle} s for the load average to settle ($(cut -d' ' -f1-3 /proc/loadavg))"
  sleep 10; waited=$((waited + 10))
done
[ "$waited" = 0 ] || echo "bench.sh: waited ${waited} s; load average now $(cut -d' ' -f1-3 /proc/loadavg)"

echo "bench.sh: $mode matrix, machine $machine, writing $json"
modeflag=()
[ "$mode" = default ] || modeflag=("--bf_$mode")
color=false; [ -t 1 ] && color=true
# Progress: one "[done/total, elapsed]" line per benchmark on stderr.
"$exe" "${modeflag[@]}" "${extra[@]}" --benchmark_out="$json.part" --benchmark_out_format=json \
  --benchmark_color=$color
mv "$json.part" "$json"
# The folder's kernel suffix is read from /proc/cpuinfo; the library's own
# dispatch (first of the supported kernels, best first) must agree.
if [ "$auto_machine" = 1 ]; then
  lib_best=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["context"].get("bf_kernels_supported","").split(",")[0])' "$json" 2>/dev/null || true)
  [ -z "$lib_best" ] || [ "$machine" = "${machine%-*}-$lib_best" ] ||
    echo "bench.sh: warning: the library's best kernel is $lib_best, the folder name says ${machine##*-}" >&2
fi

# 4. Plots and the summary.
if [ "$plots" = 1 ]; then
  /usr/bin/python3 scripts/plot.py "$json" --outdir "$out"
fi
/usr/bin/python3 scripts/plot.py "$json" --summary
echo "bench.sh: results in $json"
