#!/usr/bin/env bash
# The single-file amalgamation (scripts/amalgamate.sh) built and tested as a
# vendoring engine would build it: `CC -O2 -c blockfilter.c` and nothing
# else, with gcc and clang natively and with the aarch64 cross gcc (its
# programs run under qemu-user). Against each build run the plain-C core
# tests of the meson suite: hashing (XXH64 against xxHash, every hash
# kernel), every SBBF kernel bit for bit against scalar, the Parquet
# fixtures, the Parquet-file reader, key batches, the scalable chain, and
# the native known-answer images (written by the meson build) loading and
# saving back byte for byte; the C++ header's test (natively); each under every kernel the build dispatches
# to (natively: all this CPU runs; aarch64: neon and scalar). The kernels
# compiled in and supported must be those of the meson build, and the
# images the amalgamated build writes must pass the meson build's test.
# The generator must give the same bytes twice.
#
#   scripts/amalgamation-test.sh [--meson-build DIR] [--only gcc,clang,aarch64]
#
# --meson-build: a configured native meson build with its tests built
# (default build/test-native) for the two cross-checks; skipped without it.
# Prints "ok"/"FAIL" per check and "N passed, N failed"; exit 1 on failure.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
meson_build=build/test-native
only=gcc,clang,aarch64
while [ $# -gt 0 ]; do
  case "$1" in
    --meson-build) meson_build=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    *) echo "usage: $0 [--meson-build DIR] [--only gcc,clang,aarch64]" >&2; exit 2 ;;
  esac
done
work=$(mktemp -d "${TMPDIR:-/tmp}/blockfilter-amalg.XXXXXX")
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
ok() { echo "ok   $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failed=$((failed + 1)); }
check() { # description command...
  local what=$1
  shift
  if "$@" >"$work/last.log" 2>&1; then ok "$what"; else fail "$what"; tail -n 20 "$work/last.log" | sed 's/^/     /'; fi
}

# Generated twice: the same bytes.
if ! ./scripts/amalgamate.sh "$work/a" >"$work/gen.log" 2>&1; then
  cat "$work/gen.log"
  fail "amalgamate.sh"
  echo "$passed passed, $failed failed"
  exit 1
fi
ok "$(tail -n 1 "$work/gen.log")"
./scripts/amalgamate.sh "$work/b" >/dev/null 2>&1
check "byte-identical run to run" diff -r "$work/a" "$work/b"
out=$work/a

# The plain-C tests of the meson suite, built against the amalgamation.
tests=(kernels/test_kernel_equiv kernels/test_hash_equiv kernels/test_core_plain kernels/test_keys
       core/test_native_plain parquet/test_parquet_file scalable/test_scalable_plain)
test_inc=(-I"$out" -I"$root/lib" -I"$root/tests/common" -I"$root/tests/kernels" -I"$root/tests/parquet")

build_and_run() { # name cc cxx runner kernels...
  local name=$1 cc=$2 cxx=$3 runner=$4
  shift 4
  local dir=$work/$name t0 t1 k t exe rc
  mkdir -p "$dir"
  if ! command -v "$cc" >/dev/null; then
    fail "$name: $cc not found"
    return
  fi
  t0=$(date +%s%N)
  if ! "$cc" -O2 -c "$out/blockfilter.c" -o "$dir/blockfilter.o" >"$dir/cc.log" 2>&1; then
    fail "$name: $cc -O2 -c blockfilter.c"
    tail -n 30 "$dir/cc.log"
    return
  fi
  t1=$(date +%s%N)
  ok "$name: $cc -O2 -c blockfilter.c ($(((t1 - t0) / 100000000 / 10)).$(((t1 - t0) / 100000000 % 10)) s, $(wc -l <"$out/blockfilter.c") lines)"
  check "$name: only bf_* symbols have default visibility" bash -c "
    readelf -sW '$dir/blockfilter.o' | awk '\$5 == \"GLOBAL\" && \$7 != \"UND\" && \$6 == \"DEFAULT\" {print \$8}' >'$dir/exported.txt' &&
    test -s '$dir/exported.txt' && ! grep -Ev '^bf_[a-z0-9]' '$dir/exported.txt'"
  check "$name: -std=c11 -Wall -Wextra -Wpedantic -Werror" \
    "$cc" -std=c11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only "$out/blockfilter.c"
  check "$name: -DBF_AMALGAMATION_SCALAR compiles" \
    "$cc" -DBF_AMALGAMATION_SCALAR -Wall -Werror -fsyntax-only "$out/blockfilter.c"
  "$cc" -O1 "${test_inc[@]}" "$root/tests/core/list_kernels.c" "$dir/blockfilter.o" -lm -o "$dir/list_kernels" &&
    $runner "$dir/list_kernels" >"$dir/kernels.txt" 2>&1
  local kernels=$*
  [ -n "$kernels" ] || kernels=$(cat "$dir/kernels.txt")
  echo "     $name: kernels supported here: $(tr '\n' ' ' <"$dir/kernels.txt")"
  printf '#include "blockfilter_advanced.h"\n#include <stdio.h>\nint main(void) {\n  const char *n = NULL;\n  if (bf_sbbf_default_kernel(&n)) return 1;\n  puts(n);\n  return 0;\n}\n' >"$dir/default_kernel.c"
  "$cc" -I"$out" "$dir/default_kernel.c" "$dir/blockfilter.o" -lm -o "$dir/default_kernel" &&
    echo "     $name: dispatches to: $($runner "$dir/default_kernel")"
  for t in "${tests[@]}"; do
    exe=$dir/$(basename "$t")
    local extra=() # what the test links besides the library, as in its meson.build
    [ "$t" = parquet/test_parquet_file ] && extra=("$root/tests/common/thrift_writer.c")
    if ! "$cc" -O1 -D_POSIX_C_SOURCE=200809L "${test_inc[@]}" "$root/tests/$t.c" "${extra[@]}" "$dir/blockfilter.o" -lm \
         -o "$exe" >"$dir/build-$(basename "$t").log" 2>&1; then
      fail "$name: build $t"
      tail -n 20 "$dir/build-$(basename "$t").log"
      continue
    fi
    for k in $kernels; do
      BLOCKFILTER_KERNEL=$k BF_TEST_DATA=$root/tests/data $runner "$exe" >"$dir/run.log" 2>&1
      rc=$?
      case $rc in
        0) ok "$name: $(basename "$t") [$k]" ;;
        77) echo "skip $name: $(basename "$t") [$k]: kernel not supported here" ;;
        *) fail "$name: $(basename "$t") [$k] (exit $rc)"; grep -E 'FAIL|failed' "$dir/run.log" | head -n 10 ;;
      esac
    done
  done
  # The C++ header beside the amalgamated one, against the same object.
  if [ -n "$cxx" ]; then
    check "$name: blockfilter.hpp (C++20) against the amalgamation" bash -c "
      '$cxx' -std=c++20 -O1 -I'$out' '$root/tests/engine/test_hpp.cc' '$dir/blockfilter.o' -lm -o '$dir/test_hpp' &&
      BF_TEST_DATA='$root/tests/data' $runner '$dir/test_hpp'"
  fi
}

native_kernels=""
if [ -x "$meson_build/tests/core/list_kernels" ]; then
  native_kernels=$("$meson_build/tests/core/list_kernels" | tr '\n' ' ')
fi
case ",$only," in *,gcc,*) build_and_run gcc gcc g++ "" ;; esac
case ",$only," in *,clang,*) build_and_run clang clang clang++ "" ;; esac
case ",$only," in *,aarch64,*)
  build_and_run aarch64 aarch64-linux-gnu-gcc "" "qemu-aarch64 -L /usr/aarch64-linux-gnu" neon scalar
  check "aarch64: kernels compiled in: neon scalar" \
    bash -c "test \"\$(tr '\n' ' ' <'$work/aarch64/kernels.txt')\" = 'neon scalar '" ;;
esac

# Against the meson build: the same kernels, and images that go both ways.
for name in gcc clang; do
  [ -f "$work/$name/kernels.txt" ] || continue
  if [ -n "$native_kernels" ]; then
    check "$name: the kernels of the meson build ($native_kernels)" \
      test "$(tr '\n' ' ' <"$work/$name/kernels.txt")" = "$native_kernels"
    mkdir -p "$work/$name/images/native"
    check "$name: native images written here load in the meson build" bash -c "
      '$work/$name/test_native_plain' --write '$work/$name/images/native' &&
      BF_TEST_DATA='$work/$name/images' '$meson_build/tests/core/test_native_plain' &&
      for f in '$root'/tests/data/native/*.bflt; do cmp \"\$f\" '$work/$name/images/native/'\$(basename \"\$f\"); done"
  else
    echo "skip $name: no meson build at $meson_build for the cross-checks"
  fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
