#!/usr/bin/env bash
# Measures the Python package side by side: single add / `in` per key against
# pybloomfiltermmap3 and a Python set, and SBBF.contains_many against the
# library's own batch call (scripts/python_bench.py says how). Builds the
# package (release, in a virtual environment) and the shared library, then
# writes results/<machine>/python-<date>-<commit>.{json,md} and the console
# log beside them.
#
#   ./scripts/python-bench.sh [--peer DIR] [--repeats N] [--quick] [--machine NAME]
#
# --peer DIR: a folder holding pybloomfiltermmap3's built extension
#   (pybloomfilter*.so), e.g. its source tree after
#   `python3 setup.py build_ext --inplace` with Debian's cython3; it is
#   measured only when given (docs/python.md, "Measuring").
# --quick: 10^5 and 10^6 keys, 3 repetitions (a check that it works).
set -euo pipefail
cd "$(dirname "$0")/.."

peer=()
repeats=7
ns=1000000,10000000
machine=""
suffix=""
while [ $# -gt 0 ]; do
  case $1 in
    --peer) peer=(--peer "$2"); shift ;;
    --repeats) repeats=$2; shift ;;
    --quick) ns=100000,1000000; repeats=3; suffix=-quick ;;
    --machine) machine=$2; shift ;;
    *) echo "usage: $0 [--peer DIR] [--repeats N] [--quick] [--machine NAME]" >&2; exit 2 ;;
  esac
  shift
done

./scripts/setup.sh >/dev/null

# The library as a shared object (the C reference) and the package.
lib=build/python-bench-lib
if [ ! -f "$lib/build.ninja" ]; then
  meson setup "$lib" -Dbuildtype=release -Dtests=false -Dtools=false -Dexamples=false \
    -Dbench=disabled -Dredis=disabled >"$lib.setup.log" 2>&1 || { cat "$lib.setup.log"; exit 1; }
fi
ninja -C "$lib" >"$lib.build.log" 2>&1 || { tail -n 40 "$lib.build.log"; exit 1; }
venv=build/python-bench-venv
[ -x "$venv/bin/python" ] || /usr/bin/python3 -m venv --system-site-packages "$venv"
# A fresh build folder: meson-python reconfigures a kept one only when its
# native file (python/.mesonpy-native-file.ini) is unchanged, and that file
# is shared with python-test.sh's builds, so options (the -O3 of
# pyproject.toml) could be stale. Without the native file it sets up anew.
rm -rf build/python-bench-wheel python/.mesonpy-native-file.ini
"$venv/bin/pip" install -q --no-index --no-build-isolation --force-reinstall --no-deps \
  --config-settings builddir="$PWD/build/python-bench-wheel" ./python >build/python-bench-pip.log 2>&1 ||
  { tail -n 40 build/python-bench-pip.log; exit 1; }

[ -n "$machine" ] || machine=$(scripts/machine-name.sh)
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo nogit)
git diff --quiet HEAD -- 2>/dev/null || commit="$commit-dirty"
out="results/$machine"
mkdir -p "$out"
prefix="$out/python-$(date -u +%Y-%m-%dT%H%MZ)-$commit$suffix"

echo "python-bench.sh: machine $machine, writing $prefix.{json,md,txt}"
"$venv/bin/python" scripts/python_bench.py "${peer[@]}" --lib "$lib/lib/libblockfilter.so" \
  --n "$ns" --repeats "$repeats" --json "$prefix.json" 2> >(tee "$prefix.txt" >&2) | tee "$prefix.md"
