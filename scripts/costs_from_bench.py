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
candidate and size measured more than once are averaged.

The design-space series (`design/<layout>-k<k>/contains_batch/pos50/n:N/
bpk:B`, bench/design.cc) gives the blocked shapes' batch lookups, named as
the chooser names them (blocked-<block_bits>-<sectors>-<groups>-k<k>, from
the row's counters). Its filters are n x bits/key in size, not the table's
sizes, so each shape gets a row at each size class of `blockfilter
calibrate` (32 KiB, 512 KiB, 2 MiB, 8 MiB, 128 MiB, 1 GiB) that lies within the sizes
it was measured at, interpolated linearly in log2(bytes) between the
nearest measured sizes on either side, the chooser's own rule: the rows
then replace calibrated ones size for size. No class is extrapolated. The
design rows ran with the run's own kernel; with --kernel naming another,
they are left out.

The machine line is the run's CPU model, kernel and library version, as
`bf_machine_name` writes it, so `blockfilter calc` says when the table is
another machine's.
"""
import argparse
import collections
import json
import math
import re
import sys

# The sizes `blockfilter calibrate` measures (lib/choose/calibrate.c).
SIZE_CLASSES = (1 << 15, 1 << 19, 1 << 21, 1 << 23, 1 << 27, 1 << 30)


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


def at_classes(measured):
    """{bytes: ns} measured for one shape -> {class bytes: ns} for each
    size class within the measured sizes, linear in log2(bytes) between
    the nearest measured size at or below and at or above."""
    sizes = sorted(measured)
    out = {}
    for c in SIZE_CLASSES:
        lo = max((b for b in sizes if b <= c), default=None)
        hi = min((b for b in sizes if b >= c), default=None)
        if lo is None or hi is None:
            continue
        if lo == hi:
            out[c] = measured[lo]
            continue
        x, x0, x1 = math.log2(c), math.log2(lo), math.log2(hi)
        out[c] = measured[lo] + (measured[hi] - measured[lo]) * (x - x0) / (x1 - x0)
    return out


def design_rows(benchmarks):
    """The design series' batch lookups: {candidate: {class bytes: ns}}."""
    pattern = re.compile(r"^design/[^/]+/contains_batch/pos50/n:\d+/bpk:\d+(/|$)")
    shapes = collections.defaultdict(lambda: collections.defaultdict(list))
    for b in benchmarks:
        if not pattern.match(b.get("name", "")):
            continue
        if b.get("run_type", "iteration") != "iteration" or "ns_per_op" not in b:
            continue
        try:
            shape = tuple(int(b[c]) for c in ("block_bits", "sectors", "groups", "k"))
            nbytes = int(b["bytes"])
        except (KeyError, TypeError, ValueError):
            continue
        shapes["blocked-%d-%d-%d-k%d" % shape][nbytes].append(float(b["ns_per_op"]))
    out = {}
    for name, by_size in shapes.items():
        mean = {nb: sum(ns) / len(ns) for nb, ns in by_size.items()}
        rows = at_classes(mean)
        if rows:
            out[name] = rows
    return out, len(shapes)


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
    auto = ctx.get("bf_kernel_auto", "scalar")
    design, shapes = design_rows(run.get("benchmarks", []))
    if shapes and kernel != auto:
        print("%s: design rows left out: measured with kernel %s, not %s"
              % (args.json, auto, kernel), file=sys.stderr)
        design = {}
    elif shapes and not design:
        print("%s: design rows left out: no shape was measured on both sides of "
              "a size class (%s bytes); run the design series over more n "
              "(--bf_design_n)" % (args.json, ", ".join(str(c) for c in SIZE_CLASSES)),
              file=sys.stderr)
    for name, by_class in design.items():
        for nbytes, ns in by_class.items():
            rows[(name, nbytes)].append(ns)
    if not rows:
        sys.exit("%s: no single-thread batch lookups of absent keys and no design-space "
                 "lookups" % args.json)
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
