#!/usr/bin/python3
"""Plots and a summary table from blockfilter_bench JSON results.

  plot.py RESULT.json [--outdir DIR]      the figures, PNG and SVG, into DIR
                                          (default: the JSON's folder)
  plot.py RESULT.json --summary           the summary table on stdout
  plot.py --compare A.json B.json [--outdir DIR]
                                          two runs (machines or commits) in one figure
  plot.py --paper DIR [--numbers N.json] RUN.json...
                                          the paper's figures (PDF) from one or more
                                          runs (one per machine), into DIR

Figures: 1 lookup ns/op vs n with the memory limit; 2 measured FPR vs
bits/key with each family's model curve; 3 Pareto front (bits/key,
ns/lookup) at fixed fpp; 4 throughput vs threads; 5 insert ns/op vs n;
6 the SBBF kernels against the memory limit at fixed filter sizes;
7 the cuckoo filter's shapes (b, f): FPR and lookup time against bits/key,
each beside an SBBF of the same size; the design-space series (blocked
shapes x k x bits/key x n, with the cuckoo shapes and, in a run built with
the peers (bench.sh --peers), the peer libraries' filters as contenders): 8 FPR
against bits/key for each layout, 9 the skyline (batch lookup ns against
FPR for each n, with the Pareto front), 10 which shape wins over (n, T) at
each memory budget, T the work a negative saves (cost = lookup + FPR x T).

--paper refuses a primary run whose recorded load average exceeds
MAX_PRIMARY_LOAD (see check_primary_load).
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
# The most load a primary run of the paper may have recorded: the 1-minute
# load average less the harness's own threads beyond its first (load1_adj),
# before, during and after the run. The harness itself keeps about 1.
MAX_PRIMARY_LOAD = 1.5


# --------------------------------------------------------------------------
# Loading
def load(path):
    with open(path) as f:
        data = json.load(f)
    ctx = dict(data.get("context", {}))
    # The load-average record (top level, written after the last benchmark).
    if isinstance(data.get("bf_loadavg"), dict):
        ctx["bf_loadavg"] = data["bf_loadavg"]
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
        elif parts[0] == "design":
            # design/<layout>-k<k>/<op>[/pos<P>]/n:<n>/bpk:<bits>
            r["kind"] = "design"
            r["shape"] = parts[1]
            r["op"] = parts[2]
        elif parts[0] == "design-peer":
            # design-peer/<peer>/<filter>/<op>[/pos<P>]/n:<n>[/bpk:<bits>]
            # (bench/design_peers.cc: a peer library's contender)
            r["kind"] = "design-peer"
            r["peer"] = parts[1]
            r["shape"] = parts[1] + "/" + parts[2]
            r["op"] = parts[3]
        elif parts[0] == "cuckoo-shapes":
            # cuckoo-shapes/<b1-f8[-semi] | sbbf-b1-f8[-semi]>/<op>[/pos<P>]/n:<n>
            r["kind"] = "shape"
            r["shape"] = parts[1]
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


def load_values(ctx, rows):
    """Every load average the run recorded (load1_adj: the 1-minute load
    average less the harness's own threads beyond its first): before,
    during and after (the "bf_loadavg" record) and at the end of each
    benchmark (counter loadavg_1m_adj). Empty for runs made before the
    harness recorded them."""
    vals = []
    rec = ctx.get("bf_loadavg")
    if isinstance(rec, dict):
        for s in [rec.get("before"), rec.get("after")] + list(rec.get("during") or []):
            if isinstance(s, dict) and isinstance(s.get("load1_adj"), (int, float)):
                vals.append(float(s["load1_adj"]))
    vals += [float(r["loadavg_1m_adj"]) for r in rows if isinstance(r.get("loadavg_1m_adj"), (int, float))]
    return [v for v in vals if v == v]


def load_line(ctx, rows):
    """One line on the run's load, for the summary and the paper."""
    rec = ctx.get("bf_loadavg")
    vals = load_values(ctx, rows)
    if not vals:
        return "load average: not recorded (a run made before the harness recorded it)"
    if isinstance(rec, dict):
        b, a = rec.get("before") or {}, rec.get("after") or {}
        return ("load average (1 min): before %.2f, after %.2f, %d samples during; max %.2f less the "
                "harness's extra threads (a primary run of the paper may have at most %.1f)" %
                (b.get("load1", float("nan")), a.get("load1", float("nan")), len(rec.get("during") or []),
                 max(vals), MAX_PRIMARY_LOAD))
    return "load average (1 min): max %.2f at the end of a benchmark" % max(vals)


def check_primary_load(run):
    """The paper's primary run must have been quiet: refuses (SystemExit,
    status 3) a run whose recorded load exceeds MAX_PRIMARY_LOAD. A run
    with no record (made before the harness kept one) passes, with a
    warning on stderr: the paper says so."""
    vals = load_values(run["ctx"], run["rows"])
    if not vals:
        sys.stderr.write("warning: the primary run %s recorded no load average\n" % run["path"])
        return None
    mx = max(vals)
    if mx > MAX_PRIMARY_LOAD:
        sys.stderr.write(
            "error: refusing %s as the paper's primary run: its recorded load average reached %.2f "
            "(1 minute, less the harness's own extra threads), above %.1f; the machine was not quiet. "
            "Rerun ./scripts/bench.sh --full with nothing else running, or name other runs.\n" %
            (run["path"], mx, MAX_PRIMARY_LOAD))
        raise SystemExit(3)
    return mx


def machine_name(ctx):
    model = ctx.get("bf_cpu_model", "unknown CPU")
    cores = ctx.get("bf_hwloc_cores", ctx.get("num_cpus", "?"))
    return "%s, %s cores" % (model, cores)


# Series whose second part is not a kernel: what it means (figures; the
# summary table keeps the short "family (part)" form).
SERIES_NAMES = {"scalable/reserved": "scalable (reserved at n)",
                "scalable/grown": "scalable (grown from n/1000)"}


def series_label(s, short=False):
    if s in SERIES_NAMES and not short:
        return SERIES_NAMES[s]
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
def draw_pareto(ax, rows, fpp, colorf, size, front_label):
    """Every single and batch lookup at fpp and the largest n, and the front
    of points no other point beats in both space and time. Returns n."""
    nmax = max(r["n"] for r in pick(rows, kind="matrix", fpp=fpp))
    pts = []
    for s in series_list(rows):
        for op, mk in (("contains_single", "o"), ("contains_batch", "^")):
            for r in pick(rows, kind="matrix", series=s, op=op, hash="hash_excl", fpp=fpp, n=nmax, pos_pct=50.0,
                          threads=1.0):
                ax.scatter(r["bits_per_key"], r["ns_per_op"], marker=mk, color=colorf(s), s=size,
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
                label=front_label)
    return nmax


def plot_pareto(ctx, rows, outdir):
    fpps = sorted({r["fpp"] for r in rows if r["kind"] == "matrix"}, reverse=True)
    if not fpps:
        return
    fig, axes = plt.subplots(1, len(fpps), figsize=(4.5 * len(fpps), 4.5), squeeze=False)
    for ax, fpp in zip(axes[0], fpps):
        nmax = draw_pareto(ax, rows, fpp, color, 40, "Pareto front")
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


# 7. The cuckoo filter's shapes against the SBBF of the same size.
SHAPE_F_COLOR = {4: "C0", 8: "C1", 12: "C2", 16: "C3", 32: "C4"}
SHAPE_B_MARKER = {1: "o", 2: "s", 4: "^", 8: "D"}


def shape_ns(rows):
    return sorted({r["n"] for r in rows if r["kind"] == "shape"})


def shape_point(rows, shape, n):
    """One shape (or SBBF twin, "sbbf-<shape>") at n: its numbers from the
    batch lookup row, and the single lookup and insert times, or None."""
    rs = [r for r in rows if r["kind"] == "shape" and r["shape"] == shape and r["n"] == n]
    by_op = {r["op"]: r for r in rs}
    base = by_op.get("contains_batch") or by_op.get("contains_single") or by_op.get("insert_single")
    if not base:
        return None
    out = dict(base)
    for op, key in (("contains_batch", "ns_batch"), ("contains_single", "ns_single"), ("insert_single", "ns_insert")):
        out[key] = by_op[op]["ns_per_op"] if op in by_op else float("nan")
    return out


def shape_names(rows):
    """The cuckoo shapes of the run, in registration order (no twins)."""
    seen = []
    for r in rows:
        if r["kind"] == "shape" and not r["shape"].startswith("sbbf-") and r["shape"] not in seen:
            seen.append(r["shape"])
    return seen


def draw_shapes(ax_fpr, ax_ns, ctx, rows, n, size=30, annotate=True):
    """FPR and batch lookup time against bits/key for every shape at n
    (colour: f, marker: b, hollow: semi-sorted) and its SBBF twin (black x,
    a thin line from the shape to its twin)."""
    neg = None
    for sh in shape_names(rows):
        c, t = shape_point(rows, sh, n), shape_point(rows, "sbbf-" + sh, n)
        if not c:
            continue
        neg = c.get("fpr_negatives", neg)
        col = SHAPE_F_COLOR.get(int(c["fp_bits"]), "C7")
        mk = SHAPE_B_MARKER.get(int(c["bucket_size"]), "o")
        face = "none" if c.get("semisorted") else col
        x = c["bits_per_key"]
        if c["fpr_measured"] > 0:
            ax_fpr.scatter([x], [c["fpr_measured"]], marker=mk, facecolors=face, edgecolors=col, s=size, zorder=3)
        ax_fpr.scatter([x], [c["fpr_model"]], marker="_", color=col, s=size, zorder=2)
        ax_ns.scatter([x], [c["ns_batch"]], marker=mk, facecolors=face, edgecolors=col, s=size, zorder=3)
        if t:
            tx = t["bits_per_key"]
            if t["fpr_measured"] > 0:
                ax_fpr.scatter([tx], [t["fpr_measured"]], marker="x", color="black", s=size * 0.8, zorder=3)
            ax_ns.scatter([tx], [t["ns_batch"]], marker="x", color="black", s=size * 0.8, zorder=3)
            ax_ns.plot([x, tx], [c["ns_batch"], t["ns_batch"]], "-", color=col, alpha=0.25, linewidth=0.6)
        if annotate:
            ax_ns.annotate(sh.replace("-semi", "s"), (x, c["ns_batch"]), fontsize=5, alpha=0.7,
                           xytext=(2, 2), textcoords="offset points")
    curve = parse_curve(ctx.get("bf_model_curve_sbbf"))
    if curve:
        ax_fpr.plot([p[0] for p in curve], [p[1] for p in curve], "-", color="black", alpha=0.4, linewidth=0.8)
    for ax in (ax_fpr, ax_ns):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.xaxis.set_major_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.set_xticks([4, 8, 16, 32, 64])
        ax.grid(True, which="major", alpha=0.3)
        ax.grid(True, which="minor", alpha=0.08)
    ax_fpr.set_ylabel("false-positive rate")
    ax_ns.set_ylabel("ns per batch lookup, 50% positives")
    ax_ns.set_xlabel("bits per key (table bytes x 8 / keys stored)")
    floor = 1.0 / neg if neg else 1e-7
    ax_fpr.set_ylim(min(floor / 3, 1e-7), 1)
    ax_fpr.set_title("$n = 10^{%d}$: FPR measured on %s keys (markers; none found: not drawn) and model (dashes)" %
                     (round(math.log10(n)), "%g" % neg if neg else "?"))


def shape_legend(fig, fontsize):
    from matplotlib.lines import Line2D
    h = [Line2D([], [], linestyle="", marker="o", color=c, label="f = %d" % f) for f, c in SHAPE_F_COLOR.items()]
    h += [Line2D([], [], linestyle="", marker=m, color="gray", label="b = %d" % b) for b, m in SHAPE_B_MARKER.items()]
    h += [Line2D([], [], linestyle="", marker="^", markerfacecolor="none", color="gray", label="b = 4 semi-sorted"),
          Line2D([], [], linestyle="", marker="x", color="black", label="SBBF of the same size"),
          Line2D([], [], linestyle="-", color="black", alpha=0.4, label="SBBF model ($n = 10^6$)")]
    fig.legend(handles=h, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=6, fontsize=fontsize, frameon=False)


def plot_shapes(ctx, rows, outdir):
    ns = shape_ns(rows)
    if not ns:
        return
    fig, axes = plt.subplots(2, len(ns), figsize=(7 * len(ns), 9), squeeze=False, sharex="col")
    for j, n in enumerate(ns):
        draw_shapes(axes[0][j], axes[1][j], ctx, rows, n)
    fig.suptitle("Cuckoo filter shapes (b slots per bucket, f-bit fingerprints) against an SBBF of the same "
                 "size — %s; %s" % (machine_name(ctx), kernel_note(ctx)), fontsize=10)
    fig.tight_layout()
    shape_legend(fig, 8)
    save(fig, outdir, "7-cuckoo-shapes")


# 8-10. The design-space series (bench/design.cc) and the cuckoo shapes.
DESIGN_LAYOUTS = ("sbbf", "reg32", "reg64", "blocked512", "sect256", "sect512", "csect512z2", "csect512z4")
DESIGN_COLOR = {l: "C%d" % i for i, l in enumerate(DESIGN_LAYOUTS)}
DESIGN_COLOR["cuckoo"] = "black"
DESIGN_LABEL = {"sbbf": "SBBF (256, 8, 8)", "reg32": "register-blocked 32", "reg64": "register-blocked 64",
                "blocked512": "blocked 512", "sect256": "sectorized 256 (S=4)", "sect512": "sectorized 512 (S=8)",
                "csect512z2": "cache-sectorized 512, z=2", "csect512z4": "cache-sectorized 512, z=4",
                "cuckoo": "cuckoo (b, f)"}
DESIGN_T_MIN, DESIGN_T_MAX = 1.0, 1e5  # ns: the work a negative saves, 1 ns to 100 us


def design_layout(shape):
    """The layout of a design shape name (<layout>-k<k>)."""
    return shape.rsplit("-k", 1)[0]


# The peers' contenders (bench/design_peers.cc): the layout of the series a
# peer filter matches, from its (block bits, sectors, groups); a static
# filter (xor, binary fuse) has none. One marker per peer library.
DESIGN_LAYOUT_OF = {(256, 8, 8): "sbbf", (32, 1, 1): "reg32", (64, 1, 1): "reg64", (512, 1, 1): "blocked512",
                    (256, 4, 4): "sect256", (512, 8, 8): "sect512", (512, 8, 2): "csect512z2",
                    (512, 8, 4): "csect512z4"}
PEER_MARKER = {"partitioned-filters": "*", "libfilter": "P", "fastfilter_cpp": "X"}
DESIGN_COLOR["static"] = "dimgray"
DESIGN_LABEL["static"] = "static filter (peer)"


def peer_points(rows):
    """Every peer contender, one dict per (peer/filter, n, bits/key target;
    0 for a static filter): the build row's counters with ns_build,
    ns_batch, layout (the series' layout it matches, or "static") and
    bpk_target added."""
    out = merged_points(rows, "design-peer")
    for p in out:
        p.setdefault("fpr_model", float("nan"))
        if "block_bits" in p:
            p["layout"] = DESIGN_LAYOUT_OF.get((int(p["block_bits"]), int(p["sectors"]), int(p["groups"])), "static")
        else:
            p["layout"] = "static"
    return out


def merged_points(rows, kind):
    """One dict per (shape, n, bits/key target; 0 where none) of the rows
    of a kind: the build row's counters with ns_build, ns_batch and
    bpk_target added."""
    pts = {}
    for r in rows:
        if r["kind"] != kind:
            continue
        key = (r["shape"], int(r["n"]), int(r.get("bits_per_key_target", 0)))
        p = pts.setdefault(key, dict(r))
        p["ns_build" if r["op"] == "build" else "ns_batch"] = r["ns_per_op"]
    for (sh, n, bpk), p in pts.items():
        p.setdefault("ns_build", float("nan"))
        p.setdefault("ns_batch", float("nan"))
        p["bpk_target"] = bpk
    return list(pts.values())


def peer_cost_fpr(p):
    """cost_fpr for a peer point (the model may be missing)."""
    if p["fpr_measured"] > 0 or p["fpr_model"] != p["fpr_model"]:
        return p["fpr_measured"]
    return p["fpr_model"]


# A peer's filter competes for a memory budget only if the bytes it really
# allocated fit it, within PEER_BPK_SLACK (partitioned-filters rounds its
# size up a little; with 1024 partitions it adds a block to each, which at
# small n is bits per key more than the budget: those do not compete).
PEER_BPK_SLACK = 0.02


def peer_fits(p, n, bpk):
    """Whether a peer point competes for n keys in bpk bits per key: a
    Bloom peer built at that point, or a static filter of n keys, whose
    bits per key fit the budget (PEER_BPK_SLACK)."""
    if int(p["n"]) != n or p["ns_batch"] != p["ns_batch"]:
        return False
    if p["bpk_target"] and p["bpk_target"] != bpk:
        return False
    return p["bits_per_key"] <= bpk * (1 + PEER_BPK_SLACK) + 1e-9


def design_points(rows):
    """Every design point, one dict per (shape, n, bits/key target): the
    build row's counters with ns_build and ns_batch added."""
    out = merged_points(rows, "design")
    for p in out:
        p["layout"] = design_layout(p["shape"])
    return out


def design_ns(rows):
    return sorted({int(r["n"]) for r in rows if r["kind"] == "design"})


def design_bpks(rows):
    return sorted({int(r["bits_per_key_target"]) for r in rows if r["kind"] == "design"})


def cost_fpr(p):
    """The FPR a cost uses: the measured one, or the model's where the
    negatives showed no false positive."""
    return p["fpr_measured"] if p["fpr_measured"] > 0 else p["fpr_model"]


def design_contenders(rows, n, bpk, peers=False):
    """Who competes for a job of n keys in bpk bits per key: every design
    shape built at that budget, and every cuckoo shape measured at n whose
    table fits the budget; with peers, the peer libraries' filters too
    (peer_fits; named peer/<peer>/<filter>). (name, layout, ns_batch, fpr)
    each."""
    out = [(p["shape"], p["layout"], p["ns_batch"], cost_fpr(p)) for p in design_points(rows)
           if int(p["n"]) == n and p["bpk_target"] == bpk and p["ns_batch"] == p["ns_batch"]]
    if n in shape_ns(rows):
        for sh in shape_names(rows):
            c = shape_point(rows, sh, n)
            if c and c["bits_per_key"] <= bpk + 1e-9 and c["ns_batch"] == c["ns_batch"]:
                out.append(("cuckoo-" + sh, "cuckoo", c["ns_batch"], cost_fpr(c)))
    if peers:
        out += [("peer/" + p["shape"], p["layout"], p["ns_batch"], peer_cost_fpr(p)) for p in peer_points(rows)
                if peer_fits(p, n, bpk)]
    return out


def design_winner(contenders, t_ns):
    """The contender of least expected cost lookup + FPR x T, or None."""
    return min(contenders, key=lambda c: c[2] + c[3] * t_ns) if contenders else None


def design_t_grid(count=61):
    lo, hi = math.log10(DESIGN_T_MIN), math.log10(DESIGN_T_MAX)
    return [10 ** (lo + (hi - lo) * i / (count - 1)) for i in range(count)]


def pareto_front(pts):
    """(fpr, ns) pairs not beaten on both by another: sorted by FPR."""
    front, best = [], float("inf")
    for f, ns in sorted(pts):
        if ns < best:
            front.append((f, ns))
            best = ns
    return front


# The FPR rule of the series: measured within 5 % of the exact model for
# every shape, over at least 10^7 absent keys. It is applied where sampling
# alone cannot break it: 5 % of the expected false positives is at least 4
# standard deviations (p x negatives >= 6400). Points with fewer negatives
# or false positives are held to the sampling band (6 sigma) plus 10 % of
# the model, as the cuckoo shapes are.
DESIGN_FPR_TOL = 0.05
DESIGN_FPR_RULE_NEG = 10 ** 7
DESIGN_FPR_RULE_MIN_FP = 6400


def design_fpr_check(p):
    """(rule, ok, relative error) of a design point: rule is "5%" where the
    +-5 % rule applies, "band" elsewhere."""
    neg, m, f = p["fpr_negatives"], p["fpr_model"], p["fpr_measured"]
    rel = f / m - 1 if m > 0 else float("inf")
    if neg >= DESIGN_FPR_RULE_NEG and m * neg >= DESIGN_FPR_RULE_MIN_FP:
        return "5%", abs(rel) <= DESIGN_FPR_TOL, rel
    return "band", abs(f - m) <= 6 * (m * (1 - m) / neg) ** 0.5 + 0.1 * m, rel


def draw_design_fpr(axes, rows, size=14):
    """One panel per layout: measured FPR (markers, one per k, n by marker)
    and the exact model (dashes) against bits/key; a last panel for the
    cuckoo shapes (measured and model). The peers' filters (peer_points)
    join the panel of the layout they match, the static ones the last
    panel: larger black-edged markers of their own (PEER_MARKER), coloured
    by k as the panel's own points."""
    pts = design_points(rows)
    peers = peer_points(rows)
    ns = design_ns(rows)
    markers = dict(zip(ns, "osD^v"))
    for ax, lay in zip(axes, DESIGN_LAYOUTS + ("cuckoo",)):
        ax.set_title(DESIGN_LABEL[lay], fontsize=8)
        if lay == "cuckoo":
            for n in shape_ns(rows):
                for sh in shape_names(rows):
                    c = shape_point(rows, sh, n)
                    if not c:
                        continue
                    if c["fpr_measured"] > 0:
                        ax.scatter([c["bits_per_key"]], [c["fpr_measured"]], marker=markers.get(n, "o"),
                                   color=SHAPE_F_COLOR.get(int(c["fp_bits"]), "C7"), s=size)
                    ax.scatter([c["bits_per_key"]], [c["fpr_model"]], marker="_", color="gray", s=size)
        else:
            ks = sorted({int(p["k"]) for p in pts if p["layout"] == lay})
            for i, k in enumerate(ks):
                col = "C%d" % i
                for n in ns:
                    sel = sorted((p for p in pts if p["layout"] == lay and int(p["k"]) == k and int(p["n"]) == n),
                                 key=lambda p: p["bits_per_key"])
                    if not sel:
                        continue
                    meas = [(p["bits_per_key"], p["fpr_measured"]) for p in sel if p["fpr_measured"] > 0]
                    ax.scatter([m[0] for m in meas], [m[1] for m in meas], marker=markers.get(n, "o"),
                               color=col, s=size, label="k = %d" % k if n == ns[0] else None)
                    ax.plot([p["bits_per_key"] for p in sel], [p["fpr_model"] for p in sel], "--", color=col,
                            alpha=0.5, linewidth=0.8)
        pk = sorted({int(p["k"]) for p in pts if p["layout"] == lay}) if lay != "cuckoo" else []
        named = set()
        for p in sorted((q for q in peers if q["layout"] == (lay if lay != "cuckoo" else "static")),
                        key=lambda q: q["shape"]):
            k = int(p.get("k", 0))
            lib = p["peer"]
            label = None if lib in named else "peer: %s" % lib
            named.add(lib)
            if p["fpr_measured"] > 0:
                ax.scatter([p["bits_per_key"]], [p["fpr_measured"]], marker=PEER_MARKER.get(lib, "h"),
                           color="C%d" % pk.index(k) if k in pk else "C7", edgecolors="black", linewidths=0.5,
                           s=size * 3, zorder=4, label=label)
        if pk or named:
            ax.legend(fontsize=6, loc="lower left")
        ax.set_yscale("log")
        ax.grid(True, which="major", alpha=0.3)


def plot_design_fpr(ctx, rows, outdir):
    if not design_ns(rows):
        return
    fig, axes = plt.subplots(3, 3, figsize=(13, 11), sharex=True, sharey=True)
    draw_design_fpr([a for row in axes for a in row], rows)
    for a in axes[-1]:
        a.set_xlabel("bits per key")
    for row in axes:
        row[0].set_ylabel("false-positive rate")
    neg = [r.get("fpr_negatives") for r in rows if r["kind"] == "design"]
    fig.suptitle("Design space: FPR measured (markers; n = %s by marker: %s) on %s absent keys, and the exact "
                 "model (dashes)%s — %s" % (", ".join("%g" % n for n in design_ns(rows)),
                                         "/".join("osD^v"[:len(design_ns(rows))]),
                                         "%g" % max(neg) if neg else "?",
                                         "; peer libraries' filters: large black-edged markers" if peer_points(rows)
                                         else "", machine_name(ctx)), fontsize=10)
    fig.tight_layout()
    save(fig, outdir, "8-design-fpr")


def draw_skyline(ax, rows, n, size=14, annotate=True, peers=False):
    """Batch lookup ns against FPR at n: every design point (colour:
    layout) and cuckoo shape (black x), with peers the peer libraries'
    filters (their markers, black-edged, colour: the layout they match),
    and the Pareto front of them all."""
    allp = []
    for p in design_points(rows):
        if int(p["n"]) != n or p["ns_batch"] != p["ns_batch"]:
            continue
        f = cost_fpr(p)
        ax.scatter([f], [p["ns_batch"]], color=DESIGN_COLOR.get(p["layout"], "C7"), s=size, zorder=3)
        allp.append((f, p["ns_batch"], p["shape"] + "/%d" % p["bpk_target"]))
    if n in shape_ns(rows):
        for sh in shape_names(rows):
            c = shape_point(rows, sh, n)
            if c:
                f = cost_fpr(c)
                ax.scatter([f], [c["ns_batch"]], marker="x", color="black", s=size, zorder=3)
                allp.append((f, c["ns_batch"], sh))
    for p in peer_points(rows) if peers else []:
        if int(p["n"]) != n or p["ns_batch"] != p["ns_batch"]:
            continue
        f = peer_cost_fpr(p)
        ax.scatter([f], [p["ns_batch"]], marker=PEER_MARKER.get(p["peer"], "h"), color=DESIGN_COLOR.get(p["layout"], "C7"),
                   edgecolors="black", linewidths=0.5, s=size * 3, zorder=4)
        allp.append((f, p["ns_batch"], "peer/" + p["shape"] + ("/%d" % p["bpk_target"] if p["bpk_target"] else "")))
    front = pareto_front([(f, ns) for f, ns, _ in allp])
    if front:
        ax.step([f for f, _ in front], [ns for _, ns in front], where="post", color="gray", alpha=0.6,
                linewidth=1, zorder=2)
        if annotate:
            names = {(f, ns): name for f, ns, name in allp}
            for f, ns in front:
                ax.annotate(names[(f, ns)], (f, ns), fontsize=5, alpha=0.8, xytext=(2, 2),
                            textcoords="offset points")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_title("$n = 10^{%d}$" % round(math.log10(n)))
    ax.set_xlabel("false-positive rate (measured; the model's where none was seen)")
    ax.grid(True, which="major", alpha=0.3)


def design_legend(fig, fontsize, with_front=True, peers=(), hatched=False):
    """The layouts' colours, the cuckoo shapes' marker, the markers of the
    peer libraries given (peers) and, for the winner map, that a hatched
    stretch is a peer's (hatched)."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    h = [Line2D([], [], linestyle="", marker="o", color=DESIGN_COLOR[l], label=DESIGN_LABEL[l])
         for l in DESIGN_LAYOUTS]
    h.append(Line2D([], [], linestyle="", marker="x", color="black", label=DESIGN_LABEL["cuckoo"]))
    for lib in peers:
        h.append(Line2D([], [], linestyle="", marker=PEER_MARKER.get(lib, "h"), color="white", markeredgecolor="black",
                        markersize=8, label="peer: " + lib))
    if peers:
        h.append(Line2D([], [], linestyle="", marker="o", color=DESIGN_COLOR["static"], label=DESIGN_LABEL["static"]))
    if hatched:
        h.append(Patch(facecolor="white", edgecolor="black", hatch="///", label="a peer's filter wins"))
    if with_front:
        h.append(Line2D([], [], linestyle="-", color="gray", label="Pareto front"))
    fig.legend(handles=h, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=5, fontsize=fontsize, frameon=False)


def peer_libs(rows):
    """The peer libraries a run measured, in PEER_MARKER's order."""
    have = {p["peer"] for p in peer_points(rows)}
    return [lib for lib in PEER_MARKER if lib in have] + sorted(have - set(PEER_MARKER))


def plot_design_skyline(ctx, rows, outdir):
    ns = design_ns(rows)
    if not ns:
        return
    fig, axes = plt.subplots(1, len(ns), figsize=(6 * len(ns), 5), squeeze=False)
    for ax, n in zip(axes[0], ns):
        draw_skyline(ax, rows, n, peers=True)
    axes[0][0].set_ylabel("ns per batch lookup, 50% positives")
    fig.suptitle("The skyline: lookup time against FPR, every shape x k x bits/key — %s; %s" %
                 (machine_name(ctx), kernel_note(ctx)), fontsize=10)
    fig.tight_layout()
    design_legend(fig, 8, peers=peer_libs(rows))
    save(fig, outdir, "9-design-skyline")


def draw_winner(ax, rows, bpk, fontsize=6, peers=False):
    """Which contender has the least lookup + FPR x T, for every n of the
    series (rows) and T from 1 ns to 100 us (columns), at bpk bits per key;
    with peers the peer libraries' filters compete too (hatched where one
    wins)."""
    from matplotlib.patches import Rectangle
    ns = design_ns(rows)
    ts = design_t_grid()
    edges = [math.sqrt(a * b) for a, b in zip(ts, ts[1:])]
    edges = [DESIGN_T_MIN] + edges + [DESIGN_T_MAX]
    for j, n in enumerate(ns):
        cont = design_contenders(rows, n, bpk, peers=peers)
        prev = None
        for i, t in enumerate(ts):
            w = design_winner(cont, t)
            if not w:
                continue
            peer = w[0].startswith("peer/")
            ax.add_patch(Rectangle((edges[i], j - 0.45), edges[i + 1] - edges[i], 0.9,
                                   facecolor=DESIGN_COLOR.get(w[1], "C7"), alpha=0.75, linewidth=0,
                                   hatch="///" if peer else None, edgecolor="black" if peer else None))
            if prev != w[0]:  # name each run of one winner where it starts
                prev = w[0]
                ax.text(edges[i] * 1.05, j, w[0].replace("cuckoo-", ""), fontsize=fontsize, va="center",
                        rotation=90 if len(ts) > 20 else 0, clip_on=True)
    ax.set_xscale("log")
    ax.set_xlim(DESIGN_T_MIN, DESIGN_T_MAX)
    ax.set_ylim(-0.5, len(ns) - 0.5)
    ax.set_yticks(range(len(ns)))
    ax.set_yticklabels(["$10^{%d}$" % round(math.log10(n)) for n in ns])
    ax.set_title("%d bits per key" % bpk)
    ax.set_xlabel("T: ns of work a negative saves")


def plot_design_winner(ctx, rows, outdir):
    bpks = design_bpks(rows)
    if not bpks:
        return
    fig, axes = plt.subplots(len(bpks), 1, figsize=(12, 1.2 + 0.6 * len(design_ns(rows)) * len(bpks)),
                             squeeze=False)
    for ax, b in zip(axes[:, 0], bpks):
        draw_winner(ax, rows, b, peers=True)
        ax.set_ylabel("n")
    fig.suptitle("Which shape wins: least batch lookup ns + FPR x T at a fixed memory budget (cuckoo shapes "
                 "whose table fits it compete%s) — %s" %
                 (", and the peer libraries' filters" if peer_points(rows) else "", machine_name(ctx)), fontsize=10)
    fig.tight_layout()
    design_legend(fig, 8, with_front=False, peers=peer_libs(rows), hatched=bool(peer_points(rows)))
    save(fig, outdir, "10-design-winner")


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
    print("Load: %s" % load_line(ctx, rows))
    print()
    hdr = ("family/kernel", "n", "fpp", "bits/key", "FPR meas.", "FPR model", "ns single", "ns batch", "x mem limit")
    fmt = "%-22s %9s %7s %8s %10s %10s %9s %9s %11s"
    if series_list(rows):
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
            print(fmt % (series_label(s, short=True), "%.0e" % n, "%g" % fpp, "%.2f" % r["bits_per_key"],
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
    for n in shape_ns(rows):
        print()
        print("Cuckoo shapes at n = %.0e (b slots per bucket, f-bit fingerprints; load reached filling a table sized "
              "for n at the model's load), each against an SBBF of the same bytes holding the same keys:" % n)
        fmt3 = "%-10s %8s %6s %10s %10s %9s %9s %9s | %10s %9s %9s"
        print(fmt3 % ("shape", "bits/key", "load", "FPR meas.", "FPR model", "ns single", "ns batch", "ns insert",
                      "SBBF FPR", "ns batch", "ns insert"))
        for sh in shape_names(rows):
            c, t = shape_point(rows, sh, n), shape_point(rows, "sbbf-" + sh, n)
            if not c:
                continue
            t = t or {}
            print(fmt3 % (sh, "%.2f" % c["bits_per_key"], "%.3f" % c.get("load", float("nan")),
                          "%.3g%%" % (100 * c["fpr_measured"]), "%.3g%%" % (100 * c["fpr_model"]),
                          "%.2f" % c["ns_single"], "%.2f" % c["ns_batch"], "%.2f" % c["ns_insert"],
                          "%.3g%%" % (100 * t.get("fpr_measured", float("nan"))),
                          "%.2f" % t.get("ns_batch", float("nan")), "%.2f" % t.get("ns_insert", float("nan"))))
    pts = design_points(rows)
    for n in design_ns(rows):
        sel = sorted((p for p in pts if int(p["n"]) == n), key=lambda p: (p["bpk_target"], p["shape"]))
        print()
        print("Design space at n = %.0e (blocked shapes, layout-k; FPR over %.3g absent keys, batch calls, 50%% "
              "positives), and the shape of least lookup + FPR x T at each budget:" %
              (n, sel[0]["fpr_negatives"] if sel else float("nan")))
        fmt4 = "%-16s %4s %8s %10s %10s %7s %9s %9s"
        print(fmt4 % ("shape", "bpk", "bits/key", "FPR meas.", "FPR model", "vs model", "ns build", "ns batch"))
        for p in sel:
            print(fmt4 % (p["shape"], p["bpk_target"], "%.2f" % p["bits_per_key"], "%.3g%%" % (100 * p["fpr_measured"]),
                          "%.3g%%" % (100 * p["fpr_model"]), "%+.1f%%" % (100 * design_fpr_check(p)[2]),
                          "%.2f" % p["ns_build"], "%.2f" % p["ns_batch"]))
        for b in design_bpks(rows):
            cont = design_contenders(rows, n, b)
            if cont:
                print("  %2d bits/key, winner at T = %s" % (b, ", ".join(
                    "%g ns: %s" % (t, design_winner(cont, t)[0]) for t in (1, 100, 1e4, 1e5))))
        peer_table(rows, n, sel)


def peer_table(rows, n, ours):
    """The peers' filters at n (peer_points), each beside the series' shape
    of the same layout, k and bits/key (ours: that n's design points), and
    the winners once they compete."""
    pts = sorted((p for p in peer_points(rows) if int(p["n"]) == n), key=lambda p: (p["bpk_target"], p["shape"]))
    if not pts:
        return
    print()
    print("Peers at n = %.0e, on the same keys (vs ours: ns over the series' shape of the same layout, k and "
          "bits/key; static filters size themselves):" % n)
    fmt = "%-46s %4s %8s %10s %10s %9s %9s %11s %11s"
    print(fmt % ("peer/filter", "bpk", "bits/key", "FPR meas.", "FPR model", "ns build", "ns batch", "build/ours",
                 "batch/ours"))
    for p in pts:
        twin = [q for q in ours if q["layout"] == p["layout"] and int(q["k"]) == int(p.get("k", -1)) and
                q["bpk_target"] == p["bpk_target"]]
        t = twin[0] if twin else {}
        print(fmt % (p["shape"], p["bpk_target"] or "-", "%.2f" % p["bits_per_key"],
                     "%.3g%%" % (100 * p["fpr_measured"]), "%.3g%%" % (100 * p["fpr_model"]),
                     "%.2f" % p["ns_build"], "%.2f" % p["ns_batch"],
                     "%.2f" % (p["ns_build"] / t["ns_build"]) if t else "-",
                     "%.2f" % (p["ns_batch"] / t["ns_batch"]) if t else "-"))
    for b in design_bpks(rows):
        cont = design_contenders(rows, n, b, peers=True)
        if cont:
            print("  %2d bits/key, with the peers, winner at T = %s" % (b, ", ".join(
                "%g ns: %s" % (t, design_winner(cont, t)[0]) for t in (1, 100, 1e4, 1e5))))


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


# --------------------------------------------------------------------------
# The paper's figures (scripts/paper.sh): PDF, sized for the page, every
# machine's run side by side where the machine matters.
KERNEL_RANK = {"avx512": 0, "avx2": 1, "neon": 2, "scalar": 3}


def run_info(path, ctx, rows):
    """What the paper needs to name a run: its results folder (the machine
    name), file, best kernel (first supported, the library lists best first),
    every SBBF kernel measured."""
    folder = os.path.basename(os.path.dirname(os.path.abspath(path)))
    supported = [k for k in ctx.get("bf_kernels_supported", "").split(",") if k]
    measured = []
    for r in rows:
        k = r.get("kernel") if r["kind"] == "kernel" else (r["series"].split("/")[1] if r["kind"] == "matrix" and
                                                            r["family"] == "sbbf" else None)
        if k and k not in measured:
            measured.append(k)
    measured.sort(key=lambda k: KERNEL_RANK.get(k, 9))
    best = supported[0] if supported else (measured[0] if measured else "scalar")
    return {"path": path, "folder": folder, "file": os.path.basename(path), "ctx": ctx, "rows": rows,
            "best": best, "supported": supported, "measured": measured,
            "mode": ctx.get("bf_mode", "?"), "date": ctx.get("bf_date_utc", "")}


def load_runs(paths):
    """Runs ordered best kernel first, then newest; the first is the primary
    run, whose family-level results the paper quotes."""
    runs = [run_info(p, *load(p)) for p in paths]
    runs.sort(key=lambda r: (KERNEL_RANK.get(r["best"], 9), [-ord(c) for c in r["date"]]))
    return runs


def paper_style():
    plt.rcParams.update({"font.size": 7.5, "axes.titlesize": 8, "axes.labelsize": 7.5, "legend.fontsize": 6,
                         "xtick.labelsize": 7, "ytick.labelsize": 7, "lines.markersize": 3.5,
                         "lines.linewidth": 1.1, "pdf.fonttype": 42})


def paper_save(fig, outdir, name):
    os.makedirs(outdir, exist_ok=True)
    path = os.path.join(outdir, name + ".pdf")
    fig.savefig(path, bbox_inches="tight")
    plt.close(fig)
    print("plot.py: wrote %s" % path)


FAMILY_COLOR = {"sbbf": "C0", "bloom": "C2", "counting": "C3", "cuckoo": "C1", "sbbf-generic": "C9"}
SERIES_COLOR = {"scalable/reserved": "C6", "scalable/grown": "C8"}
KERNEL_STYLE = {"avx512": ("C4", "D"), "avx2": ("C0", "^"), "neon": ("C5", "s"), "scalar": ("C7", "o")}


def series_color(s):
    fam, ker = s.split("/", 1)
    if fam == "sbbf" and ker in KERNEL_STYLE:
        return KERNEL_STYLE[ker][0]
    return SERIES_COLOR.get(s) or FAMILY_COLOR.get(fam, color(s))


def paper_models(numbers, outdir):
    """Model FPR against bits/key, and the SBBF's Poisson mixture term by
    term: both computed by the library (paper/numbers.c)."""
    pts = numbers["curves"]["points"]
    fig, (a, b) = plt.subplots(1, 2, figsize=(6.4, 2.5))
    for key, lab, c, ls in (("bloom", "classic Bloom, best $k$", "C2", "-"),
                            ("bloom_k8", "classic, $k=8$ (Arrow/Parquet sizing)", "C2", ":"),
                            ("sbbf", "SBBF, exact Poisson model", "C0", "-"),
                            ("cuckoo", "cuckoo, best $(b, f)$", "C1", "-"),
                            ("counting", "counting Bloom (4-bit counters)", "C3", "--")):
        xs = [p["bpk"] for p in pts if key in p and p[key] == p[key] and p[key] > 0]
        ys = [p[key] for p in pts if key in p and p[key] == p[key] and p[key] > 0]
        a.plot(xs, ys, ls, color=c, label=lab)
    a.set_yscale("log")
    a.set_ylim(1e-6, 1)
    a.set_xlim(2, 40)
    a.set_xlabel("bits per key")
    a.set_ylabel("false-positive rate (model)")
    a.grid(True, which="both", alpha=0.3)
    a.legend()
    a.set_title("(a) models at $n = 10^{%d}$" % round(math.log10(numbers["curves"]["n"])))
    m = numbers["mixture"]
    ls_ = [t[0] for t in m["terms"]]
    b.bar(ls_, [t[1] for t in m["terms"]], color="C7", alpha=0.5, label="P(block holds $L$ keys)")
    contrib = [t[1] * t[2] for t in m["terms"]]
    b2 = b.twinx()
    b2.plot(ls_, [c / m["model_fpp"] for c in contrib], "-", color="C0",
            label="share of the FPR from blocks with $L$ keys")
    b.axvline(m["lambda"], color="black", linestyle=":", linewidth=0.8)
    b.set_xlabel("keys in a block, $L$ (mean $\\lambda = %.1f$)" % m["lambda"])
    b.set_ylabel("Poisson probability")
    b2.set_ylabel("share of false positives")
    b.set_title("(b) SBBF at %g%%, $n = 10^{%d}$: where false positives come from" %
                (100 * m["fpp"], round(math.log10(m["n"]))))
    h1, l1 = b.get_legend_handles_labels()
    h2, l2 = b2.get_legend_handles_labels()
    b.legend(h1 + h2, l1 + l2, loc="upper left")
    b.set_xlim(0, max(10, 2.6 * m["lambda"]))
    fig.tight_layout()
    paper_save(fig, outdir, "fig-models")


def paper_fpr(run, outdir):
    """Measured FPR against bits/key, every family, with the library's model
    curves recorded in the run."""
    ctx, rows = run["ctx"], run["rows"]
    fig, ax = plt.subplots(figsize=(6.4, 2.9))
    done = set()
    for s in series_list(rows):
        fam = s.split("/")[0]
        if fam == "sbbf" and s.split("/")[1] != run["best"] and "sbbf" in done:
            continue  # the kernels give identical bits: one SBBF series is enough
        pts = {}
        for r in pick(rows, kind="matrix", series=s):
            if r.get("fpr_measured") is not None:
                pts[(r["n"], r["fpp"])] = (r["bits_per_key"], r["fpr_measured"], r["n"])
        if not pts:
            continue
        xs, ys, ns = zip(*sorted(pts.values()))
        c = SERIES_COLOR.get(s) or FAMILY_COLOR.get(fam, color(s))
        ax.scatter(xs, [max(y, 1e-7) for y in ys], color=c, s=[4 + 2.5 * math.log10(n) for n in ns], zorder=3,
                   label="%s, measured" % SERIES_NAMES.get(s, fam))
        cf = "sbbf" if fam.startswith("sbbf") else fam
        if cf not in done:
            curve = parse_curve(ctx.get("bf_model_curve_%s" % cf))
            if curve:
                ax.plot([p[0] for p in curve], [p[1] for p in curve], "-", color=c, alpha=0.6,
                        label="%s, model" % cf)
            done.add(cf)
    ax.set_yscale("log")
    ax.set_xlabel("bits per key actually used")
    ax.set_ylabel("false-positive rate")
    ax.set_xlim(0, 80)
    ax.set_ylim(1e-6, 1)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(ncol=2)
    fig.tight_layout()
    paper_save(fig, outdir, "fig-fpr")


def panels(runs, width=6.4, height=2.6):
    fig, axes = plt.subplots(1, len(runs), figsize=(width, height), squeeze=False, sharey=True)
    return fig, axes[0]


def paper_vs_n(runs, outdir, name, ops, what, ylabel, **kw):
    """Time per operation against n at the reference fpp, one panel per
    machine; ops are (operation, line style, marker). For lookups, the
    machine's memory limit at the SBBF's size is drawn too."""
    fig, axes = panels(runs, height=3.0)
    for ax, run in zip(axes, runs):
        rows = run["rows"]
        fpp = ref_fpp(rows)
        lim = {}
        for s in series_list(rows):
            for op, ls, mk in ops:
                pts = by_n(pick(rows, kind="matrix", series=s, op=op, hash="hash_excl", fpp=fpp, threads=1.0, **kw))
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], ls, marker=mk, color=series_color(s),
                            label="%s, %s" % (series_label(s), "batch" if "batch" in op else "single"))
                if op == "contains_batch" and s.startswith("sbbf/"):
                    for r in pick(rows, kind="matrix", series=s, op=op, hash="hash_excl", fpp=fpp, threads=1.0):
                        if "mem_limit_ns" in r:
                            lim.setdefault(r["n"], r["mem_limit_ns"])
        if lim:
            xs = sorted(lim)
            ax.plot(xs, [lim[x] for x in xs], ":", color="black", linewidth=1.8, label="memory limit")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("%s, $n$ (fpp %g%%)" % (what, 100 * fpp))
        ax.set_title(run["folder"])
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel(ylabel)
    axes[0].legend(ncol=2, fontsize=5.5)
    fig.tight_layout()
    paper_save(fig, outdir, name)


def paper_lookup(runs, outdir):
    paper_vs_n(runs, outdir, "fig-lookup", (("contains_single", "-", "o"), ("contains_batch", "--", "^")),
               "keys in the filter", "ns per lookup, 50% positives", pos_pct=50.0)


def paper_insert(runs, outdir):
    paper_vs_n(runs, outdir, "fig-insert", (("insert_single", "-", "o"), ("insert_batch", "--", "^")),
               "keys inserted", "ns per insert")


def paper_kernels(runs, outdir):
    """Batch and single-key contains of every SBBF kernel of every run at
    the kernel benchmark's sizes, with each machine's memory limit."""
    bars = []  # (label, run, kernel)
    for run in runs:
        ks = [r for r in run["rows"] if r["kind"] == "kernel"]
        for k in sorted({r["kernel"] for r in ks}, key=lambda k: KERNEL_RANK.get(k, 9)):
            bars.append(("%s on %s" % (k, run["folder"]), run, k))
    if not bars:
        return
    sizes = sorted({r["bytes"] for run in runs for r in run["rows"] if r["kind"] == "kernel"})
    fig, axes = plt.subplots(1, 2, figsize=(6.4, 2.9), sharey=True)
    nb = len(bars) + len(runs)
    width = 0.85 / nb
    for ax, op in zip(axes, ("contains_batch", "contains_single")):
        i = 0
        for label, run, k in bars:
            ys = []
            for sz in sizes:
                rs = [r for r in run["rows"] if r["kind"] == "kernel" and r["kernel"] == k and r["op"] == op and
                      r["bytes"] == sz and r.get("pos_pct") == 50.0]
                ys.append(rs[0]["ns_per_key"] if rs else float("nan"))
            c, _ = KERNEL_STYLE.get(k, ("C8", "o"))
            hatch = "" if run is runs[0] else "//"
            ax.bar([j + i * width for j in range(len(sizes))], ys, width, color=c, hatch=hatch,
                   edgecolor="white", linewidth=0.3, label=label)
            i += 1
        for run in runs:
            lim = []
            for sz in sizes:
                rs = [r for r in run["rows"] if r["kind"] == "kernel" and r["bytes"] == sz and "mem_limit_ns" in r]
                lim.append(rs[0]["mem_limit_ns"] if rs else float("nan"))
            ax.bar([j + i * width for j in range(len(sizes))], lim, width, color="black",
                   hatch="" if run is runs[0] else "//", edgecolor="white", linewidth=0.3,
                   label="memory limit on %s" % run["folder"])
            i += 1
        ax.set_xticks([j + (nb - 1) * width / 2 for j in range(len(sizes))])
        ax.set_xticklabels([human_bytes(int(s)) for s in sizes])
        ax.set_yscale("log")
        ax.set_xlabel("filter size (10 bits/key)")
        ax.set_title("contains, %s (50%% positives)" % ("batch" if "batch" in op else "single key"))
        ax.grid(True, axis="y", which="both", alpha=0.3)
    axes[0].set_ylabel("ns per key, hashes precomputed")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.tight_layout()
    fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=3, fontsize=5.5, frameon=False)
    paper_save(fig, outdir, "fig-kernels")


def paper_threads(runs, outdir):
    fig, axes = panels(runs, height=2.8)
    any_data = False
    for ax, run in zip(axes, runs):
        rows = run["rows"]
        ns = sorted({r["n"] for r in rows if r["kind"] == "matrix" and r["threads"] > 1})
        for n, ls in zip(ns, ("-", "--", ":", "-.")):
            for s in series_list(rows):
                for op, mk in (("contains_batch", "^"), ("insert_concurrent", "s")):
                    rs = pick(rows, kind="matrix", series=s, op=op, n=n, hash="hash_excl")
                    rs = [r for r in rs if op == "insert_concurrent" or r.get("pos_pct") == 50.0]
                    pts = sorted({r["threads"]: r["ops_per_s"] for r in rs}.items())
                    if len(pts) < 2:
                        continue
                    any_data = True
                    ax.plot([p[0] for p in pts], [p[1] / 1e6 for p in pts], ls, marker=mk, color=series_color(s),
                            label="%s, %s, $n=10^{%d}$" % (series_label(s), op.replace("_", " "),
                                                           round(math.log10(n))))
        ax.set_xlabel("threads (one per core, pinned)")
        ax.set_yscale("log")
        ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
        ax.set_title("%s (%s cores)" % (run["folder"], run["ctx"].get("bf_hwloc_cores", "?")))
        ax.grid(True, which="both", alpha=0.3)
    if not any_data:
        plt.close(fig)
        return
    axes[0].set_ylabel("million operations/s, all threads")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.tight_layout()
    fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=3, fontsize=5.5, frameon=False)
    paper_save(fig, outdir, "fig-threads")


def paper_pareto(run, outdir):
    rows = run["rows"]
    fpps = sorted({r["fpp"] for r in rows if r["kind"] == "matrix"}, reverse=True)
    if not fpps:
        return
    cols = min(4, len(fpps))
    fig, axes = plt.subplots(1, cols, figsize=(6.4, 2.5), squeeze=False, sharey=True)
    for ax, fpp in zip(axes[0], fpps[:cols]):
        nmax = draw_pareto(ax, rows, fpp, series_color, 14, None)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.xaxis.set_major_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.set_xticks([10, 20, 40, 80])
        ax.set_xlabel("bits per key")
        ax.set_title("fpp %g%%, $n = 10^{%d}$" % (100 * fpp, round(math.log10(nmax))))
        ax.grid(True, which="both", alpha=0.3)
    axes[0][0].set_ylabel("ns per lookup")
    seen = {}
    for ax in axes[0]:
        for h, l in zip(*ax.get_legend_handles_labels()):
            seen.setdefault(l, h)
    fig.tight_layout()
    fig.legend(list(seen.values()), list(seen.keys()), loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=5,
               fontsize=5.5, frameon=False)
    paper_save(fig, outdir, "fig-pareto")


def paper_shapes(run, outdir):
    """The cuckoo shapes against the SBBF (primary run), if it measured them."""
    rows = run["rows"]
    ns = shape_ns(rows)
    if not ns:
        return
    fig, axes = plt.subplots(2, len(ns), figsize=(6.4, 4.6), squeeze=False, sharex="col")
    for j, n in enumerate(ns):
        draw_shapes(axes[0][j], axes[1][j], run["ctx"], rows, n, size=12, annotate=False)
        if j:
            axes[0][j].set_ylabel("")
            axes[1][j].set_ylabel("")
    fig.tight_layout()
    shape_legend(fig, 5.5)
    paper_save(fig, outdir, "fig-shapes")


def paper_design(run, outdir):
    """The design space (primary run), if it measured it: the skyline at
    each n, and the winner map at each memory budget."""
    rows = run["rows"]
    ns, bpks = design_ns(rows), design_bpks(rows)
    if not ns:
        return
    fig, axes = plt.subplots(1, len(ns), figsize=(6.4, 2.6), squeeze=False, sharey=True)
    for j, n in enumerate(ns):
        draw_skyline(axes[0][j], rows, n, size=6, annotate=False)
    axes[0][0].set_ylabel("ns per batch lookup")
    fig.tight_layout()
    design_legend(fig, 5.5)
    paper_save(fig, outdir, "fig-design-skyline")
    fig, axes = plt.subplots(len(bpks), 1, figsize=(6.4, 0.5 + 0.35 * len(ns) * len(bpks)), squeeze=False,
                             sharex=True)
    for ax, b in zip(axes[:, 0], bpks):
        draw_winner(ax, rows, b, fontsize=4)
        ax.set_ylabel("n")
        if ax is not axes[-1][0]:
            ax.set_xlabel("")
    fig.tight_layout()
    design_legend(fig, 5.5, with_front=False)
    paper_save(fig, outdir, "fig-design-winner")


def paper(outdir, paths, numbers_path):
    paper_style()
    runs = load_runs(paths)
    if runs:
        check_primary_load(runs[0])
    if numbers_path:
        with open(numbers_path) as f:
            paper_models(json.load(f), outdir)
    if not runs:
        return
    paper_fpr(runs[0], outdir)
    paper_lookup(runs, outdir)
    paper_insert(runs, outdir)
    paper_kernels(runs, outdir)
    paper_threads(runs, outdir)
    paper_pareto(runs[0], outdir)
    paper_shapes(runs[0], outdir)
    paper_design(runs[0], outdir)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("result", nargs="?", help="a blockfilter_bench JSON file")
    ap.add_argument("--outdir", help="folder for the figures (default: the JSON's folder)")
    ap.add_argument("--summary", action="store_true", help="print the summary table instead of plotting")
    ap.add_argument("--compare", nargs=2, metavar=("A", "B"), help="two result files in one figure")
    ap.add_argument("--paper", metavar="DIR", help="the paper's PDF figures from every RUN given, into DIR")
    ap.add_argument("--numbers", help="with --paper: paper/numbers.c's output, for the model figure")
    ap.add_argument("more", nargs="*", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.paper:
        paper(args.paper, ([args.result] if args.result else []) + args.more, args.numbers)
        return 0
    if args.more:
        ap.error("one result file, or --paper DIR with several")
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
    matrix = any(r["kind"] == "matrix" for r in rows)  # figures 1, 2 and 5 draw the families' matrix only
    if matrix:
        plot_lookup(ctx, rows, outdir)
        plot_fpr(ctx, rows, outdir)
    plot_pareto(ctx, rows, outdir)
    plot_threads(ctx, rows, outdir)
    if matrix:
        plot_insert(ctx, rows, outdir)
    plot_kernels(ctx, rows, outdir)
    plot_shapes(ctx, rows, outdir)
    plot_design_fpr(ctx, rows, outdir)
    plot_design_skyline(ctx, rows, outdir)
    plot_design_winner(ctx, rows, outdir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
