#!/usr/bin/env bash
# The blockfilter tool end to end: build, query, info, merge, convert,
# parquet (listing and pruning the real Parquet fixtures), bad files, empty input, keys with embedded NUL and invalid UTF-8, and the
# chunked key reader at every chunk boundary.
#
#   tests/engine/cli.sh PATH/TO/blockfilter [PATH/TO/engine_cli_reference]
#
# engine_cli_reference (tests/engine/cli_reference.c) answers queries the
# plain way, one getline and one bf_filter_contains per key; given, the
# tool's output is compared with it byte for byte.
# BF_CLI_WRAPPER (optional) runs every invocation under a wrapper, e.g.
#   BF_CLI_WRAPPER="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite"
# (an error report turns the exit status into 99, which no check expects).
# BF_TEST_DATA: the test data directory (Parquet fixtures).
set -u
BF=$(realpath "$1")
HERE=$(dirname "$(realpath "$0")")
REF=${2:+$(realpath "$2")}
DATA=$(realpath "${BF_TEST_DATA:-$(dirname "$0")/../data}")
WRAP=${BF_CLI_WRAPPER:-}
T=$(mktemp -d "${TMPDIR:-/tmp}/bf_cli.XXXXXX")
trap 'rm -rf "$T"' EXIT
cd "$T"
pass=0
fail=0

bf() { $WRAP "$BF" "$@"; }
# ok, bad, expect
source "$HERE/../common/expect.sh"
# has FILE PATTERN DESCRIPTION: grep -E in a file.
has() { if grep -Eq -- "$2" "$1"; then ok; else bad "$3: no /$2/ in $1: $(head -c 300 "$1")"; fi; }

# ---- keys -------------------------------------------------------------
seq 1 2000 | sed 's/^/key-/' >keys.txt
seq 2001 4000 | sed 's/^/key-/' >keys2.txt
seq 100001 102000 | sed 's/^/absent-/' >absent.txt
: >empty.txt
# Keys that are bytes, not text: embedded NUL, invalid UTF-8, a lone CR,
# an empty key (empty line), and a last line without a newline.
printf 'a\000b\n\377\376\375\nnul-at-end\000\n\r\n\nlast-no-newline' >binary.txt

# ---- the families: what the library registers, as the tool lists them --
# Every loop below walks this list, so a family the library adds is built,
# queried, inspected and merged here with no edit.
bf build --family nope -o x.bf keys.txt >out 2>err
FAMILIES=$(sed -n 's/.*--family needs one of //p' err | sed 's/,/ /g; s/ or / /')
for fam in sbbf bloom counting cuckoo scalable; do
  case " $FAMILIES " in *" $fam "*) ok ;; *) bad "family list '$FAMILIES' lacks $fam" ;; esac
done
# Families whose filters cannot be merged (the library says unsupported).
NOMERGE="scalable"

# ---- help and usage ---------------------------------------------------
expect 0 "--help" -- bf --help
has out "commands:" "--help lists commands"
for c in calc build query info merge convert parquet; do
  expect 0 "$c --help" -- bf "$c" --help
  has out "^usage: blockfilter $c" "$c --help"
done
expect 2 "no command" -- bf
expect 2 "unknown command" -- bf frobnicate
has err "unknown command 'frobnicate'" "unknown command named"
expect 0 "--version" -- bf --version
has out "^blockfilter [0-9]+\.[0-9]+\.[0-9]+" "--version"

# ---- calc -------------------------------------------------------------
expect 0 "calc" -- bf calc --n 1M --fpp 0.01
for fam in $FAMILIES; do has out "^$fam " "calc row $fam"; done
# sbbf at 1%: about 10-13 bits/key, and its model FPR does not exceed the target
awk '$1=="sbbf" { if ($3 < 9 || $3 > 14 || $6 > 0.01) exit 1 }' out && ok || bad "calc sbbf figures: $(grep sbbf out)"
# scalable: layer 0 for 1M keys at the chain's tighter target (0.5017 %):
# 12.20 bits/key, its model at N below half the target.
awk '$1=="scalable" { if ($3 < 12.1 || $3 > 12.3 || $6 > 0.00502 || $4 != 8) exit 1 }' out && ok ||
  bad "calc scalable figures: $(grep scalable out)"
has out "^scalable: layer 0 of a chain of initial capacity N" "calc scalable note"
has out "FPR stays <= 0.01$" "calc scalable note names the target"
expect 0 "calc reverse" -- bf calc --n 1000000 --bytes 1Mi
for fam in $FAMILIES; do has out "^$fam " "calc reverse row $fam"; done
# One layer of those bytes: the SBBF's figure.
[ "$(awk '$1=="sbbf"{print $2}' out)" = "$(awk '$1=="scalable"{print $2}' out)" ] && ok ||
  bad "calc reverse scalable is not one SBBF layer: $(cat out)"
awk '$1=="bloom" { if ($2 <= 0 || $2 >= 1) exit 1 }' out && ok || bad "calc reverse bloom fpp"
expect 2 "calc bad fpp" -- bf calc --n 10 --fpp 1.5
has err "fpp" "calc bad fpp message"
expect 2 "calc both modes" -- bf calc --n 10 --fpp 0.1 --bytes 64
expect 2 "calc no n" -- bf calc --fpp 0.1

# ---- build + query, every family, file and stdin ----------------------
for fam in $FAMILIES; do
  expect 0 "build $fam from file" -- bf build --quiet --family "$fam" --fpp 0.001 -o "$fam.bf" keys.txt
  expect 0 "query $fam all present" -- bf query "$fam.bf" keys.txt
  [ "$(grep -c $'\tmaybe$' out)" -eq 2000 ] && ok || bad "query $fam: not 2000 maybe lines"
  expect 1 "query $fam absent keys" -- bf query --count "$fam.bf" absent.txt
  no=$(awk '$1=="no"{print $2}' out)
  [ "${no:-0}" -ge 1980 ] && ok || bad "query $fam absent: only ${no:-?} of 2000 'no' (fpp 0.001)"
  expect 0 "info $fam" -- bf info "$fam.bf"
  has out "^family: +$fam$" "info $fam family"
  has out "^keys inserted: +2000$" "info $fam keys"
  # The lowest version that holds the image (docs/format.md): 2 for the
  # blocked family, and for cuckoo shapes version 1 lacks.
  case "$fam" in blocked) v=2 ;; cuckoo) v='[12]' ;; *) v=1 ;; esac
  has out "^format version: +$v$" "info $fam version"
done
# stdin, no --n: buffered, sized for exactly the keys read.
expect 0 "build from stdin" -- bash -c "$WRAP '$BF' build --quiet -o stdin.bf < keys.txt"
expect 0 "query stdin-built" -- bash -c "$WRAP '$BF' query --count stdin.bf < keys.txt"
has out "^maybe 2000$" "stdin-built has every key"
# The same keys give the same filter whichever way they came in.
expect 0 "build from file, default family" -- bf build --quiet -o file.bf keys.txt
cmp -s stdin.bf file.bf && ok || bad "stdin and file builds differ"
# --n given: no counting pass.
expect 0 "build with --n" -- bf build --quiet --n 5000 -o n.bf keys.txt
expect 0 "query --n build" -- bf query --count n.bf keys.txt
expect 2 "build without -o" -- bf build keys.txt
expect 2 "build bad family" -- bf build --family nope -o x.bf keys.txt
has err "family" "bad family message"
expect 2 "build missing input" -- bf build -o x.bf no-such-file.txt
has err "no-such-file.txt.*No such file" "missing input named"
[ ! -e x.bf ] && ok || bad "failed build left an output file"

# Query output: the key bytes, a tab, the answer.
printf 'key-1\nabsent-100001\n' >two.txt
expect 1 "query mixed" -- bf query sbbf.bf two.txt
printf 'key-1\tmaybe\nabsent-100001\tno\n' >want.txt
cmp -s out want.txt && ok || bad "query output format: $(od -c out | head -3)"

# Blocked shapes: each corner builds and answers; a broken rule is named
# and no file is written; the shape options need --family blocked.
for shape in "32 1 1 4" "64 1 1 6" "512 1 1 8" "256 8 8 8" "512 16 2 8"; do
  read -r sb ss sz sk <<<"$shape"
  expect 0 "build blocked $shape" -- bf build --quiet --family blocked --block-bits "$sb" \
    --sectors "$ss" --groups "$sz" --k "$sk" --fpp 0.01 -o shape.bf keys.txt
  expect 0 "query blocked $shape" -- bf query --count shape.bf keys.txt
  has out "^maybe 2000$" "blocked $shape has every key"
  expect 0 "info blocked $shape" -- bf info shape.bf
  has out "^shape: +$sb/$ss/$sz/$sk " "info names the shape $shape"
done
expect 2 "blocked shape breaks a rule" -- bf build --quiet --family blocked --block-bits 512 \
  --sectors 4 --groups 1 --k 4 -o badshape.bf keys.txt
has err "sectors must be 1 or divide block_bits into sectors of 32 or 64 bits" "broken rule named"
[ ! -e badshape.bf ] && ok || bad "a refused shape left a file"
expect 2 "blocked shape in part" -- bf build --quiet --family blocked --k 4 -o badshape.bf keys.txt
expect 2 "shape options need blocked" -- bf build --quiet --block-bits 64 --sectors 1 \
  --groups 1 --k 4 -o badshape.bf keys.txt
[ ! -e badshape.bf ] && ok || bad "a refused shape left a file"
expect 0 "calc blocked shapes" -- bf calc --n 1M --fpp 0.01
has out "^register-blocked +32/1/1/" "calc lists register-blocked 32"
has out "^cache-sectorized +512/8/2/" "calc lists cache-sectorized 512"

# Cuckoo that cannot hold the keys: a clear error, no file.
seq 1 50000 >many.txt
expect 2 "cuckoo overfull" -- bf build --quiet --family cuckoo --n 100 -o full.bf many.txt
has err "many.txt: line [0-9]+: filter full" "cuckoo overfull message"
[ ! -e full.bf ] && ok || bad "overfull build left a file"

# ---- keys are bytes ---------------------------------------------------
expect 0 "build binary keys" -- bf build --quiet --fpp 0.000001 -o bin.bf binary.txt
expect 0 "query binary keys" -- bf query bin.bf binary.txt
# Output echoes each key byte for byte (6 keys), all maybe.
printf 'a\000b\tmaybe\n\377\376\375\tmaybe\nnul-at-end\000\tmaybe\n\r\tmaybe\n\tmaybe\nlast-no-newline\tmaybe\n' >want.txt
cmp -s out want.txt && ok || bad "binary keys echoed: $(od -c out | head -5)"
expect 0 "info binary" -- bf info bin.bf
has out "^keys inserted: +6$" "6 binary keys"
# Prefixes cut at the NUL, or the bytes without the CR, are other keys.
printf 'a\nnul-at-end\nlast-no-newline\n' >near.txt
expect 1 "near keys differ" -- bf query --count bin.bf near.txt
has out "^no 2$" "'a' and 'nul-at-end' are not 'a\\0b' and 'nul-at-end\\0'"
# --crlf removes one CR before LF, on build and query alike.
printf 'one\r\ntwo\r\n' >crlf.txt
printf 'one\ntwo\n' >lf.txt
expect 0 "build --crlf" -- bf build --quiet --crlf --fpp 0.000001 -o crlf.bf crlf.txt
expect 0 "query LF keys in CRLF-built filter" -- bf query --count crlf.bf lf.txt
expect 1 "without --crlf the CR is part of the key" -- bf query --count crlf.bf crlf.txt
expect 0 "query --crlf" -- bf query --count --crlf crlf.bf crlf.txt

# ---- empty input ------------------------------------------------------
expect 0 "build empty file" -- bf build --quiet -o empty.bf empty.txt
expect 0 "info empty" -- bf info empty.bf
has out "^keys inserted: +0$" "empty filter has 0 keys"
has out "^fill ratio: +0.000000$" "empty filter fill"
expect 0 "query empty input" -- bf query --count empty.bf empty.txt
has out "^total 0$" "empty query totals"
expect 1 "query against empty filter" -- bf query --count empty.bf keys.txt
has out "^no 2000$" "empty filter says no"
expect 0 "build empty stdin" -- bash -c "$WRAP '$BF' build --quiet -o empty2.bf < /dev/null"

# ---- info --json ------------------------------------------------------
expect 0 "info --json" -- bf info --json sbbf.bf
if command -v python3 >/dev/null; then
  python3 -c '
import json, sys
d = json.load(open("out"))
assert d["family"] == "sbbf" and d["keys_inserted"] == 2000 and d["format_version"] == 1
assert 0 < d["fill_ratio"] < 1 and 0 <= d["est_fpp"] < 0.01 and d["keyed"] is False
assert d["file_bytes"] == d["payload_bytes"] + 64 and d["k"] == 8
assert 1800 < d["est_keys"] < 2200, d["est_keys"]
' && ok || bad "info --json fields: $(cat out)"
else
  has out '"family":"sbbf"' "info --json family"
fi

# ---- keyed ------------------------------------------------------------
expect 0 "build --seed" -- bf build --quiet --seed 0x2a -o keyed.bf keys.txt
expect 0 "info keyed" -- bf info keyed.bf
has out "keyed, seed 0x000000000000002a" "info shows the seed"
expect 0 "query keyed" -- bf query --count keyed.bf keys.txt
cmp -s keyed.bf file.bf && bad "keyed filter equals unkeyed" || ok
expect 0 "build --keyed" -- bf build --quiet --keyed -o rkeyed.bf keys.txt
expect 0 "query random-keyed" -- bf query --count rkeyed.bf keys.txt
expect 2 "--seed with --keyed" -- bf build --seed 1 --keyed -o x.bf keys.txt

# ---- merge ------------------------------------------------------------
cat keys.txt keys2.txt >both.txt
for fam in $FAMILIES; do
  case " $NOMERGE " in *" $fam "*) continue ;; esac
  expect 0 "build A $fam" -- bf build --quiet --family $fam --n 4000 -o A.bf keys.txt
  expect 0 "build B $fam" -- bf build --quiet --family $fam --n 4000 -o B.bf keys2.txt
  expect 0 "merge $fam" -- bf merge -o AB.bf A.bf B.bf
  expect 0 "merged $fam has both" -- bf query --count AB.bf both.txt
  has out "^maybe 4000$" "merged $fam count"
  expect 0 "info merged $fam" -- bf info AB.bf
done
# The in-place merge below works on the last mergeable family's A and B.
expect 0 "merge in place" -- bf merge -o A.bf A.bf B.bf
expect 0 "in-place merge has both" -- bf query --count A.bf both.txt
expect 2 "merge size mismatch" -- bf merge -o M.bf sbbf.bf n.bf
has err "n.bf: cannot merge into sbbf.bf: filters differ" "mismatch names both files"
expect 2 "merge families" -- bf merge -o M.bf sbbf.bf bloom.bf
has err "bloom.bf" "family mismatch names the file"
for fam in $NOMERGE; do
  expect 2 "merge $fam" -- bf merge -o M.bf $fam.bf $fam.bf
  has err "$fam.bf: .*unsupported" "$fam merge unsupported"
done
expect 2 "merge one input" -- bf merge -o M.bf A.bf
[ ! -e M.bf ] && ok || bad "failed merge left a file"

# ---- cuckoo shapes: --bucket-size, --fingerprint-bits, --semisorted ----
expect 0 "build cuckoo b=2 f=7" -- bf build --quiet --family cuckoo --bucket-size 2 --fingerprint-bits 7 -o c27.bf keys.txt
expect 0 "query cuckoo b=2 f=7" -- bf query --count c27.bf keys.txt
has out "^maybe 2000$" "cuckoo b=2 f=7 has every key"
expect 0 "info cuckoo b=2 f=7" -- bf info c27.bf
has out "^bucket size: +2$" "info bucket size"
has out "^fingerprint bits: 7$" "info fingerprint bits"
has out "^format version: +2$" "a new shape is format version 2"
expect 0 "build cuckoo semi-sorted" -- bf build --quiet --family cuckoo --semisorted --fpp 0.001 -o css.bf keys.txt
expect 0 "query cuckoo semi-sorted" -- bf query --count css.bf keys.txt
has out "^maybe 2000$" "semi-sorted cuckoo has every key"
expect 0 "build cuckoo b=255" -- bf build --quiet --family cuckoo --bucket-size 255 --fingerprint-bits 32 -o c255.bf keys.txt
expect 0 "query cuckoo b=255" -- bf query --count c255.bf keys.txt
has out "^maybe 2000$" "cuckoo b=255 has every key"
expect 2 "merge cuckoo shapes" -- bf merge -o M.bf c27.bf c255.bf
has err "c255.bf: cannot merge into c27.bf: filters differ" "merge of two shapes names both files"
for bad in "--bucket-size 0" "--bucket-size 256" "--fingerprint-bits 3" "--fingerprint-bits 33"; do
  expect 2 "build cuckoo $bad" -- bf build --family cuckoo $bad -o x.bf keys.txt
done
expect 2 "--bucket-size without cuckoo" -- bf build --bucket-size 2 -o x.bf keys.txt
has err "need --family cuckoo" "shape options need cuckoo"
expect 2 "--semisorted with 2 slots" -- bf build --family cuckoo --semisorted --bucket-size 2 -o x.bf keys.txt
expect 0 "calc --family cuckoo" -- bf calc --n 1M --fpp 0.01 --family cuckoo
has out "^cuckoo shapes for 1000000 keys" "calc lists the cuckoo shapes"
has out "^4 ss " "calc lists semi-sorted buckets"
grep -Eq '^(sbbf|bloom|counting|scalable) ' out && bad "calc --family: other families listed: $(cat out)" || ok
has out "^cuckoo +1326168 " "calc --family cuckoo row"

# ---- scalable: a chain that grows, its options, its info --------------
# From 100 keys up: layers of 100, 200, 400, 800, 1600 hold the 2000 keys.
expect 0 "build scalable --n 100" -- bf build --quiet --family scalable --n 100 -o grown.bf keys.txt
expect 0 "grown chain has every key" -- bf query --count grown.bf keys.txt
has out "^maybe 2000$" "grown chain count"
expect 1 "grown chain absent keys" -- bf query --count grown.bf absent.txt
no=$(awk '$1=="no"{print $2}' out)
[ "${no:-0}" -ge 1940 ] && ok || bad "grown chain: only ${no:-?} of 2000 'no' (fpp 0.01)"
expect 0 "info grown" -- bf info grown.bf
has out "^family: +scalable$" "info grown family"
has out "^chain: +5 layers, expansion 2, ratio 0.5, target fpp 0.01$" "info grown chain line"
has out "^capacity: +3100 keys \([0-9]+ written\)$" "info grown capacity"
has out "^bound fpp: +0\.00[0-9]+ " "info grown bound"
has out "^layer 0: +capacity 100, keys 100, bytes [0-9]+, target 0.005017$" "info layer 0"
has out "^layer 4: +capacity 1600, keys [0-9]+, " "info layer 4"
[ "$(grep -c '^layer ' out)" -eq 5 ] && ok || bad "info grown: not 5 layer lines"
expect 0 "info --json grown" -- bf info --json grown.bf
if command -v python3 >/dev/null; then
  python3 -c '
import json
d = json.load(open("out"))
c = d["scalable"]
assert d["family"] == "scalable" and d["keys_inserted"] == 2000
assert c["expansion"] == 2 and c["ratio"] == 0.5 and c["fpp"] == 0.01 and c["nonscaling"] is False
L = c["layers"]
assert [l["capacity"] for l in L] == [100 * 2 ** i for i in range(5)], L
assert all(l["count"] == l["capacity"] for l in L[:-1]) and 1 <= L[-1]["count"] <= 1600
assert sum(l["count"] for l in L) == c["count"] == d["est_keys"]
assert 1950 < c["count"] <= 2000 and c["capacity"] == 3100
assert sum(l["bytes"] for l in L) == d["payload_bytes"] and d["cells"] == 8 * d["payload_bytes"]
assert d["file_bytes"] == 64 + 32 + 32 * 5 + d["payload_bytes"]
assert all(abs(L[i + 1]["fpp"] / L[i]["fpp"] - 0.5) < 1e-3 for i in range(4))
assert 0 < d["est_fpp"] < 0.02 and 0 < c["bound_fpp"] <= 0.01
' && ok || bad "info --json scalable fields: $(cat out)"
fi
# Other parameters: --expansion, --ratio.
expect 0 "build scalable --expansion 4 --ratio 0.8" -- \
  bf build --quiet --family scalable --n 100 --expansion 4 --ratio=0.8 -o e4.bf keys.txt
expect 0 "info e4" -- bf info e4.bf
has out "^chain: +3 layers, expansion 4, ratio 0.8, target fpp 0.01$" "info e4 chain line"
has out "^layer 2: +capacity 1600, " "info e4 layer 2"
expect 0 "e4 has every key" -- bf query --count e4.bf keys.txt
# Without --n the chain is reserved for exactly the keys given: one layer.
expect 0 "build scalable, counted" -- bf build --quiet --family scalable -o counted.bf keys.txt
expect 0 "info counted" -- bf info counted.bf
has out "^chain: +1 layer, " "counted chain is one layer"
cat keys.txt | bf build --quiet --family scalable -o counted-pipe.bf
cmp -s counted.bf counted-pipe.bf && ok || bad "scalable pipe build differs from file build"
# Non-scaling: exactly --n keys, then a clear error and no file.
expect 2 "nonscaling overfull" -- bf build --quiet --family scalable --n 100 --nonscaling -o ns.bf keys.txt
has err "keys.txt: line [0-9]+: filter full.*drop --nonscaling" "nonscaling overfull message"
[ ! -e ns.bf ] && ok || bad "nonscaling overfull left a file"
expect 0 "nonscaling that fits" -- bf build --quiet --family scalable --n 2000 --nonscaling -o ns.bf keys.txt
expect 0 "info nonscaling" -- bf info ns.bf
has out "^chain: +1 layer, expansion 2, ratio 0.5, target fpp 0.01, non-scaling$" "info non-scaling"
expect 0 "nonscaling has every key" -- bf query --count ns.bf keys.txt
# Keyed chains.
expect 0 "build scalable --seed" -- bf build --quiet --family scalable --n 50 --seed 7 -o sk.bf keys.txt
expect 0 "keyed chain has every key" -- bf query --count sk.bf keys.txt
expect 0 "info keyed chain" -- bf info sk.bf
has out "keyed, seed 0x0000000000000007" "keyed chain seed"
# Bad options.
for bad_opt in "--expansion 0" "--expansion 32769" "--expansion x" "--ratio 1" "--ratio 0" "--ratio -0.5"; do
  expect 2 "scalable $bad_opt" -- bf build --family scalable $bad_opt -o x.bf keys.txt
done
expect 2 "--ratio without scalable" -- bf build --ratio 0.8 -o x.bf keys.txt
has err "need --family scalable" "scalable-only option message"
expect 2 "--nonscaling with bloom" -- bf build --family bloom --nonscaling -o x.bf keys.txt
[ ! -e x.bf ] && ok || bad "refused scalable build left a file"
expect 2 "scalable to parquet" -- bf convert --to parquet grown.bf -o x.bin
has err "grown.bf: a scalable filter; only sbbf" "scalable convert message"
expect 0 "build --help names scalable options" -- bf build --help
has out "--expansion E" "build --help --expansion"
has out "--nonscaling" "build --help --nonscaling"
expect 2 "build bad family lists scalable" -- bf build --family nope -o x.bf keys.txt
has err "sbbf, bloom, counting, cuckoo, scalable or blocked" "family list from the library"

# ---- convert ----------------------------------------------------------
expect 0 "to parquet" -- bf convert --to parquet sbbf.bf -o sbbf.parquet.bin
expect 0 "back to native" -- bf convert --to native sbbf.parquet.bin -o back.bf
expect 0 "round-tripped has every key" -- bf query --count back.bf keys.txt
expect 0 "back to parquet" -- bf convert --to parquet back.bf -o again.bin
cmp -s sbbf.parquet.bin again.bin && ok || bad "parquet -> native -> parquet not identical"
# The Parquet fixture (parquet-mr/Arrow bytes): values known present/absent.
fx=$DATA/parquet/bloom_filter.xxhash.bin
expect 0 "fixture to native" -- bf convert --to native "$fx" -o fx.bf
printf 'hello\nparquet\nbloom\nfilter\n' >fx-present.txt
printf 'Hello\nworld\nNOT_EXISTS\nfoo\n' >fx-absent.txt
expect 0 "fixture present values" -- bf query --count fx.bf fx-present.txt
expect 1 "fixture absent values" -- bf query --count fx.bf fx-absent.txt
has out "^no 4$" "fixture absent values all no"
expect 0 "fixture back to parquet" -- bf convert --to parquet fx.bf -o fx.bin
cmp -s "$fx" fx.bin && ok || bad "fixture round trip not byte-identical"
expect 0 "info fixture" -- bf info fx.bf
has out "^keys inserted: +4$" "converted filter records set bits / 8 keys"
expect 2 "legacy fixture refused" -- bf convert --to native "$DATA/parquet/bloom_filter.bin" -o legacy.bf
has err "bloom_filter.bin: not a Parquet Bloom filter" "legacy refusal names file"
expect 2 "query a Parquet file" -- bf query "$fx" fx-present.txt
has err "Parquet filter, not a native one" "query of Parquet bytes explains"
expect 2 "bloom to parquet" -- bf convert --to parquet bloom.bf -o x.bin
has err "bloom.bf: a bloom filter; only sbbf" "non-sbbf convert message"
expect 2 "keyed to parquet" -- bf convert --to parquet keyed.bf -o x.bin
has err "keyed" "keyed convert message"
expect 2 "convert bad --to" -- bf convert --to csv sbbf.bf -o x.bin
expect 2 "native file to native" -- bf convert --to native sbbf.bf -o x.bf
[ ! -e x.bin ] && [ ! -e x.bf ] && ok || bad "failed convert left a file"

# ---- bad files --------------------------------------------------------
size=$(stat -c %s sbbf.bf)
head -c 100 sbbf.bf >trunc.bf
head -c 40 sbbf.bf >trunc-header.bf
{ printf 'XXXX'; tail -c +5 sbbf.bf; } >magic.bf
cp sbbf.bf corrupt.bf
printf '\125' | dd of=corrupt.bf bs=1 seek=$((size - 7)) conv=notrunc status=none
cp sbbf.bf corrupt-header.bf
printf '\377' | dd of=corrupt-header.bf bs=1 seek=20 conv=notrunc status=none
for cmd in info query; do
  k=; [ $cmd = query ] && k=keys.txt
  expect 2 "$cmd truncated" -- bf $cmd trunc.bf $k
  has err "trunc.bf: .*truncated" "$cmd truncated message"
  expect 2 "$cmd truncated header" -- bf $cmd trunc-header.bf $k
  has err "trunc-header.bf: .*truncated" "$cmd truncated-header message"
  expect 2 "$cmd wrong magic" -- bf $cmd magic.bf $k
  has err "magic.bf: .*not a recognised filter format" "$cmd magic message"
  expect 2 "$cmd corrupt header" -- bf $cmd corrupt-header.bf $k
  has err "corrupt-header.bf: .*corrupt" "$cmd corrupt header message"
  expect 2 "$cmd missing file" -- bf $cmd no-such.bf $k
  has err "no-such.bf: .*No such file or directory" "$cmd missing file message"
  expect 2 "$cmd directory" -- bf $cmd . $k
  has err "Is a directory" "$cmd directory message"
  expect 2 "$cmd empty file" -- bf $cmd empty.txt $k
  has err "empty.txt: .*truncated" "$cmd empty file message"
done
# A flipped payload bit: info verifies the payload checksum.
expect 2 "info corrupt payload" -- bf info corrupt.bf
has err "corrupt.bf: .*checksum" "info corrupt payload message"
expect 2 "merge corrupt" -- bf merge -o M.bf corrupt.bf sbbf.bf
has err "corrupt.bf" "merge names the corrupt file"
expect 2 "convert truncated parquet" -- bash -c "head -c 500 '$fx' > tp.bin; $WRAP '$BF' convert --to native tp.bin -o x.bf"
has err "tp.bin: .*truncated" "truncated parquet message"
expect 2 "save into missing directory" -- bf build --quiet -o no/such/dir/f.bf keys.txt
has err "no/such/dir/f.bf: cannot save: .*No such file or directory" "save error names file and errno"

# ---- chunked reading: every boundary ---------------------------------
# BF_CLI_CHUNK_BYTES (a testing knob) shrinks the read buffer, so that with
# small files every line straddles chunks somewhere: a key split across two
# reads, a CR and its LF in different reads, a last line without '\n' that
# starts or ends at a boundary, keys longer than the buffer, empty lines at
# boundaries. Every chunk size must give the same filter (byte for byte) and
# the same answers as the default.
long=$(head -c 5000 /dev/zero | tr '\0' 'L')
k32=$(printf '%032d' 7); k33=$(printf '%033d' 7); k64=$(printf '%064d' 7); k65=$(printf '%065d' 7)
{ printf 'a\r\nbc\r\n\r\n\n\nx\000y\r\n%s\n%s\r\n' "$long" "$k32"; printf '%s\n%s\n%s\r\n' "$k33" "$k64" "$k65"
  printf 'z\r\n\377\n\n%s\r' "$long"; } >tricky.txt
printf 'abc\ndef' >tail.txt       # a last line without '\n'
printf 'abc\r\ndef\r\n' >tailcr.txt
# Under a wrapper (valgrind: seconds a run) a sample of the sizes.
sizes="1 2 3 4 5 6 7 8 9 13 16 31 32 33 63 64 65 100"
[ -n "$WRAP" ] && sizes="1 7 64"
for crlf in "" --crlf; do
  for f in tricky.txt tail.txt tailcr.txt binary.txt; do
    bf build --quiet $crlf --fpp 0.000001 -o ref.bf "$f" >/dev/null 2>&1 || bad "build $crlf $f"
    bf query $crlf ref.bf "$f" >ref.out 2>/dev/null
    [ $? -eq 0 ] && ok || bad "query $crlf $f: not every key found"
    if [ -n "$REF" ]; then
      "$REF" $crlf ref.bf "$f" >plain.out
      cmp -s ref.out plain.out && ok || bad "query $crlf $f differs from one getline per key"
    fi
    for c in $sizes; do
      BF_CLI_CHUNK_BYTES=$c bf build --quiet $crlf --fpp 0.000001 -o c.bf "$f" >/dev/null 2>&1
      cmp -s c.bf ref.bf || bad "build $crlf $f with $c-byte chunks: another filter"
      BF_CLI_CHUNK_BYTES=$c bf query $crlf ref.bf "$f" >c.out 2>/dev/null
      cmp -s c.out ref.out || bad "query $crlf $f with $c-byte chunks: other output"
      # Standard input through a pipe: reads return what the pipe holds.
      cat "$f" | BF_CLI_CHUNK_BYTES=$c bf query $crlf ref.bf >c.out 2>/dev/null
      cmp -s c.out ref.out || bad "query $crlf $f from a pipe with $c-byte chunks: other output"
    done
    ok
  done
done
# The last line without '\n' keeps its CR even with --crlf (only "\r\n"
# loses the CR): tricky.txt ends in "LLL...\r".
bf build --quiet --crlf --fpp 0.000001 -o ref.bf tricky.txt
bf query --crlf ref.bf tricky.txt >ref.out
printf '\r\tmaybe\n' >want.out
tail -c 8 ref.out | cmp -s - want.out && ok || bad "last line's CR kept: $(tail -c 8 ref.out | od -c)"
# A nonsense knob falls back to the default chunk.
BF_CLI_CHUNK_BYTES=nonsense bf query --crlf ref.bf tricky.txt >c.out 2>/dev/null
cmp -s c.out ref.out && ok || bad "BF_CLI_CHUNK_BYTES=nonsense"

# ---- many keys: batches agree with one lookup at a time ---------------
# 300000 keys in a filter, queried with as many absent ones interleaved:
# every present key 'maybe', and every answer (the absent keys' false
# positives included) the same as one bf_filter_contains per key gives.
seq 1 300000 | sed 's/^/present-/' >big.txt
seq 1 300000 | sed 's/^/absent-/' | paste -d '\n' big.txt - >mixed.txt
expect 0 "build 300000 keys" -- bf build --quiet -o big.bf big.txt
expect 0 "every key of 300000 maybe" -- bf query --count big.bf big.txt
has out "^maybe 300000$" "300000 keys all maybe"
expect 1 "query 600000 mixed" -- bf query big.bf mixed.txt
sed 's/$/\tmaybe/' big.txt >want.out
grep $'^present-.*\t' out | cmp -s - want.out && ok || bad "present keys not all 'maybe', in order"
[ "$(wc -l <out)" -eq 600000 ] && ok || bad "600000 answers"
if [ -n "$REF" ]; then
  "$REF" big.bf mixed.txt >plain.out
  cmp -s out plain.out && ok || bad "600000 answers differ from one lookup at a time"
  BF_CLI_CHUNK_BYTES=4099 bf query big.bf mixed.txt >c.out
  cmp -s c.out plain.out && ok || bad "600000 answers with 4099-byte chunks"
fi
# The same filter from a file, a pipe (hashes buffered), and standard input
# redirected from the file (counted first, like a file).
cat big.txt | bf build --quiet -o big-pipe.bf
cmp -s big.bf big-pipe.bf && ok || bad "pipe build differs from file build"
bf build --quiet -o big-stdin.bf <big.txt
cmp -s big.bf big-stdin.bf && ok || bad "redirected stdin build differs from file build"
# Standard input already partly read: the keys from where it stands.
(read -r _; $WRAP "$BF" build --quiet -o rest.bf) <keys.txt
expect 0 "info of the rest" -- bf info rest.bf
has out "^keys inserted: +1999$" "counted from stdin's position"
# A cuckoo filter that fills up mid-batch names the exact line: the first
# key not stored, after all those before it.
expect 2 "cuckoo full mid-batch" -- bf build --quiet --family cuckoo --n 20000 -o full.bf big.txt
line=$(sed -n 's/.*big.txt: line \([0-9]*\): .* (the filter holds \([0-9]*\) keys.*/\1 \2/p' err)
[ -n "$line" ] && [ "${line% *}" -eq $((${line#* } + 1)) ] && ok || bad "cuckoo full line/held: $(cat err)"

# ---- parquet: the real files of tests/data/parquet (PROVENANCE.md) --------
pq=$DATA/parquet
dk=$pq/duckdb_bloom.parquet
mr=$pq/data_index_bloom_encoding_stats.parquet
rs=$pq/data_index_bloom_encoding_with_length.parquet
PY=/usr/bin/python3
# Listing: DuckDB, 3 row groups x 4 typed columns, statistics as typed text,
# 256-byte filters and their FPR at the recorded distinct count (128).
expect 0 "parquet list duckdb" -- bf parquet "$dk"
has out "^row groups: +3$" "parquet list: row groups"
has out "^  0 id: INT64 INTEGER\(64, signed\), OPTIONAL" "parquet list: id column"
has out "^  3 dt: INT32 DATE, OPTIONAL" "parquet list: date column"
has out "^row group 1: 2048 rows" "parquet list: row group 1"
has out "^  id: SNAPPY, 2048 values, nulls 0, min 1000, max 1254, distinct 128$" "parquet list: int stats"
has out "^  s: SNAPPY, 2048 values, nulls 0, min key-02000, max key-02254" "parquet list: string stats"
has out "^  d: SNAPPY, 2048 values, nulls 0, min 250, max 313.5" "parquet list: double stats"
has out "^  dt: SNAPPY, 2048 values, nulls 0, min 2022-09-27, max 2023-06-08" "parquet list: date stats"
has out "^      filter 256 bytes at [0-9]+, fpp 0\.00132 at 128 distinct; from its bits: fpp" "parquet list: filter fpp"
[ "$(grep -c '^      filter 256 bytes' out)" -eq 12 ] && ok || bad "parquet list: 12 filters"
# parquet-mr without bloom_filter_length and without a distinct count.
expect 0 "parquet list parquet-mr" -- bf parquet "$mr"
has out "^created by: +parquet-mr version 1.13.0-SNAPSHOT" "parquet-mr writer"
has out "^  String: GZIP, 14 values, nulls 0, min Hello, max today$" "parquet-mr stats"
has out "^      filter 1024 bytes at 192, fpp unknown \(no distinct count\)" "parquet-mr filter, unknown fpp"
expect 0 "parquet list parquet-rs" -- bf parquet "$rs"
has out "^      filter 2048 bytes at 253, fpp unknown" "parquet-rs filter"
# --json, parsed.
expect 0 "parquet list --json" -- bf parquet --json "$dk"
$PY -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["num_rows"] == 6144 and len(d["row_groups"]) == 3, d["num_rows"]
assert [c["path"] for c in d["columns"]] == ["id", "s", "d", "dt"]
assert d["columns"][3]["logical_type"] == "DATE"
for r, g in enumerate(d["row_groups"]):
    by = {c["column"]: c for c in g["chunks"]}
    assert by["id"]["min"] == 1000 * r and by["id"]["max"] == 1000 * r + 254
    assert by["d"]["min"] == 250 * r and by["d"]["max"] == 250 * r + 63.5
    assert by["s"]["min"] == "key-%05d" % (1000 * r)
    for c in g["chunks"]:
        f = c["filter"]
        assert c["null_count"] == 0 and c["distinct_count"] == 128 and c["stats_usable"]
        assert f["bitset_bytes"] == 256 and f["length"] == 272, f
        assert 0.001 < f["fpp_at_distinct"] < 0.002 and 0 < f["fill_ratio"] < 1
assert d["row_groups"][0]["chunks"][3]["min"] == "2020-01-01"
' out && ok || bad "parquet --json duckdb content"
expect 0 "parquet list --json parquet-mr" -- bf parquet --json "$mr"
$PY -c '
import json, sys
c = json.load(open(sys.argv[1]))["row_groups"][0]["chunks"][0]
assert c["distinct_count"] is None and c["filter"]["fpp_at_distinct"] is None, c
assert c["filter"]["offset"] == 192 and c["filter"]["bitset_bytes"] == 1024, c
assert c["min"] == "Hello" and c["max"] == "today" and c["codec"] == "GZIP", c
' out && ok || bad "parquet --json parquet-mr content"
# Probes, parquet-mr and parquet-rs: the 14 values are present (maybe in
# row group 0), the known-absent ones are skipped.
printf '%s\n' Hello "This is" a test How "are you" "doing " today "the quick" "brown fox" \
  jumps over "the lazy" dog >pq-present.txt
printf '%s\n' b c d NOT_EXISTS Hello_Not_Exists hello doing the quick Today "" cat fox HELLO \
  This is >pq-absent.txt
sed 's/$/\tmaybe\t0/' pq-present.txt >pq-present.want
sed 's/$/\tno/' pq-absent.txt >pq-absent.want
for f in "$mr" "$rs"; do
  n=$(basename "$f")
  expect 0 "$n present values" -- bash -c "$WRAP '$BF' parquet '$f' --column String <pq-present.txt"
  grep -v '^#' out | cmp -s - pq-present.want && ok || bad "$n: present values not all maybe in row group 0"
  has out "^# String: 0 of 14 row-group probes skipped .*; 0 of 14 values in no row group$" "$n present summary"
  expect 1 "$n absent values" -- bash -c "$WRAP '$BF' parquet '$f' --column String <pq-absent.txt"
  grep -v '^#' out | cmp -s - pq-absent.want && ok || bad "$n: absent values not all no"
  has out "^# String: 16 of 16 row-group probes skipped" "$n absent summary"
done
expect 0 "parquet values as arguments" -- bf parquet "$mr" --column String "doing " Hello dog
[ "$(grep -c $'\tmaybe\t0$' out)" -eq 3 ] && ok || bad "argument values maybe"
expect 1 "parquet one absent argument" -- bf parquet "$mr" --column String Hello NOT_EXISTS
has out $'^NOT_EXISTS\tno$' "absent argument says no"
expect 0 "parquet --hex" -- bf parquet "$mr" --column String --hex 0x48656c6c6f
has out $'^0x48656c6c6f\tmaybe\t0$' "hex value Hello"
# DuckDB: every present value of every column in its own row group only
# (disjoint statistics), and the odd values inside the statistics skipped,
# except d = 48.75 in row group 0 (a Bloom false positive DuckDB shares).
$PY -c '
import datetime, sys
d0 = datetime.date(2020, 1, 1)
def text(col, v):
    return {"id": str(v), "s": "key-%05d" % v, "d": repr(v / 4),
            "dt": (d0 + datetime.timedelta(days=v)).isoformat()}[col]
for col in ("id", "s", "d", "dt"):
    with open("dk-%s.in" % col, "w") as f, open("dk-%s.want" % col, "w") as w, \
         open("dk-%s-absent.in" % col, "w") as a, open("dk-%s-absent.want" % col, "w") as aw:
        for r in range(3):
            for k in range(128):
                t = text(col, 1000 * r + 2 * k)
                f.write(t + "\n"); w.write("%s\tmaybe\t%d\n" % (t, r))
                v = 1000 * r + 2 * k + 1
                if v > 1000 * r + 253: continue
                t = text(col, v)
                a.write(t + "\n")
                aw.write(t + ("\tmaybe\t0\n" if (col, v) == ("d", 195) else "\tno\n"))
'
for col in id s d dt; do
  expect 0 "duckdb $col present" -- bash -c "$WRAP '$BF' parquet '$dk' --column $col <dk-$col.in"
  grep -v '^#' out | cmp -s - dk-$col.want && ok || bad "duckdb $col: present values not maybe in their row group only"
  has out "^# $col: 768 of 1152 row-group probes skipped \(384 values x 3 row groups\): 768 by statistics" "duckdb $col present summary"
  expect 1 "duckdb $col absent" -- bash -c "$WRAP '$BF' parquet '$dk' --column $col <dk-$col-absent.in"
  grep -v '^#' out | cmp -s - dk-$col-absent.want && ok || bad "duckdb $col: absent values"
done
# Standard input: more values than one batch, and 7-byte read chunks.
for i in 1 2 3 4 5 6 7 8 9 10 11; do cat dk-id.in; done >dk-many.in
expect 0 "duckdb 4224 values from stdin" -- bash -c "$WRAP '$BF' parquet '$dk' --column id <dk-many.in"
for i in 1 2 3 4 5 6 7 8 9 10 11; do cat dk-id.want; done | cmp -s - <(grep -v '^#' out) && ok || bad "4224 values across batches"
has out "^# id: 8448 of 12672 row-group probes skipped" "4224 values summary"
BF_CLI_CHUNK_BYTES=7 bf parquet "$dk" --column dt <dk-dt.in >chunked.out 2>err
grep -v '^#' chunked.out | cmp -s - dk-dt.want && ok || bad "dates from stdin in 7-byte chunks"
printf 'key-00000\r\nkey-00001\r\n' >crlf.in
expect 1 "parquet --crlf" -- bash -c "$WRAP '$BF' parquet '$dk' --column s --crlf <crlf.in"
has out $'^key-00000\tmaybe\t0$' "--crlf strips the CR"
expect 0 "parquet no values on stdin" -- bash -c "$WRAP '$BF' parquet '$dk' --column id <empty.txt"
has out "^# id: 0 of 0 row-group probes skipped" "no values summary"
# Typed values: negative numbers are values, not options; NaN is never
# pruned; floats in any spelling; without statistics and filters nothing
# is skipped.
expect 1 "parquet negative value" -- bf parquet "$dk" --column id -5
has out $'^-5\tno$' "negative value"
expect 0 "parquet nan and spellings" -- bf parquet "$dk" --column d nan 6.25e1 250.0
has out $'^nan\tmaybe\t0,1,2$' "nan in every row group"
has out $'^6.25e1\tmaybe\t0$' "62.5 in row group 0"
expect 0 "parquet --no-stats --no-bloom" -- bf parquet "$dk" --column id --no-stats --no-bloom 1
has out $'^1\tmaybe\t0,1,2$' "nothing skipped without statistics and filters"
expect 1 "parquet --no-stats" -- bf parquet "$dk" --column id --no-stats 5
has out "by Bloom filter" "--no-stats summary"
has out " 0 by statistics" "--no-stats skips nothing by statistics"
expect 1 "parquet probe --json" -- bf parquet --json "$dk" --column dt 2020-01-01 2022-09-28 --no-stats
$PY -c '
import json, sys
d = json.load(open(sys.argv[1]))
v = d["values"]
assert d["column"] == "dt" and d["logical_type"] == "DATE" and d["row_groups"] == 3
assert v[0]["input"] == "2020-01-01" and v[0]["value"] == "2020-01-01" and v[0]["row_groups"] == [0]
assert v[1]["row_groups"] == [] and "skip-stats" not in v[1]["verdicts"], v[1]
assert d["summary"]["values"] == 2 and d["summary"]["in_no_row_group"] == 1
assert d["summary"]["skipped_stats"] == 0
' out && ok || bad "parquet probe --json content"
# Errors: exit 2 and a message that says what is wrong.
expect 2 "parquet missing column" -- bf parquet "$dk" --column nope 1
has err "duckdb_bloom.parquet: no column 'nope'" "missing column named"
has err "the columns are: id s d dt" "missing column lists the columns"
expect 2 "parquet bad integer" -- bf parquet "$dk" --column id 12x
has err "'12x' is not a valid value for column id \(INT64 INTEGER\)" "bad integer message"
expect 2 "parquet bad date" -- bf parquet "$dk" --column dt 2020-02-30
has err "'2020-02-30' is not a valid value for column dt \(INT32 DATE\)" "bad date message"
printf '5\nfive\n' >bad.in
expect 2 "parquet bad value on stdin" -- bash -c "$WRAP '$BF' parquet '$dk' --column id <bad.in"
has err "\(stdin\): line 2: 'five' is not a valid value" "bad stdin value names the line"
expect 2 "parquet encrypted" -- bf parquet "$pq/encrypt_columns_and_footer_bloom_filter.parquet.encrypted"
has err "encrypted Parquet file .*not supported" "encrypted file message"
expect 2 "parquet encrypted probe" -- bf parquet "$pq/encrypt_columns_and_footer_bloom_filter.parquet.encrypted" --column double_field 0.5
has err "encrypted" "encrypted probe message"
expect 2 "parquet of a filter file" -- bf parquet "$pq/bloom_filter.xxhash.bin"
has err "bloom_filter.xxhash.bin: not a Parquet file" "filter bytes are not a Parquet file"
expect 2 "parquet of a text file" -- bf parquet keys.txt
has err "keys.txt: not a Parquet file" "text file message"
head -c 2000 "$dk" >pq-trunc.parquet
expect 2 "parquet truncated" -- bf parquet pq-trunc.parquet
has err "pq-trunc.parquet: .*truncated" "truncated Parquet message"
expect 2 "parquet empty file" -- bf parquet empty.txt
expect 2 "parquet missing file" -- bf parquet no-such.parquet
has err "no-such.parquet: .*No such file or directory" "missing Parquet file message"
expect 2 "parquet value without --column" -- bf parquet "$dk" 5
expect 2 "parquet --column without path" -- bf parquet "$dk" --column
expect 2 "parquet --hex without --column" -- bf parquet --hex "$dk"
expect 2 "parquet no file" -- bf parquet

echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
