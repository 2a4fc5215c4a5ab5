#!/usr/bin/env bash
# Writes the single-file amalgamation of blockfilter into OUTDIR:
# blockfilter.c (the whole library, one C11 translation unit) and the public
# headers (blockfilter.h, blockfilter.hpp, ...). To vendor blockfilter, copy
# them into a tree and build with `cc -O2 -c blockfilter.c` (docs/adopting.md).
# Generated, never committed; the same sources give the same bytes.
#
#   ./scripts/amalgamate.sh OUTDIR
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: $0 OUTDIR" >&2
  exit 2
fi
exec /usr/bin/python3 "$(dirname "$0")/amalgamate.py" "$1"
