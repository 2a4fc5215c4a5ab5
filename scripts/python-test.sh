#!/usr/bin/env bash
# Installs the Python package into build/python-venv as docs/python.md says
# (a virtual environment over Debian's packages, pip with no index and no
# build isolation: meson-python, NumPy and the compilers come from Debian),
# then runs its pytest suite, python/tests, which also executes every
# notebook of docs/notebooks and its solutions. The build folder
# build/python-wheel is kept, so a second run recompiles only what changed.
#
#   ./scripts/python-test.sh [PYTEST ARGS...]
#
# BLOCKFILTER_CLI=path/to/blockfilter lets the Parquet tests compare with
# the tool (they look under build/ otherwise, and skip without it unless
# BFPY_REQUIRE_CLI=1). The last line is pytest's summary.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
mkdir -p build
venv=build/python-venv
if [ ! -x "$venv/bin/python" ]; then
  /usr/bin/python3 -m venv --system-site-packages "$venv" || { echo "1 failed (venv)"; exit 1; }
fi
# meson-python reconfigures a kept build folder only when the native file
# it writes into python/ is unchanged (python-bench.sh's builds write
# another): start afresh, without that file, when the build settings
# changed or the last build did not finish.
if ! cmp -s python/pyproject.toml build/python-wheel/pyproject.toml.used 2>/dev/null; then
  rm -rf build/python-wheel python/.mesonpy-native-file.ini
fi
if ! nice -n 5 "$venv/bin/pip" install --no-index --no-build-isolation --force-reinstall --no-deps \
     --config-settings builddir="$root/build/python-wheel" ./python >build/python-pip.log 2>&1; then
  tail -n 60 build/python-pip.log
  rm -f build/python-wheel/pyproject.toml.used
  echo "1 failed (pip install ./python)"
  exit 1
fi
cp python/pyproject.toml build/python-wheel/pyproject.toml.used
[ -z "${BLOCKFILTER_CLI:-}" ] || export BLOCKFILTER_CLI=$(realpath "$BLOCKFILTER_CLI")
# From build/, so that python/blockfilter (the sources) cannot shadow the
# installed package.
cd build && exec "../$venv/bin/python" -m pytest -p no:cacheprovider -q "$root/python/tests" "$@"
