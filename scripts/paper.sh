#!/usr/bin/env bash
# Builds the paper, paper/blockfilter.pdf, from committed benchmark results.
#
#   ./scripts/paper.sh                 the newest full run of every results/<machine>/
#                                      that the load check below accepts
#   ./scripts/paper.sh RUN.json...     exactly these runs (one per machine is the idea)
#
# Steps: install the Debian packages (scripts/setup.sh --paper: LaTeX,
# latexmk, matplotlib; idempotent); build the library and the tool
# (BF_PAPER_BUILD, default build-paper); build and run paper/numbers.c,
# which prints the models, sizings and the worked example as the library
# computes them; draw the figures (scripts/plot.py --paper) and write the
# tables, quoted numbers and run-dependent sentences (scripts/paper_tables.py)
# from the runs; run latexmk. Every number in the PDF comes from these
# steps: a changed results file changes the PDF, and a number the text
# quotes that no step produced stops the build. The primary run (the
# best kernel's newest) must have been quiet: one whose recorded load
# average exceeds 1.5 (plot.py's MAX_PRIMARY_LOAD; results/README.md) stops
# the build with exit status 3.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
py=/usr/bin/python3

case "${1:-}" in
  -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac

# 1. Packages.
scripts/setup.sh --paper

# 2. The runs: the arguments, or the newest full run of every machine
# folder (file names start with the UTC date, so the last in name order is
# the newest).
runs=()
folders=()
for d in results/*/; do
  [ -d "$d" ] || continue
  folders+=("$(basename "$d")")
done
if [ $# -gt 0 ]; then
  for f in "$@"; do
    [ -f "$f" ] || { echo "paper.sh: no such results file: $f" >&2; exit 2; }
    runs+=("$(cd "$(dirname "$f")" && pwd)/$(basename "$f")")
  done
else
  while IFS= read -r f; do
    [ -n "$f" ] && runs+=("$root/$f")
  done < <("$py" scripts/paper_tables.py --list-runs results)
fi
if [ ${#runs[@]} -eq 0 ]; then
  echo "paper.sh: no full benchmark run under results/ (./scripts/bench.sh --full makes one)" >&2
  exit 2
fi
echo "paper.sh: results used:"
printf '  %s\n' "${runs[@]#"$root/"}"

# 3. The library and the tool; the numbers program against the static library.
build=${BF_PAPER_BUILD:-build-paper}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if [ ! -f "$build/build.ninja" ]; then
  echo "paper.sh: configuring $build"
  meson setup "$build" -Dtests=false -Dexamples=false -Dbench=disabled -Dtools=true >"$log" 2>&1 ||
    { cat "$log" >&2; exit 1; }
fi
ninja -C "$build" -j2 >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
cc -std=c11 -O2 -Wall -Wextra -Werror -Iinclude paper/numbers.c "$build/lib/libblockfilter.a" -lm -lpthread \
  -o "$build/paper_numbers" >"$log" 2>&1 || { cat "$log" >&2; exit 1; }

# 4. Everything generated goes to one fresh folder, where LaTeX runs.
gen="$build/paper"
rm -rf "$gen"
mkdir -p "$gen"
"$build/paper_numbers" >"$gen/numbers.json"
# The tool's own output, shown verbatim in the paper (environment cleared
# of a forced kernel, which calc does not use anyway).
"$build/tools/blockfilter" calc --n 1M --fpp 0.01 >"$gen/calc-fpp.txt"
"$build/tools/blockfilter" calc --n 1M --bytes 1Mi >"$gen/calc-bytes.txt"
"$build/tools/blockfilter" --version >"$gen/version.txt" 2>&1 || true

folders_csv=$(IFS=,; echo "${folders[*]}")
"$py" scripts/plot.py --paper "$gen" --numbers "$gen/numbers.json" "${runs[@]}"
"$py" scripts/paper_tables.py --out "$gen" --numbers "$gen/numbers.json" --all-folders "$folders_csv" "${runs[@]}"
cp paper/blockfilter.tex paper/blockfilter.bib "$gen/"

# 5. LaTeX. Undefined references or citations fail the build.
echo "paper.sh: latexmk"
if ! (cd "$gen" && latexmk -pdf -interaction=nonstopmode -halt-on-error -file-line-error blockfilter.tex \
        >latexmk.log 2>&1); then
  grep -A3 -E '^(\./)?[^:]+:[0-9]+:|^! ' "$gen/blockfilter.log" 2>/dev/null | head -n 40 >&2 || true
  tail -n 20 "$gen/latexmk.log" >&2
  echo "paper.sh: LaTeX failed (full log: $gen/blockfilter.log)" >&2
  exit 1
fi
if grep -E "(Reference|Citation) .* undefined|There were undefined references" "$gen/blockfilter.log" >&2; then
  echo "paper.sh: undefined references (see $gen/blockfilter.log)" >&2
  exit 1
fi
cp "$gen/blockfilter.pdf" paper/blockfilter.pdf
pages=$(sed -n 's/^Output written on .*(\([0-9]*\) pages\?.*/\1/p' "$gen/blockfilter.log" | tail -n 1)
echo "paper.sh: wrote paper/blockfilter.pdf (${pages:-?} pages)"
