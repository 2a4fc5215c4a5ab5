#!/usr/bin/python3
"""A cost table for the chooser from a benchmark run's JSON.

    scripts/costs_from_bench.py results/<machine>/<run>.json > costs.txt
    blockfilter calibrate --from costs.txt

Takes the batch lookups of absent keys with the hash outside the timing
(`<family>/<kernel>/contains_batch/pos0/hash_excl/...`, one thread), the
same measure `blockfilter calibrate` takes, and writes one row per
candidate and filter size in the cost-table format of docs/chooser.md:
the SBBF's rows of the run's own kernel (--kernel to pick another), and the
cuckoo rows under the name of their shape (cuckoo-b4-f<bits>, the
fingerprint size read back from the filter's bytes and keys). Rows of one
candidate and size measured more than once are averaged. The machine line
is the run's CPU model, kernel and library version, as `bf_machine_name`
writes it, so `blockfilter calc` says when the table is another machine's.
"""
import argparse
import collections
import json
import re
import sys


def cuckoo_bits(n, nbytes):
    """The fingerprint bits of a 4-slot cuckoo table of nbytes holding n
    keys: an even number of whole buckets at a load of at most 1; the
    fullest of those when more than one fits."""
    best = None
    for f in (8, 12, 16):
        per = f // 2
        if nbytes % per:
            continue
        buckets = nbytes // per
        load = n / (4 * buckets)
        if buckets % 2 or load > 1:
            continue
        if best is None or load > best[1]:
            best = (f, load)
    return best[0] if best else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("json", help="a benchmark run (scripts/bench.sh)")
    ap.add_argument("--kernel", help="the SBBF kernel whose rows to take "
                    "(default: the run's own choice, bf_kernel_auto)")
    args = ap.parse_args()
    with open(args.json) as fp:
        run = json.load(fp)
    ctx = run.get("context", {})
    kernel = args.kernel or ctx.get("bf_kernel_auto", "scalar")
    pattern = re.compile(r"^(sbbf|cuckoo)/([^/]+)/contains_batch/pos0/hash_excl/"
                         r"n:(\d+)/fpp:[^/]+/threads:1/")
    rows = collections.defaultdict(list)
    for b in run.get("benchmarks", []):
        m = pattern.match(b.get("name", ""))
        if not m or b.get("run_type", "iteration") != "iteration" or "ns_per_op" not in b:
            continue
        family, kern, n = m.group(1), m.group(2), int(m.group(3))
        nbytes = int(b["bytes"])
        if family == "sbbf":
            if kern != kernel:
                continue
            name = "sbbf"
        else:
            f = cuckoo_bits(n, nbytes)
            if f is None:
                continue
            name = "cuckoo-b4-f%d" % f
        rows[(name, nbytes)].append(float(b["ns_per_op"]))
    if not rows:
        sys.exit("%s: no single-thread batch lookups of absent keys" % args.json)
    machine = "%s; kernel %s; blockfilter %s" % (
        ctx.get("bf_cpu_model", "unknown CPU"), kernel,
        ctx.get("bf_library_version", "unknown"))
    print("blockfilter-costs 1")
    print("machine " + re.sub(r"[\x00-\x1f\x7f]", " ", machine))
    for (name, nbytes), ns in sorted(rows.items()):
        print("row %s %d %.6g" % (name, nbytes, sum(ns) / len(ns)))
    print("end")


if __name__ == "__main__":
    main()
