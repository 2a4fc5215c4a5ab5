#!/usr/bin/env bash
# `blockfilter calibrate` and `blockfilter calc --work-ns` end to end: the
# pick from a given cost table, refusals, the cache folder, --from, a
# hostile table, and the measured check of a pick.
#
#   tests/chooser/cli_chooser.sh PATH/TO/blockfilter
set -u
BF=$(realpath "$1")
HERE=$(dirname "$(realpath "$0")")
T=$(mktemp -d "${TMPDIR:-/tmp}/bf_chooser.XXXXXX")
trap 'rm -rf "$T"' EXIT
cd "$T"
export XDG_CACHE_HOME="$T/cache"
pass=0
fail=0
# ok, bad, expect
source "$HERE/../common/expect.sh"
has() { if grep -q -- "$2" "$3"; then ok; else bad "$1: no '$2' in $3"; sed 's/^/    /' "$3" | head -20 >&2; fi; }

# A synthetic table: the SBBF slow (50 ns), the cuckoo shapes fast (1 ns).
{
  echo "blockfilter-costs 1"
  echo "machine a test table"
  for c in sbbf cuckoo-b4-f8 cuckoo-b4-f12 cuckoo-b4-f16; do
    ns=1; [ "$c" = sbbf ] && ns=50
    echo "row $c 1024 $ns"
    echo "row $c 1073741824 $ns"
  done
  echo "end"
} >costs.txt

# No work saved: the fastest lookup wins.
expect 0 "calc T=0" -- "$BF" calc --n 1e6 --fpp 0.01 --work-ns 0 --costs costs.txt
has "calc T=0" "^pick: cuckoo-" out
has "calc T=0" "least expected cost" out
# The cuckoo shapes tie at 1 ns: the close runners-up get the note.
has "calc T=0" "^note: .* within 10% of the pick" out
# A huge saving per negative: the SBBF's 50 ns no longer matter; it wins
# with the lowest FPR, at the most bits per key the search allows (64).
expect 0 "calc T=1e9" -- "$BF" calc --n 1e6 --fpp 0.01 --work-ns 1e9 --costs costs.txt
has "calc T=1e9" "^pick: sbbf" out
has "calc T=1e9" "^   1  sbbf  *8000000  *64.00" out
# Runners-up say why they lost.
has "runners-up" "outweigh" out
# --negatives 0: FPR costs nothing.
expect 0 "calc F=0" -- "$BF" calc --n 1e6 --fpp 0.01 --work-ns 1e9 --negatives 0 --costs costs.txt
has "calc F=0" "^pick: cuckoo-b4-f8\|^pick: cuckoo-b4-f12\|^pick: cuckoo-b4-f16" out
# A budget the cuckoo shapes cannot hold the keys in: left out, the SBBF
# picked.
expect 0 "calc budget" -- "$BF" calc --n 1e7 --bytes 10M --work-ns 100 --costs costs.txt
has "calc budget" "^pick: sbbf" out
has "calc budget" "cannot hold the keys within the byte budget" out
# Nothing fits.
expect 2 "calc nothing fits" -- "$BF" calc --n 1e3 --bytes 2 --work-ns 100 --costs costs.txt
has "calc nothing fits" "no layout fits" err

# Without a table: refused, with the way out.
expect 2 "calc without a table" -- "$BF" calc --n 1e6 --fpp 0.01 --work-ns 100
has "calc without a table" "blockfilter calibrate" err
# A hostile table.
printf 'blockfilter-costs 1\nmachine m\nrow sbbf 1 nan\nend\n' >bad.txt
expect 2 "calc hostile table" -- "$BF" calc --n 1e6 --fpp 0.01 --work-ns 100 --costs bad.txt
has "calc hostile table" "corrupt" err
expect 2 "calc missing table" -- "$BF" calc --n 1e6 --fpp 0.01 --work-ns 100 --costs nope.txt

# Bad options.
expect 2 "negatives > 1" -- "$BF" calc --n 1e6 --fpp 0.01 --work-ns 100 --negatives 2
expect 2 "work < 0" -- "$BF" calc --n 1e6 --fpp 0.01 --work-ns -1
expect 2 "measure without work" -- "$BF" calc --n 1e6 --fpp 0.01 --measure 1000
expect 2 "seconds too small" -- "$BF" calibrate --seconds 0.1
expect 2 "calibrate unknown option" -- "$BF" calibrate --what

# Calibration into the cache folder, then calc uses it.
expect 0 "calibrate" -- "$BF" calibrate --seconds 2
has "calibrate" "saved to $T/cache/blockfilter/costs-" out
expect 0 "calc with the cached table" -- "$BF" calc --n 1e5 --fpp 0.01 --work-ns 100
has "calc with the cached table" "^pick: " out
# --from adds rows (replacing the same candidate and size).
expect 0 "calibrate --from" -- "$BF" calibrate --from costs.txt --out merged.txt
has "calibrate --from" "^8 rows" out
expect 0 "calibrate --from again" -- "$BF" calibrate --from costs.txt --out merged.txt
has "calibrate --from again" "^8 rows" out
expect 2 "calibrate --from hostile" -- "$BF" calibrate --from bad.txt --out merged.txt

# The measured check of a pick: built, no false negatives.
expect 0 "calc --measure" -- "$BF" calc --n 20000 --fpp 0.01 --work-ns 100 --costs costs.txt --measure 200000
has "calc --measure" "^measured:" out
if grep -q "FALSE NEGATIVES" out; then bad "calc --measure: false negatives"; else ok; fi
has "calc --measure: a verdict on the pick" "^verdict: \(confirmed\|not confirmed\)" out

echo "chooser cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
