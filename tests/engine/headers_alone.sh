#!/usr/bin/env bash
# Every installed header compiles on its own, first and alone in a
# translation unit: as C11 and C++17, with strict warnings as errors, with
# its inline paths (plain, and AVX2 on x86) and with BF_NO_INLINE and
# BF_COMPAT_0_2. Then all of them together in two translation units linked
# into one program: a header that defined anything but static inline
# functions would give a duplicate symbol.
#
#   headers_alone.sh INCLUDE_DIR 'C compiler command' ['C++ compiler command']
set -euo pipefail
inc=$1
read -r -a cc <<<"$2"
cxx=()
if [ $# -ge 3 ] && [ -n "$3" ]; then read -r -a cxx <<<"$3"; fi
work=$(mktemp -d "${TMPDIR:-/tmp}/bf-headers.XXXXXX")
trap 'rm -rf "$work"' EXIT
strict=(-Wall -Wextra -pedantic -Werror -Wshadow -Wconversion -Wsign-conversion -Wcast-qual)
variants=("" "-DBF_NO_INLINE" "-DBF_COMPAT_0_2")
case "$("${cc[@]}" -dumpmachine)" in
x86_64* | i?86*) variants+=("-mavx2") ;;
esac
fails=0 checks=0
check() { # what command...: prints only failures, with the compiler's words
  local what=$1
  shift
  checks=$((checks + 1))
  "$@" >"$work/log" 2>&1 && return 0
  echo "FAIL $what" && head -n 20 "$work/log"
  fails=$((fails + 1))
}
headers=()
for h in "$inc"/*.h; do headers+=("$(basename "$h")"); done
for h in "${headers[@]}"; do
  printf '#include <%s>\n' "$h" >"$work/one.c"
  cp "$work/one.c" "$work/one.cc"
  for v in "${variants[@]}"; do
    check "$h C11 ${v:-(inline)}" "${cc[@]}" -std=c11 "${strict[@]}" $v -I"$inc" -fsyntax-only "$work/one.c"
    if [ ${#cxx[@]} -gt 0 ]; then
      check "$h C++17 ${v:-(inline)}" "${cxx[@]}" -std=c++17 "${strict[@]}" -Wold-style-cast $v \
        -I"$inc" -fsyntax-only "$work/one.cc"
    fi
  done
done
# All headers, twice, in one program (compiled and linked, not run).
{
  for h in "${headers[@]}"; do printf '#include <%s>\n' "$h"; done
  printf 'int bf_test_unit_%s(void);\n' a b
} >"$work/all.h"
printf '#include "all.h"\nint bf_test_unit_a(void) { return BF_VERSION_MAJOR; }\n' >"$work/a.c"
printf '#include "all.h"\nint bf_test_unit_b(void) { return BF_VERSION_MINOR; }\n' >"$work/b.c"
printf '#include "all.h"\nint main(void) { return bf_test_unit_a() + bf_test_unit_b() < 0; }\n' >"$work/m.c"
check "all headers in one program (C11)" "${cc[@]}" -std=c11 "${strict[@]}" -I"$inc" -I"$work" \
  "$work/a.c" "$work/b.c" "$work/m.c" -o "$work/all"
echo "headers_alone: $checks compiles, $fails failed"
[ "$fails" -eq 0 ]
