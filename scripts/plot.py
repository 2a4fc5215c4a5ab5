#!/usr/bin/python3
"""Plots and a summary table from blockfilter_bench JSON results.

  plot.py RESULT.json [--outdir DIR]      the figures, PNG and SVG, into DIR
                                          (default: the JSON's folder)
  plot.py RESULT.json --summary           the summary table on stdout
  plot.py --compare A.json B.json [--outdir DIR]
                                          two runs (machines or commits) in one figure

Figures: 1 lookup ns/op vs n with the memory limit; 2 measured FPR vs
bits/key with each family's model curve; 3 Pareto front (bits/key,
ns/lookup) at fixed fpp; 4 throughput vs threads; 5 insert ns/op vs n;
6 the SBBF kernels against the memory limit at fixed filter sizes.
"""
import argparse
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402

REF_FPP = 0.01


# --------------------------------------------------------------------------
# Loading
def load(path):
    with open(path) as f:
        data = json.load(f)
    ctx = data.get("context", {})
    rows = []
    entries = data.get("benchmarks", [])
    # With --benchmark_repetitions, use each benchmark's median.
    medians = {b["run_name"] for b in entries if b.get("aggregate_name") == "median"}
    for b in entries:
        if b.get("error_occurred"):
            continue
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") != "median":
                continue
        elif b.get("run_name", b["name"]) in medians:
            continue
        parts = b.get("run_name", b["name"]).split("/")
        r = dict(b)
        r["parts"] = parts
        if parts[0] == "memlimit":
            r["kind"] = "memlimit"
        elif parts[0] == "kernel":
            r["kind"] = "kernel"
            r["kernel"] = parts[1]
            r["op"] = parts[2]
        else:
            r["kind"] = "matrix"
            r["series"] = parts[0] + "/" + parts[1]
            r["family"] = parts[0]
            r["op"] = parts[2]
            i = 3
            if parts[3].startswith("pos"):
                i = 4
            r["hash"] = parts[i]
        rows.append(r)
    return ctx, rows


def machine_name(ctx):
    model = ctx.get("bf_cpu_model", "unknown CPU")
    cores = ctx.get("bf_hwloc_cores", ctx.get("num_cpus", "?"))
    return "%s, %s cores" % (model, cores)


def series_label(s):
    fam, ker = s.split("/", 1)
    return fam if ker == "-" else "%s (%s)" % (fam, ker)


def ref_fpp(rows):
    fpps = sorted({r["fpp"] for r in rows if r["kind"] == "matrix"})
    if not fpps:
        return REF_FPP
    return min(fpps, key=lambda f: abs(math.log(f / REF_FPP)))


def by_n(rs, key="ns_per_op"):
    """(n, value) pairs, one per n (the first measured), sorted by n."""
    out = {}
    for r in rs:
        out.setdefault(r["n"], r[key])
    return sorted(out.items())


def pick(rows, **kw):
    out = []
    for r in rows:
        ok = True
        for k, v in kw.items():
            rv = r.get(k)
            if isinstance(v, float):
                if rv is None or abs(rv - v) > 1e-12 * max(1, abs(v)):
                    ok = False
            elif rv != v:
                ok = False
        if ok:
            out.append(r)
    return out


def series_list(rows):
    seen = []
    for r in rows:
        if r["kind"] == "matrix" and r["series"] not in seen:
            seen.append(r["series"])
    return seen


STYLE = {}
COLORS = plt.rcParams["axes.prop_cycle"].by_key()["color"]


def color(series):
    if series not in STYLE:
        STYLE[series] = COLORS[len(STYLE) % len(COLORS)]
    return STYLE[series]


PREFIX = [""]


def save(fig, outdir, name):
    """Writes DIR/<result stem>-<name>.{png,svg}."""
    name = PREFIX[0] + name
    os.makedirs(outdir, exist_ok=True)
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(outdir, "%s.%s" % (name, ext)), dpi=120, bbox_inches="tight")
    plt.close(fig)
    print("plot.py: wrote %s/%s.{png,svg}" % (outdir, name))


def kernel_note(ctx):
    return "auto kernel: %s" % ctx.get("bf_kernel_auto", "?")


# --------------------------------------------------------------------------
# 1. Lookup ns/op against n, with the memory limit.
def draw_lookup(ax, ctx, rows, fpp, tag="", ls_single="-", ls_batch="--", alpha=1.0):
    lim = {}
    for s in series_list(rows):
        for op, ls, mk in (("contains_single", ls_single, "o"), ("contains_batch", ls_batch, "^")):
            pts = by_n(pick(rows, kind="matrix", series=s, op=op, hash="hash_excl", fpp=fpp, pos_pct=50.0,
                            threads=1.0))
            if not pts:
                continue
            ax.plot([p[0] for p in pts], [p[1] for p in pts], ls, marker=mk, color=color(s), alpha=alpha,
                    label="%s%s, %s" % (tag, series_label(s), "batch" if "batch" in op else "single"))
        if s.startswith("sbbf/") and not lim:
            for r in pick(rows, kind="matrix", series=s, op="contains_batch", hash="hash_excl", fpp=fpp, threads=1.0):
                if "mem_limit_ns" in r:
                    lim[r["n"]] = r["mem_limit_ns"]
    if lim:
        xs = sorted(lim)
        ax.plot(xs, [lim[x] for x in xs], ":", color="black", linewidth=2, alpha=alpha,
                label="%smemory limit (random 64 B read, SBBF-sized buffer)" % tag)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("keys in the filter, n")
    ax.set_ylabel("lookup time (ns/op), 50% positives")
    ax.grid(True, which="both", alpha=0.3)


def plot_lookup(ctx, rows, outdir):
    fpp = ref_fpp(rows)
    fig, ax = plt.subplots(figsize=(9, 6))
    draw_lookup(ax, ctx, rows, fpp)
    ax.set_title("Lookup time vs n (fpp %g) — %s; %s" % (fpp, machine_name(ctx), kernel_note(ctx)), fontsize=10)
    ax.legend(fontsize=7, ncol=2)
    save(fig, outdir, "1-lookup-vs-n")


# 2. Measured FPR against bits/key, with the model curves.
def parse_curve(s):
    pts = []
    for item in (s or "").split(";"):
        if ":" in item:
            a, b = item.split(":")
            pts.append((float(a), float(b)))
    return pts


def plot_fpr(ctx, rows, outdir):
    fig, ax = plt.subplots(figsize=(9, 6))
    done = set()
    xmax = 50.0
    for s in series_list(rows):
        fam = s.split("/")[0]
        pts = {}
        for r in pick(rows, kind="matrix", series=s):
            pts[(r["n"], r["fpp"])] = (r["bits_per_key"], r["fpr_measured"])
        if not pts:
            continue
        xs, ys = zip(*sorted(pts.values()))
        xmax = max(xmax, max(xs) * 1.1)
        ax.scatter(xs, [max(y, 1e-7) for y in ys], color=color(s), s=18, label="%s measured" % series_label(s), zorder=3)
        cf = "sbbf" if fam.startswith("sbbf") else fam
        if cf not in done:
            curve = parse_curve(ctx.get("bf_model_curve_%s" % cf))
            if curve:
                ax.plot([c[0] for c in curve], [c[1] for c in curve], "-", color=color(s), alpha=0.6,
                        label="%s model (n = 10^6)" % cf)
            done.add(cf)
    ax.set_yscale("log")
    ax.set_xlabel("space (bits per key actually used)")
    ax.set_ylabel("false-positive rate (measured on separate negative keys)")
    ax.set_xlim(0, min(xmax, 80))
    ax.set_ylim(1e-6, 1)
    ax.grid(True, which="both", alpha=0.3)
    ax.set_title("FPR vs space: the blocked layout's penalty — %s" % machine_name(ctx), fontsize=10)
    ax.legend(fontsize=7, ncol=2)
    save(fig, outdir, "2-fpr-vs-bits")


# 3. Pareto front of (bits/key, ns/lookup) at fixed fpp, largest n.
def plot_pareto(ctx, rows, outdir):
    fpps = sorted({r["fpp"] for r in rows if r["kind"] == "matrix"}, reverse=True)
    if not fpps:
        return
    fig, axes = plt.subplots(1, len(fpps), figsize=(4.5 * len(fpps), 4.5), squeeze=False)
    for ax, fpp in zip(axes[0], fpps):
        nmax = max(r["n"] for r in pick(rows, kind="matrix", fpp=fpp))
        pts = []
        for s in series_list(rows):
            for op, mk in (("contains_single", "o"), ("contains_batch", "^")):
                rs = pick(rows, kind="matrix", series=s, op=op, hash="hash_excl", fpp=fpp, n=nmax, pos_pct=50.0,
                          threads=1.0)
                for r in rs:
                    ax.scatter(r["bits_per_key"], r["ns_per_op"], marker=mk, color=color(s), s=40,
                               label="%s, %s" % (series_label(s), "batch" if "batch" in op else "single"))
                    pts.append((r["bits_per_key"], r["ns_per_op"]))
        pts.sort()
        front, best = [], float("inf")
        for x, y in pts:
            if y < best:
                front.append((x, y))
                best = y
        if front:
            ax.step([p[0] for p in front], [p[1] for p in front], where="post", color="gray", alpha=0.6,
                    label="Pareto front")
        ax.set_yscale("log")
        ax.set_xlabel("space (bits per key)")
        ax.set_ylabel("lookup time (ns/op)")
        ax.set_title("fpp %g, n = %.0e" % (fpp, nmax), fontsize=9)
        ax.grid(True, which="both", alpha=0.3)
    axes[0][0].legend(fontsize=6)
    fig.suptitle("Speed vs space at fixed fpp — %s; %s" % (machine_name(ctx), kernel_note(ctx)), fontsize=10)
    save(fig, outdir, "3-pareto")


# 4. Throughput against threads.
def plot_threads(ctx, rows, outdir):
    ns = sorted({r["n"] for r in rows if r["kind"] == "matrix" and r["threads"] > 1})
    if not ns:
        ns = sorted({r["n"] for r in rows if r["kind"] == "matrix" and r["op"] == "insert_concurrent"})
    if not ns:
        return
    fig, axes = plt.subplots(1, len(ns), figsize=(7 * len(ns), 5), squeeze=False)
    for ax, n in zip(axes[0], ns):
        for s in series_list(rows):
            for op, ls, mk in (("contains_single", "-", "o"), ("contains_batch", "--", "^"),
                               ("insert_concurrent", ":", "s")):
                rs = pick(rows, kind="matrix", series=s, op=op, n=n, hash="hash_excl")
                rs = [r for r in rs if op == "insert_concurrent" or r.get("pos_pct") == 50.0]
                pts = sorted({r["threads"]: r["ops_per_s"] for r in rs}.items())
                if len(pts) < 1 or (op != "insert_concurrent" and not any(r["threads"] > 1 for r in rs)):
                    continue
                ax.plot([p[0] for p in pts], [p[1] / 1e6 for p in pts], ls, marker=mk, color=color(s),
                        label="%s, %s" % (series_label(s), op.replace("_", " ")))
        ax.set_xlabel("threads (one per core, pinned)")
        ax.set_ylabel("throughput (million ops/s, all threads)")
        ax.set_yscale("log")
        ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
        ax.set_title("n = %.0e, fpp 1%%" % n, fontsize=9)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=6)
    fig.suptitle("Throughput vs threads (shared filter) — %s; %s" % (machine_name(ctx), kernel_note(ctx)),
                 fontsize=10)
    save(fig, outdir, "4-threads")


# 5. Insert ns/op against n.
def draw_insert(ax, rows, fpp, tag="", alpha=1.0):
    for s in series_list(rows):
        for op, ls, mk in (("insert_single", "-", "o"), ("insert_batch", "--", "^")):
            pts = by_n(pick(rows, kind="matrix", series=s, op=op, hash="hash_excl", fpp=fpp, threads=1.0))
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], ls, marker=mk, color=color(s), alpha=alpha,
                        label="%s%s, %s" % (tag, series_label(s), "batch" if "batch" in op else "single"))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("keys inserted, n (from an empty filter)")
    ax.set_ylabel("insert time (ns/op)")
    ax.grid(True, which="both", alpha=0.3)


def plot_insert(ctx, rows, outdir):
    fpp = ref_fpp(rows)
    fig, ax = plt.subplots(figsize=(9, 6))
    draw_insert(ax, rows, fpp)
    ax.set_title("Insert time vs n (fpp %g) — %s; %s" % (fpp, machine_name(ctx), kernel_note(ctx)), fontsize=10)
    ax.legend(fontsize=7, ncol=2)
    save(fig, outdir, "5-insert-vs-n")


# 6. SBBF kernels at fixed sizes against the memory limit.
def plot_kernels(ctx, rows, outdir):
    ks = pick(rows, kind="kernel")
    if not ks:
        return
    kernels = []
    for r in ks:
        if r["kernel"] not in kernels:
            kernels.append(r["kernel"])
    sizes = sorted({r["bytes"] for r in ks})
    fig, axes = plt.subplots(1, 2, figsize=(13, 5))
    for ax, op in zip(axes, ("contains", "insert")):
        width = 0.8 / (2 * len(kernels) + 1)
        for ki, k in enumerate(kernels):
            for bi, mode in enumerate(("single", "batch")):
                name = "%s_%s" % (op, mode)
                ys = []
                for sz in sizes:
                    rs = [r for r in ks if r["kernel"] == k and r["op"] == name and r["bytes"] == sz and
                          r.get("pos_pct") in (50.0, 100.0)]
                    rs = [r for r in rs if r.get("pos_pct") == (50.0 if op == "contains" else 100.0)]
                    ys.append(rs[0]["ns_per_key"] if rs else float("nan"))
                xs = [i + (2 * ki + bi) * width for i in range(len(sizes))]
                ax.bar(xs, ys, width, label="%s %s" % (k, mode), color=COLORS[(2 * ki + bi) % len(COLORS)])
        lim = []
        for sz in sizes:
            rs = [r for r in ks if r["bytes"] == sz and "mem_limit_ns" in r]
            lim.append(rs[0]["mem_limit_ns"] if rs else float("nan"))
        xs = [i + (2 * len(kernels)) * width for i in range(len(sizes))]
        ax.bar(xs, lim, width, color="black", label="memory limit (random 64 B read)")
        ax.set_xticks([i + len(kernels) * width for i in range(len(sizes))])
        ax.set_xticklabels([human_bytes(s) for s in sizes])
        ax.set_xlabel("filter size (10 bits/key)")
        ax.set_ylabel("ns per key (hashes precomputed)")
        ax.set_yscale("log")
        ax.set_title("%s%s" % (op, " (50% positives)" if op == "contains" else ""), fontsize=9)
        ax.grid(True, axis="y", which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle("SBBF kernels vs the memory limit — %s; %s" % (machine_name(ctx), kernel_note(ctx)), fontsize=10)
    save(fig, outdir, "6-kernels")


def human_bytes(b):
    for unit, div in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= div and b % div == 0:
            return "%d %s" % (b // div, unit)
    return "%d B" % b


# --------------------------------------------------------------------------
def summary(ctx, rows):
    fpp = ref_fpp(rows)
    print("Machine: %s; %s; commit %s; %s" % (machine_name(ctx), kernel_note(ctx), ctx.get("bf_commit", "?"),
                                             ctx.get("bf_date_utc", "")))
    print()
    hdr = ("family/kernel", "n", "fpp", "bits/key", "FPR meas.", "FPR model", "ns single", "ns batch", "x mem limit")
    fmt = "%-22s %9s %7s %8s %10s %10s %9s %9s %11s"
    print(fmt % hdr)
    for s in series_list(rows):
        for n in sorted({r["n"] for r in pick(rows, kind="matrix", series=s)}):
            single = pick(rows, kind="matrix", series=s, op="contains_single", hash="hash_excl", fpp=fpp, n=n,
                          pos_pct=50.0, threads=1.0)
            batch = pick(rows, kind="matrix", series=s, op="contains_batch", hash="hash_excl", fpp=fpp, n=n,
                         pos_pct=50.0, threads=1.0)
            if not single and not batch:
                continue
            r = (single or batch)[0]
            xl = batch[0].get("x_mem_limit") if batch else r.get("x_mem_limit")
            print(fmt % (series_label(s), "%.0e" % n, "%g" % fpp, "%.2f" % r["bits_per_key"],
                         "%.3g%%" % (100 * r["fpr_measured"]), "%.3g%%" % (100 * r["fpr_model"]),
                         "%.2f" % single[0]["ns_per_op"] if single else "-",
                         "%.2f" % batch[0]["ns_per_op"] if batch else "-",
                         "%.2f" % xl if xl is not None else "-"))
    ks = pick(rows, kind="kernel")
    if ks:
        print()
        print("SBBF kernels, filters at 10 bits/key, hashes precomputed, 50% positives:")
        fmt2 = "%-8s %9s %12s %12s %12s %13s %11s"
        print(fmt2 % ("kernel", "size", "ns single", "ns batch", "Mkeys/s batch", "limit ns/read", "x limit"))
        for k in sorted({r["kernel"] for r in ks}):
            for sz in sorted({r["bytes"] for r in ks}):
                s1 = [r for r in ks if r["kernel"] == k and r["bytes"] == sz and r["op"] == "contains_single" and
                      r["pos_pct"] == 50.0]
                b1 = [r for r in ks if r["kernel"] == k and r["bytes"] == sz and r["op"] == "contains_batch" and
                      r["pos_pct"] == 50.0]
                if not b1:
                    continue
                b = b1[0]
                print(fmt2 % (k, human_bytes(sz), "%.2f" % s1[0]["ns_per_key"] if s1 else "-",
                              "%.2f" % b["ns_per_key"], "%.0f" % (b["keys_per_s"] / 1e6),
                              "%.2f" % b.get("mem_limit_ns", float("nan")), "%.2f" % b.get("x_mem_limit", float("nan"))))


def compare(a, b, outdir):
    ctx_a, rows_a = load(a)
    ctx_b, rows_b = load(b)
    fpp = ref_fpp(rows_a)
    fig, axes = plt.subplots(1, 2, figsize=(15, 6))
    tag_a = "A: "
    tag_b = "B: "
    draw_lookup(axes[0], ctx_a, rows_a, fpp, tag=tag_a)
    draw_lookup(axes[0], ctx_b, rows_b, fpp, tag=tag_b, ls_single="-.", ls_batch=":", alpha=0.55)
    axes[0].set_title("Lookup time vs n (fpp %g)" % fpp, fontsize=9)
    draw_insert(axes[1], rows_a, fpp, tag=tag_a)
    draw_insert(axes[1], rows_b, fpp, tag=tag_b, alpha=0.55)
    axes[1].set_title("Insert time vs n (fpp %g)" % fpp, fontsize=9)
    for ax in axes:
        ax.legend(fontsize=6, ncol=2)

    def desc(ctx, path):
        return "%s (%s, %s, %s)" % (os.path.basename(path), machine_name(ctx), kernel_note(ctx),
                                    ctx.get("bf_commit", "?"))

    fig.suptitle("A = %s\nB = %s (faded)" % (desc(ctx_a, a), desc(ctx_b, b)), fontsize=9)
    name = "compare-%s-vs-%s" % (os.path.splitext(os.path.basename(a))[0], os.path.splitext(os.path.basename(b))[0])
    save(fig, outdir, name)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("result", nargs="?", help="a blockfilter_bench JSON file")
    ap.add_argument("--outdir", help="folder for the figures (default: the JSON's folder)")
    ap.add_argument("--summary", action="store_true", help="print the summary table instead of plotting")
    ap.add_argument("--compare", nargs=2, metavar=("A", "B"), help="two result files in one figure")
    args = ap.parse_args()
    if args.compare:
        compare(args.compare[0], args.compare[1], args.outdir or os.path.dirname(os.path.abspath(args.compare[0])))
        return 0
    if not args.result:
        ap.error("a result file is required")
    ctx, rows = load(args.result)
    if args.summary:
        summary(ctx, rows)
        return 0
    outdir = args.outdir or os.path.dirname(os.path.abspath(args.result))
    PREFIX[0] = os.path.splitext(os.path.basename(args.result))[0] + "-"
    for s in series_list(rows):  # stable colours across figures
        color(s)
    plot_lookup(ctx, rows, outdir)
    plot_fpr(ctx, rows, outdir)
    plot_pareto(ctx, rows, outdir)
    plot_threads(ctx, rows, outdir)
    plot_insert(ctx, rows, outdir)
    plot_kernels(ctx, rows, outdir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
