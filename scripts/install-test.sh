#!/usr/bin/env bash
# Installs blockfilter into a temporary prefix the way a distribution would
# (meson install), checks what landed there (headers, static and shared
# library with a versioned SONAME, pkg-config file, the tool), then builds
# an example against the installed library with nothing but
# `pkg-config --cflags --libs blockfilter`, and runs it; once linked
# dynamically, once statically, and the headers once more as C++. Then
# the CMake package: a CMake project (tests/install/cmake) finds the
# installed tree with find_package(blockfilter CONFIG) and no pkg-config,
# and links blockfilter::blockfilter shared and static, from the prefix and
# from a copy of it moved elsewhere. Last, docs/adopting.md's snippets run
# against the installed tree (tests/docs/run_tutorial.py, as the tutorial).
#
#   ./scripts/install-test.sh [BUILD_DIR]   (default: build/install-test)
#
# Exit 0 when every check passed; prints one line per check and, last,
# "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=${1:-build/install-test}
prefix=$(mktemp -d "${TMPDIR:-/tmp}/blockfilter-prefix.XXXXXX")
work=$(mktemp -d "${TMPDIR:-/tmp}/blockfilter-consumer.XXXXXX")
trap 'rm -rf "$prefix" "$work"' EXIT
cc=${CC:-cc}
cxx=${CXX:-c++}
fails=0
passes=0
check() { # description command...
  local what=$1
  shift
  if "$@" >"$work/last.log" 2>&1; then
    echo "ok   $what"
    passes=$((passes + 1))
  else
    echo "FAIL $what"
    sed 's/^/     /' "$work/last.log" | tail -n 20
    fails=$((fails + 1))
  fi
}

# A fresh configure each time: the prefix is new.
rm -rf "$build"
meson setup "$build" --prefix="$prefix" -Dtests=false -Dbench=disabled -Dexamples=false \
  -Dbuildtype=release >"$work/setup.log" 2>&1 || { cat "$work/setup.log"; exit 1; }
ninja -C "$build" >"$work/build.log" 2>&1 || { tail -n 40 "$work/build.log"; exit 1; }
meson install -C "$build" >"$work/install.log" 2>&1 || { tail -n 40 "$work/install.log"; exit 1; }

pcfile=$(find "$prefix" -name blockfilter.pc | head -n 1)
libdir=$(dirname "$(find "$prefix" -name 'libblockfilter.so.*.*.*' | head -n 1)")
for h in blockfilter.h blockfilter_inline.h blockfilter_advanced.h blockfilter_parquet.h; do
  check "header $h installed" test -f "$prefix/include/$h"
done
check "pkg-config file installed" test -n "$pcfile"
check "static library installed" test -f "$libdir/libblockfilter.a"
# 0.x: the soname carries the minor version (docs/headers.md).
version=$(meson introspect --projectinfo "$build" | python3 -c 'import json,sys; print(json.load(sys.stdin)["version"])')
soname=libblockfilter.so.${version%.*}
check "shared library chain .so -> $soname -> .so.$version" \
  bash -c "test -L '$libdir/libblockfilter.so' && test -L '$libdir/$soname' && \
           test \"\$(readlink -f '$libdir/libblockfilter.so')\" = \"\$(readlink -f '$libdir/libblockfilter.so.$version')\""
check "SONAME is $soname" \
  bash -c "objdump -p '$libdir/libblockfilter.so' | grep -E 'SONAME +${soname//./\\.}\$'"
check "only bf_* symbols exported" \
  bash -c "! nm -D --defined-only '$libdir/libblockfilter.so' | awk '\$2 ~ /[TDBR]/ {print \$3}' | grep -Ev '^bf_[a-z0-9]'"
check "tool installed" test -x "$prefix/bin/blockfilter"

export PKG_CONFIG_PATH="$(dirname "$pcfile")${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
check "pkg-config --modversion matches the header" \
  bash -c "test \"\$(pkg-config --modversion blockfilter)\" = \"\$(sed -n 's/^#define BF_VERSION_STRING \"\(.*\)\"/\1/p' '$prefix/include/blockfilter.h')\""

# A consumer outside the source tree: copy the example, nothing else.
cp "$root/examples/kv_guard.c" "$root/examples/parquet_prune.c" "$work/"
cd "$work"
check "Parquet-file example compiles and links (blockfilter_parquet.h)" \
  bash -c "$cc -std=c11 -Wall -Werror parquet_prune.c \$(pkg-config --cflags --libs blockfilter) -o parquet_prune"
check "example compiles and links (shared)" \
  bash -c "$cc -std=c11 -Wall -Werror kv_guard.c \$(pkg-config --cflags --libs blockfilter) -o kv_guard"
check "example runs (shared)" env LD_LIBRARY_PATH="$libdir" ./kv_guard
check "example compiles and links (static)" \
  bash -c "$cc -std=c11 kv_guard.c \$(pkg-config --cflags blockfilter) -L'$libdir' \
           -Wl,-Bstatic -lblockfilter -Wl,-Bdynamic \$(pkg-config --libs-only-l --static blockfilter | sed 's/-lblockfilter//') -o kv_guard_static"
check "example runs (static, no library path)" ./kv_guard_static
check "static binary does not need libblockfilter.so" \
  bash -c "! ldd ./kv_guard_static | grep -q libblockfilter"
printf '#include <blockfilter_advanced.h>\n#include <blockfilter_parquet.h>\n#include <blockfilter.h>\nint main() { return bf_version_number() == BF_VERSION_NUMBER && bf_sbbf_kernel_count() > 0 && bf_parquet_type_name(1) != nullptr ? 0 : 1; }\n' >hdr.cc
check "installed headers compile as C++ and link" \
  bash -c "$cxx hdr.cc \$(pkg-config --cflags --libs blockfilter) -o hdr && LD_LIBRARY_PATH='$libdir' ./hdr"
printf 'alpha\nbeta\n' >keys.txt
check "installed tool builds and queries a filter" \
  bash -c "LD_LIBRARY_PATH='$libdir' '$prefix/bin/blockfilter' build --quiet -o f.bf keys.txt && \
           LD_LIBRARY_PATH='$libdir' '$prefix/bin/blockfilter' query --count f.bf keys.txt"

# The CMake package, with pkg-config out of reach.
cmakedir=$(dirname "$(find "$prefix" -name blockfilterConfig.cmake | head -n 1)")
version=$(sed -n 's/^#define BF_VERSION_STRING "\(.*\)"/\1/p' "$prefix/include/blockfilter.h")
check "CMake package installed (config and version file)" \
  test -f "$cmakedir/blockfilterConfig.cmake" -a -f "$cmakedir/blockfilterConfigVersion.cmake"
cmake_consumer() { # name prefix [cmake args...]
  local name=$1 pfx=$2
  shift 2
  rm -rf "$work/cmake-$name"
  env -u PKG_CONFIG_PATH PKG_CONFIG=/bin/false cmake -S "$root/tests/install/cmake" -B "$work/cmake-$name" \
    -DCMAKE_PREFIX_PATH="$pfx" -DBF_EXPECT_VERSION="$version" "$@" &&
    cmake --build "$work/cmake-$name" -j 2 &&
    "$work/cmake-$name/consumer_c" && "$work/cmake-$name/consumer_cpp"
}
check "CMake consumer, shared: find_package, build, run (C and C++)" cmake_consumer shared "$prefix"
check "CMake consumer, shared: linked to the installed libblockfilter.so" \
  bash -c "ldd '$work/cmake-shared/consumer_c' | grep -q 'libblockfilter\.so[.0-9]* => $libdir/'"
check "CMake consumer, static (BLOCKFILTER_USE_STATIC_LIBS): build, run" \
  cmake_consumer static "$prefix" -DBLOCKFILTER_USE_STATIC_LIBS=ON
check "CMake consumer, static: no libblockfilter.so needed" \
  bash -c "! ldd '$work/cmake-static/consumer_c' | grep -q libblockfilter"
check "find_package refuses another minor version" \
  bash -c "! cmake -S '$root/tests/install/cmake' -B '$work/cmake-badversion' -DCMAKE_PREFIX_PATH='$prefix' \
             -DBF_EXPECT_VERSION=${version%%.*}.99 >'$work/cmake-badversion.log' 2>&1"
cp -a "$prefix" "$work/moved-prefix"
check "CMake consumer against a moved copy of the prefix" \
  cmake_consumer moved "$work/moved-prefix" -DBLOCKFILTER_USE_STATIC_LIBS=ON
check "... which refers to the copy only" bash -c "! grep -q '$prefix' '$work/cmake-moved/CMakeCache.txt'"

# docs/adopting.md: each way of adopting blockfilter, run as written.
check "docs/adopting.md snippets" \
  /usr/bin/python3 "$root/tests/docs/run_tutorial.py" --doc "$root/docs/adopting.md" \
    --tool "$prefix/bin/blockfilter" --source "$root" --work "$work/adopting" \
    --env "PREFIX=$prefix" --env "PKG_CONFIG_PATH=$(dirname "$pcfile")" --env "LD_LIBRARY_PATH=$libdir"

if [ "$fails" -eq 0 ]; then
  echo "install-test: all passed"
else
  echo "install-test: $fails failed"
fi
echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]
