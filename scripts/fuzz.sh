#!/usr/bin/env bash
# Runs every libFuzzer target for a while and reports, per target, the
# executions run and the crashes found.
#
#   ./scripts/fuzz.sh [seconds]       default 60 s per target, one at a time
#   FUZZ_TARGETS="filter_load cli" ./scripts/fuzz.sh 300
#
# Builds build/fuzz with clang, -fsanitize=fuzzer,address,undefined. Each
# target starts from its committed seeds (tests/fuzz/corpus/<target>) and
# keeps what it finds new in tests/fuzz/corpus-new/<target> (git-ignored);
# to promote an entry, minimise it and copy it into the committed corpus.
# Crash inputs go to build/fuzz/crashes/<target>/; replay one
# with build/fuzz/tests/fuzz/fuzz_<target> <file>. Exits non-zero if any
# target crashed.
set -uo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
case $secs in '' | *[!0-9]*) echo "usage: $0 [seconds per target]" >&2; exit 2 ;; esac
dir=build/fuzz
all=$(sed 's/#.*//' tests/fuzz/targets.txt | xargs) # the one list of targets
targets=${FUZZ_TARGETS:-$all}

mkdir -p build
if [ ! -f "$dir/build.ninja" ]; then
  rm -rf "$dir"
  CC=clang meson setup "$dir" -Dfuzz=true -Db_sanitize=address,undefined -Db_lundef=false \
    -Dtests=false -Dbench=disabled -Dexamples=false -Dbuildtype=debugoptimized \
    >"$dir.setup.log" 2>&1 || { cat "$dir.setup.log"; exit 2; }
fi
ninja -C "$dir" -j 2 >"$dir.build.log" 2>&1 || { tail -n 40 "$dir.build.log"; exit 2; }

export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
summary=()
crashed=0
for t in $targets; do
  exe=$dir/tests/fuzz/fuzz_$t
  [ -x "$exe" ] || { echo "no target $t"; crashed=1; continue; }
  new=tests/fuzz/corpus-new/$t
  art=$dir/crashes/$t
  mkdir -p "$new" "$art"
  log=$dir/fuzz-$t.log
  extra=()
  [ "$t" = cli ] && extra+=(-close_fd_mask=3) # the tool's own output
  echo "=== $t: ${secs}s"
  "$exe" -max_total_time="$secs" -max_len=8192 -rss_limit_mb=4096 -timeout=20 \
    -print_final_stats=1 -artifact_prefix="$art/" "${extra[@]}" \
    "$new" "tests/fuzz/corpus/$t" >"$log" 2>&1
  rc=$?
  execs=$(awk '/stat::number_of_executed_units/{print $2}' "$log" | tail -1)
  ncrash=$(find "$art" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
  if [ "$rc" -ne 0 ]; then
    crashed=1
    grep -E 'ERROR|invariant broken|runtime error|SUMMARY' "$log" | head -n 5
  fi
  line=$(printf '%-18s executions %-10s crashes %s (exit %d)' "$t" "${execs:-?}" "$ncrash" "$rc")
  echo "$line"
  summary+=("$line")
done
echo
echo "=== summary (${secs}s per target; new corpus in tests/fuzz/corpus-new/)"
printf '%s\n' "${summary[@]}"
exit $crashed
