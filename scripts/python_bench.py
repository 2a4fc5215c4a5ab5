#!/usr/bin/python3
"""Side-by-side speed of the Python package (scripts/python-bench.sh runs it).

Single keys: a Python loop of `f.add(k)` over n keys into a filter sized for
n at 1 %, then a loop of `k in f` over n queries (half present, half
absent, shuffled), per key, for blockfilter.SBBF, pybloomfiltermmap3's
BloomFilter (--peer: the folder holding its built extension; skipped when
absent) and a Python set. Each repetition builds every contender afresh, in
a rotated order, so that load on the machine falls on all of them alike.

Batch: SBBF.contains_many over an int64 NumPy array of n queries, against
the library's own bf_sbbf_contains_int64s on the same array and a filter of
the same keys and size, called through ctypes from libblockfilter.so
(--lib; one call per pass, so the ctypes overhead is a microsecond against
milliseconds).

Prints the table and writes the raw timings (every repetition) as JSON.
"""
import argparse
import ctypes
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import time

import numpy as np


def ns_per_key(fn, n):
    t = time.perf_counter_ns()
    fn()
    return (time.perf_counter_ns() - t) / n


def make_keys(kind, n, rng):
    present = rng.integers(1, 2**62, n, dtype=np.int64)
    absent = rng.integers(2**62, 2**63 - 1, n // 2, dtype=np.int64)
    order = rng.permutation(n)
    queries = np.concatenate([present[order[: n - n // 2]], absent])[rng.permutation(n)]
    if kind == "int":
        return present, present.tolist(), queries, queries.tolist()
    # 16 hexadecimal digits: the CLI benchmark's keys
    to_str = lambda a: ["%016x" % v for v in a.tolist()]  # noqa: E731
    return present, to_str(present), queries, to_str(queries)


class Contender:
    def __init__(self, name, make):
        self.name, self.make = name, make


def contenders(peer):
    import blockfilter
    out = [Contender("blockfilter", lambda n, fpp: blockfilter.SBBF(n, fpp))]
    if peer:
        import pybloomfilter
        out.append(Contender("pybloomfiltermmap3", lambda n, fpp: pybloomfilter.BloomFilter(n, fpp)))
    out.append(Contender("set", lambda n, fpp: set()))
    return out


def single_runs(cs, kind, n, fpp, repeats, rng, log):
    present, keys, qarr, queries = make_keys(kind, n, rng)
    absent = set(qarr[~np.isin(qarr, present)].tolist()) if kind == "int" else None
    res = {c.name: {"add": [], "in": []} for c in cs}
    fpr = {}
    for r in range(repeats):
        order = cs[r % len(cs):] + cs[: r % len(cs)]
        for c in order:
            f = c.make(n, fpp)
            add = f.add
            gc.disable()

            def adds():
                for k in keys:
                    add(k)

            def lookups():
                for k in queries:
                    k in f  # noqa: B015

            a = ns_per_key(adds, n)
            q = ns_per_key(lookups, n)
            gc.enable()
            res[c.name]["add"].append(a)
            res[c.name]["in"].append(q)
            if r == 0 and c.name != "set" and kind == "int":
                fp = sum(1 for k in absent if k in f)
                fpr[c.name] = fp / len(absent)
            del f, add
            gc.collect()
        log("  %s n=%d rep %d/%d: %s" % (kind, n, r + 1, repeats, ", ".join(
            "%s add %.0f in %.0f" % (c.name, res[c.name]["add"][-1], res[c.name]["in"][-1])
            for c in cs)))
    return res, fpr


def batch_runs(libpath, n, fpp, repeats, rng, log):
    import blockfilter
    lib = ctypes.CDLL(libpath)
    vp, sz = ctypes.c_void_p, ctypes.c_size_t
    lib.bf_sbbf_new.argtypes = [ctypes.POINTER(vp), ctypes.c_uint64, ctypes.c_double]
    lib.bf_sbbf_insert_int64s.argtypes = [vp, vp, sz]
    lib.bf_sbbf_contains_int64s.argtypes = [vp, vp, sz, vp]
    lib.bf_sbbf_contains_int64s.restype = sz
    lib.bf_sbbf_num_bytes.argtypes = [vp]
    lib.bf_sbbf_num_bytes.restype = sz
    lib.bf_sbbf_bitset.argtypes = [vp]
    lib.bf_sbbf_bitset.restype = vp
    lib.bf_sbbf_kernel.argtypes = [vp]
    lib.bf_sbbf_kernel.restype = ctypes.c_char_p
    lib.bf_sbbf_free.argtypes = [vp]
    present, _, queries, _ = make_keys("int", n, rng)
    cf = vp()
    assert lib.bf_sbbf_new(ctypes.byref(cf), n, fpp) == 0
    assert lib.bf_sbbf_insert_int64s(cf, present.ctypes.data, n) == 0
    pf = blockfilter.SBBF(n, fpp)
    pf.add_many(present)
    # The same filter both ways, bit for bit.
    assert ctypes.string_at(lib.bf_sbbf_bitset(cf), lib.bf_sbbf_num_bytes(cf)) == bytes(pf.bitset)
    out_c = np.empty(n, dtype=np.uint8)
    out_py = np.empty(n, dtype=bool)
    res = {"python": [], "c": []}
    for r in range(repeats):
        pair = [("python", lambda: pf.contains_many(queries, out=out_py)),
                ("c", lambda: lib.bf_sbbf_contains_int64s(cf, queries.ctypes.data, n,
                                                           out_c.ctypes.data))]
        if r % 2:
            pair.reverse()
        for name, fn in pair:
            res[name].append(ns_per_key(fn, n))
        log("  contains_many n=%d rep %d/%d: python %.2f ns/key, C %.2f ns/key"
            % (n, r + 1, repeats, res["python"][-1], res["c"][-1]))
    assert (out_c.astype(bool) == out_py).all()
    kernel = lib.bf_sbbf_kernel(cf).decode()
    lib.bf_sbbf_free(cf)
    return res, {"kernel": kernel, "bytes": pf.nbytes}


def summary(xs):
    return {"median": statistics.median(xs), "min": min(xs), "max": max(xs), "runs": xs}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--peer", help="folder with pybloomfiltermmap3's built pybloomfilter module")
    ap.add_argument("--lib", help="libblockfilter.so for the C batch reference")
    ap.add_argument("--n", default="1000000,10000000", help="key counts (comma-separated)")
    ap.add_argument("--keys", default="int,str", help="key kinds: int, str")
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--fpp", type=float, default=0.01)
    ap.add_argument("--json", help="write the raw results here")
    args = ap.parse_args()
    log = lambda s: print(s, file=sys.stderr, flush=True)  # noqa: E731

    peer_info = None
    if args.peer and os.path.isdir(args.peer):
        sys.path.insert(0, os.path.abspath(args.peer))
        try:
            import pybloomfilter
            peer_info = {"path": os.path.abspath(args.peer),
                         "version": ".".join(map(str, pybloomfilter.VERSION))}
            try:
                peer_info["commit"] = subprocess.run(
                    ["git", "-C", args.peer, "rev-parse", "HEAD"], capture_output=True,
                    text=True).stdout.strip() or None
            except OSError:
                pass
        except ImportError as e:
            log("pybloomfiltermmap3 not importable from %s (%s): skipped" % (args.peer, e))
    elif args.peer:
        log("no folder %s: pybloomfiltermmap3 skipped" % args.peer)

    import blockfilter
    rng = np.random.default_rng(2024)
    cs = contenders(peer_info is not None)
    ns = [int(float(x)) for x in args.n.split(",")]
    out = {"context": {
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "python": sys.version.split()[0], "executable": sys.executable,
        "numpy": np.__version__, "blockfilter": blockfilter.__version__,
        "kernel": blockfilter.default_kernel(), "single_key_isa": blockfilter._core.single_key_isa,
        "machine": platform.machine(), "cpu": _cpu(), "nproc": os.cpu_count(),
        "loadavg_start": os.getloadavg(), "peer": peer_info, "fpp": args.fpp,
        "repeats": args.repeats}, "single": {}, "batch": {}}
    for kind in args.keys.split(","):
        for n in ns:
            log("single keys: %s, n = %d" % (kind, n))
            res, fpr = single_runs(cs, kind, n, args.fpp, args.repeats, rng, log)
            out["single"]["%s/%d" % (kind, n)] = {
                name: {op: summary(v) for op, v in ops.items()} for name, ops in res.items()}
            out["single"]["%s/%d" % (kind, n)]["fpr"] = fpr
    if args.lib:
        for n in ns:
            log("batch: n = %d" % n)
            res, info = batch_runs(args.lib, n, args.fpp, args.repeats, rng, log)
            out["batch"]["int64/%d" % n] = dict(info, **{k: summary(v) for k, v in res.items()})
    out["context"]["loadavg_end"] = os.getloadavg()
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(out, fh, indent=1)
    print(table(out))


def _cpu():
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def table(out):
    """The results as Markdown tables: ns per key, median (min–max)."""
    fmt = lambda s: "%.0f (%.0f–%.0f)" % (s["median"], s["min"], s["max"])  # noqa: E731
    lines = ["Single keys, ns per key, median (min–max) of %d runs; ratio = blockfilter / "
             "pybloomfiltermmap3 (medians)." % out["context"]["repeats"], "",
             "| keys | n | operation | blockfilter | pybloomfiltermmap3 | set | ratio |",
             "|---|---:|---|---:|---:|---:|---:|"]
    for key, res in out["single"].items():
        kind, n = key.split("/")
        for op in ("add", "in"):
            b = res["blockfilter"][op]
            p = res.get("pybloomfiltermmap3", {}).get(op)
            s = res["set"][op]
            ratio = "%.2f" % (b["median"] / p["median"]) if p else "—"
            lines.append("| %s | 10^%d | `%s` | %s | %s | %s | %s |" % (
                kind, len(n) - 1, "f.add(k)" if op == "add" else "k in f", fmt(b),
                fmt(p) if p else "—", fmt(s), ratio))
    fprs = {k: v["fpr"] for k, v in out["single"].items() if v.get("fpr")}
    if fprs:
        lines += ["", "False-positive rate measured on the absent half of the queries "
                  "(target %g):" % out["context"]["fpp"], ""]
        for k, v in fprs.items():
            lines.append("- %s: %s" % (k, ", ".join("%s %.3f %%" % (c, 100 * x)
                                                       for c, x in v.items())))
    if out["batch"]:
        lines += ["", "Batch lookups, int64 array, ns per key, median (min–max):", "",
                  "| n | SBBF.contains_many | bf_sbbf_contains_int64s (C) | ratio |",
                  "|---:|---:|---:|---:|"]
        f2 = lambda s: "%.2f (%.2f–%.2f)" % (s["median"], s["min"], s["max"])  # noqa: E731
        for key, r in out["batch"].items():
            n = key.split("/")[1]
            lines.append("| 10^%d | %s | %s | %.2f |" % (len(n) - 1, f2(r["python"]), f2(r["c"]),
                                                       r["python"]["median"] / r["c"]["median"]))
    return "\n".join(lines)


if __name__ == "__main__":
    main()
