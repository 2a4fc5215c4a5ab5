#!/usr/bin/env bash
# Builds and runs every test of blockfilter, exits non-zero on any failure.
# The last line sums every suite: "N passed, N failed".
#
#   ./scripts/test.sh            everything (about 20 minutes on 2 cores)
#   BLOCKFILTER_KERNEL=avx2 ./scripts/test.sh
#                                the native suites with only that kernel
#   BF_TEST_LARGE=1 ./scripts/test.sh
#                                also the long stress tests and >4 GiB filters
#
# Steps: native build (-Werror) and the suite once per supported x86 kernel;
# the suite under ASan+UBSan (gcc), which includes the fuzz-corpus replay;
# the concurrency test under ThreadSanitizer; the CLI under valgrind
# memcheck; install into a temporary prefix and build an example against
# the installed pkg-config file and a CMake project against the CMake
# package, and run docs/adopting.md; the one-file amalgamation built by
# gcc, clang and aarch64 gcc with the core tests against it; aarch64 cross build with the plain-C tests
# under qemu, once with NEON forced and once with scalar; s390x (big-endian)
# cross build with the plain-C tests under qemu (scalar, the only kernel
# there): Parquet bitsets and native images byte for byte on a big-endian
# host; the Python package and its notebooks (scripts/python-test.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
mkdir -p build

./scripts/setup.sh || { echo "setup failed"; echo "0 passed, 1 failed"; exit 1; }

passed=0
failed=0
failures=()
jobs=$(nproc 2>/dev/null || echo 2)
large=false
[ "${BF_TEST_LARGE:-0}" = 1 ] && large=true

# Each step's heading carries the seconds since the start, so a slow step
# shows in the log (CI's budget for the whole script is about 20 minutes).
log() { printf '\n=== [%ds] %s\n' "$SECONDS" "$*"; }

# Adds one step's result by itself (a build, a script).
step_result() { # name rc
  if [ "$2" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); failures+=("$1"); fi
}

# Runs a script that prints "ok ..." lines and ends with "N passed, N
# failed", shows what is not "ok", and adds its counts.
counted_step() { # name command...
  local name=$1 out rc ok fail
  shift
  out=$("$@" 2>&1)
  rc=$?
  printf '%s\n' "$out" | grep -vE '^ok ' | tail -n 40
  ok=$(printf '%s\n' "$out" | awk '/^[0-9]+ passed, [0-9]+ failed$/{print $1}' | tail -1)
  fail=$(printf '%s\n' "$out" | awk '/^[0-9]+ passed, [0-9]+ failed$/{print $3}' | tail -1)
  ok=${ok:-0}
  fail=${fail:-0}
  if [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then fail=1; fi
  passed=$((passed + ok))
  failed=$((failed + fail))
  [ "$fail" -eq 0 ] || failures+=("$name")
  echo "--- $name: $ok passed, $fail failed"
}

# Runs `meson test` and adds its per-test counts.
meson_suite() { # name builddir [meson test args...]
  local name=$1 dir=$2 out rc ok fail
  shift 2
  out=$(meson test -C "$dir" --print-errorlogs --num-processes "$jobs" "$@" 2>&1)
  rc=$?
  printf '%s\n' "$out" | grep -vE '^ *[0-9]+/[0-9]+ .* OK ' | tail -n 40
  ok=$(printf '%s\n' "$out" | awk '/^Ok:/{print $2}' | tail -1)
  fail=$(printf '%s\n' "$out" | awk '/^(Fail|Timeout|Unexpected Pass):/{s+=$NF} END{print s+0}')
  ok=${ok:-0}
  if [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then fail=1; fi # build or runner error
  if [ "$ok" -eq 0 ] && [ "$fail" -eq 0 ]; then fail=1; fi # ran nothing
  passed=$((passed + ok))
  failed=$((failed + fail))
  [ "$fail" -eq 0 ] || failures+=("$name")
  echo "--- $name: $ok passed, $fail failed"
}

build() { # name builddir [meson setup args...]
  local name=$1 dir=$2
  shift 2
  log "build: $name"
  if [ ! -f "$dir/build.ninja" ]; then
    meson setup "$dir" -Dwerror=true "$@" >"$dir.setup.log" 2>&1 ||
      { cat "$dir.setup.log"; step_result "configure $name" 1; return 1; }
  fi
  if ! ninja -C "$dir" -j "$jobs" >"$dir.build.log" 2>&1; then
    tail -n 60 "$dir.build.log"
    step_result "build $name" 1
    return 1
  fi
}

# 1. Native, every supported x86 kernel (or the forced one).
if build native build/test-native -Dbench=disabled -Dlarge_tests=$large; then
  if [ -n "${BLOCKFILTER_KERNEL:-}" ]; then
    kernels=$BLOCKFILTER_KERNEL
  else
    kernels=$(build/test-native/tests/core/list_kernels)
  fi
  for k in $kernels; do
    log "native suite, kernel $k"
    meson_suite "native/$k" build/test-native --setup "$k"
  done
fi

# 2. AddressSanitizer + UndefinedBehaviorSanitizer: the whole suite, with
#    the fuzz-corpus replay, under the default kernel and under scalar.
if build asan build/test-asan -Db_sanitize=address,undefined -Db_lundef=false \
     -Dbench=disabled -Dbuildtype=debug -Doptimization=1; then
  export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
  log "ASan+UBSan suite"
  meson_suite "asan" build/test-asan
  if [ -z "${BLOCKFILTER_KERNEL:-}" ]; then
    meson_suite "asan/scalar" build/test-asan --setup scalar
  fi
  unset UBSAN_OPTIONS ASAN_OPTIONS
fi

# (steps 3-6 are added below as their parts land)

# 3. aarch64: cross build, plain-C tests under qemu-user, NEON then scalar.
#    (criterion's runner hangs under qemu, so only plain-C tests run there.)
if build aarch64 build/test-arm64 --cross-file scripts/cross/aarch64-linux-gnu.ini \
     -Dtools=false -Dexamples=false -Dbench=disabled; then
  for k in neon scalar; do
    log "aarch64 under qemu, kernel $k"
    meson_suite "aarch64/$k" build/test-arm64 --setup "$k"
  done
fi

# 3b. s390x, big-endian: cross build, plain-C tests under qemu-user with the
#     scalar kernel. The Parquet fixtures and their byte-identical rebuilds
#     prove the bitset's little-endian layout; the known-answer native images
#     (written on x86-64) prove every family's native format.
if build s390x build/test-s390x --cross-file scripts/cross/s390x-linux-gnu.ini \
     -Dtools=false -Dexamples=false -Dbench=disabled; then
  log "s390x (big-endian) under qemu, kernel scalar"
  meson_suite "s390x/scalar" build/test-s390x --setup scalar
fi

# 4. ThreadSanitizer: the concurrent insert + contains test (a plain
#    executable: criterion cannot run under TSan).
if build tsan build/test-tsan -Db_sanitize=thread -Db_lundef=false \
     -Dtools=false -Dexamples=false -Dbench=disabled; then
  log "TSan concurrency"
  TSAN_OPTIONS=halt_on_error=1 meson_suite "tsan" build/test-tsan --suite tsan
fi

# 5. The command-line tool under valgrind memcheck, errors failing the run
#    (valgrind hides AVX-512, so AVX2 or scalar is forced there): the CLI
#    end-to-end test, and the CLI fuzz corpus replayed through the tool.
if [ -f build/test-native/build.ninja ]; then
  log "CLI under valgrind memcheck"
  vk=scalar
  case " $(build/test-native/tests/core/list_kernels) " in *" avx2 "*) vk=avx2 ;; esac
  vg='valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect'
  BLOCKFILTER_KERNEL=$vk BF_CLI_WRAPPER="$vg" \
    meson_suite "cli/valgrind" build/test-native --timeout-multiplier 3 engine_cli
  BLOCKFILTER_KERNEL=$vk $vg build/test-native/tests/robust/replay_cli tests/fuzz/corpus/cli \
    >build/test-native/replay-cli-valgrind.log 2>&1
  rc=$?
  [ $rc -eq 0 ] || tail -n 30 build/test-native/replay-cli-valgrind.log
  step_result "cli-corpus/valgrind" $rc
fi

# 6. The libFuzzer targets (clang, ASan+UBSan) replay the committed corpus,
#    so the fuzzing build cannot rot (./scripts/fuzz.sh runs them for real).
if CC=clang build fuzz build/test-fuzz -Dfuzz=true -Db_sanitize=address,undefined \
     -Db_lundef=false -Dtests=false -Dbench=disabled -Dexamples=false; then
  log "libFuzzer targets over the seed corpus"
  rc=0
  for t in $(sed 's/#.*//' tests/fuzz/targets.txt); do
    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1 build/test-fuzz/tests/fuzz/fuzz_$t \
      -runs=0 -close_fd_mask=1 tests/fuzz/corpus/$t >build/test-fuzz/replay-$t.log 2>&1 ||
      { rc=1; tail -n 20 build/test-fuzz/replay-$t.log; }
  done
  step_result "fuzz corpus (libFuzzer)" $rc
fi

# 6b. The Redis module on real servers (tests/redis/run.py): every command's
#    replies and errors, RDB/AOF/DUMP/replication, a 100 MB SCANDUMP round
#    trip, hostile input, and a 3-master/3-replica cluster with resharding
#    and failover. The servers listen on loopback ports the tests pick and
#    are killed whatever happens. BF_TEST_LARGE=1 adds the larger variants.
if [ -f build/test-native/redis/blockfilter-redis.so ]; then
  log "Redis module on real servers"
  redis_args=(--module build/test-native/redis/blockfilter-redis.so)
  $large && redis_args+=(--large)
  counted_step redis timeout 900 /usr/bin/python3 tests/redis/run.py "${redis_args[@]}"
elif [ -f build/test-native/build.ninja ]; then
  echo "the Redis module was not built (meson -Dredis)"
  step_result "redis module built" 1
fi

# 6c. The Python package (python/), installed into a virtual environment as
#     docs/python.md says, and its pytest suite: the API, batches, files,
#     threads, the pybloomfiltermmap3 drop-in, Parquet pruning compared with
#     the tool built in step 1, a few thousand mutated files through the
#     loaders, and every notebook of docs/notebooks executed and its outputs
#     checked. pytest's counts join the totals; exit 5 (nothing collected)
#     fails like any other non-zero exit.
log "Python package and notebooks"
cli=build/test-native/tools/blockfilter
py_env=(BFPY_REQUIRE_CLI=1)
[ -x "$cli" ] && py_env+=(BLOCKFILTER_CLI="$root/$cli")
out=$(env "${py_env[@]}" ./scripts/python-test.sh 2>&1)
rc=$?
printf '%s\n' "$out" | grep -vE '^[.sFEx]+ +\[ *[0-9]+%\]$' | tail -n 40
summary=$(printf '%s\n' "$out" | tail -n 1)
ok=$(printf '%s\n' "$summary" | grep -oE '[0-9]+ passed' | awk '{print $1}')
fail=$(printf '%s\n' "$summary" | grep -oE '[0-9]+ (failed|errors?)' | awk '{s+=$1} END{print s+0}')
ok=${ok:-0}
if [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then fail=1; fi # build error, or exit 5: nothing ran
if [ "$ok" -eq 0 ] && [ "$fail" -eq 0 ]; then fail=1; fi
passed=$((passed + ok))
failed=$((failed + fail))
[ "$fail" -eq 0 ] || failures+=("python")
echo "--- python: $ok passed, $fail failed"

# 7. Install into a temporary prefix; build and run an example against the
#    installed pkg-config file, and a CMake project (static and shared)
#    against the installed CMake package; run docs/adopting.md's snippets
#    against the installed tree.
log "install into a temporary prefix"
counted_step install ./scripts/install-test.sh build/test-install

# 8. The single-file amalgamation: generated twice (byte-identical), built
#    with `cc -O2 -c blockfilter.c` alone by gcc and clang, and by the
#    aarch64 cross gcc (run under qemu); the plain-C core tests against each
#    build under every kernel it dispatches to (aarch64: neon and scalar),
#    the C++ header's test, and native images both ways with the meson build.
log "the amalgamation (gcc, clang, aarch64 under qemu)"
counted_step amalgamation ./scripts/amalgamation-test.sh --meson-build build/test-native

# Summary: the last line sums every suite.
echo
if [ ${#failures[@]} -gt 0 ]; then
  echo "failed: ${failures[*]}"
fi
echo "total time: ${SECONDS}s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
