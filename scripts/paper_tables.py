#!/usr/bin/python3
"""The paper's tables, quoted numbers and generated text, from results JSON.

  paper_tables.py --out DIR --numbers NUMBERS.json RUN.json...
  paper_tables.py --list-runs RESULTS_DIR     the runs scripts/paper.sh uses by default

NUMBERS.json is paper/numbers.c's output (models, sizings and the worked
example, computed by the library). Each RUN.json is one blockfilter_bench
run (scripts/bench.sh); the run whose machine has the best SBBF kernel is
the primary run, whose family-level numbers the text quotes (plot.py's
load_runs decides, so figures and tables agree). Writes into DIR:

  numbers.tex        \\bfset{key}{value} for every number the text quotes
  tab-*.tex          the tables (booktabs tabulars)
  text-*.tex         sentences that depend on which runs exist
  worked-sbbf.tex    the 2-block SBBF, bit by bit (TikZ)

Nothing in the paper's text is a measured number typed by hand: it says
\\bfnum{key}, and a key this script did not write stops the LaTeX build.
"""
import argparse
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plot  # noqa: E402  (load(), pick(), load_runs(): one reading of the JSON)

NUM = {}


def put(key, value):
    if key in NUM and NUM[key] != value:
        raise SystemExit("paper_tables.py: %s set twice (%s, %s)" % (key, NUM[key], value))
    NUM[key] = value


def sig(x, digits=3):
    """x with `digits` significant digits, no exponent for the ranges used."""
    if x is None or x != x:
        return "--"
    if x == 0:
        return "0"
    x = float("%.*g" % (digits, x))  # round first: 0.99998 becomes 1.00, not 1.000
    mag = int(math.floor(math.log10(abs(x))))
    dec = max(0, digits - 1 - mag)
    return "%.*f" % (dec, x)


def pct(x, digits=3):
    """A rate as a percentage (without the % sign)."""
    return sig(100.0 * x, digits)


def tex(s):
    return (str(s).replace("\\", "\\textbackslash{}").replace("_", "\\_").replace("%", "\\%")
            .replace("&", "\\&").replace("#", "\\#").replace("$", "\\$").replace("{", "\\{")
            .replace("}", "\\}").replace("~", "\\textasciitilde{}").replace("^", "\\textasciicircum{}"))


def tt(s):
    return "\\texttt{%s}" % tex(s)


def pow10(n):
    e = math.log10(n)
    return "\\ensuremath{10^{%d}}" % round(e) if abs(e - round(e)) < 1e-9 else sig(n)


def write(outdir, name, text):
    with open(os.path.join(outdir, name), "w") as f:
        f.write(text)


def table(cols, header, body, note=None):
    out = ["\\begin{tabular}{%s}" % cols, "\\toprule", " & ".join(header) + " \\\\", "\\midrule"]
    for row in body:
        out.append("\\midrule" if row == "MID" else " & ".join(row) + " \\\\")
    out.append("\\bottomrule")
    out.append("\\end{tabular}")
    if note:
        out.append("\\par\\smallskip{\\footnotesize %s}" % note)
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------
# The library's numbers (paper/numbers.c): models, sizings, worked example.
FAMS = ("sbbf", "bloom", "counting", "cuckoo")


def model_numbers(nums, outdir):
    put("lib-version", nums["library_version"])
    rows = []
    for t in nums["targets"]:
        e = "%g" % (100 * t["fpp"])
        for fam in FAMS:
            put("bpk-%s-%s" % (fam, e), sig(t[fam]["bits_per_key"], 4))
            put("model-%s-%s" % (fam, e), pct(t[fam]["model_fpp"]))
        put("k-bloom-%s" % e, str(t["bloom"]["k"]))
        put("fpbits-cuckoo-%s" % e, str(t["cuckoo"]["fp_bits"]))
        put("bsize-cuckoo-%s" % e, str(t["cuckoo"]["bucket_size"]))
        d = t["sbbf"]["bits_per_key"] - t["bloom"]["bits_per_key"]
        put("penalty-bpk-%s" % e, sig(d, 3))
        put("penalty-pct-%s" % e, sig(100 * d / t["bloom"]["bits_per_key"], 2))
        put("bloom-at-sbbf-%s" % e, pct(t["bloom_at_sbbf_bytes_fpp"]))
        put("sbbf-at-bloom-%s" % e, pct(t["sbbf_at_bloom_bytes_fpp"]))
        pf = t["parquet_formula"]
        put("pqformula-bpk-%s" % e, sig(pf["bits_per_key"], 3))
        put("pqformula-fpp-%s" % e, pct(pf["model_fpp"]))
        put("pqformula-k8-%s" % e, pct(pf["k8_fpp"]))
        put("pqformula-ratio-%s" % e, sig(pf["model_fpp"] / t["fpp"], 3))
        ps = t["parquet_sizing"]
        put("pqsize-bpk-%s" % e, sig(ps["bits_per_key"], 4))
        put("pqsize-fpp-%s" % e, pct(ps["model_fpp"]))
        put("pqsize-verdict-%s" % e, "misses the target" if ps["model_fpp"] > t["fpp"] else "meets the target")
        put("pqsize-over-compact-%s" % e, sig(ps["bits_per_key"] / t["sbbf"]["bits_per_key"], 3))
        rows.append([
            "%s\\,\\%%" % e,
            sig(t["bloom"]["bits_per_key"], 4) + " ($k{=}%d$)" % t["bloom"]["k"],
            sig(t["sbbf"]["bits_per_key"], 4),
            "+" + sig(d, 3),
            pct(t["bloom_at_sbbf_bytes_fpp"]) + "\\,\\%",
            sig(t["counting"]["bits_per_key"], 4),
            sig(t["cuckoo"]["bits_per_key"], 4) + " $(%d,%d)$" % (t["cuckoo"]["bucket_size"], t["cuckoo"]["fp_bits"]),
            sig(pf["bits_per_key"], 3),
            pct(pf["model_fpp"]) + "\\,\\%",
            sig(ps["bits_per_key"], 4),
            pct(ps["model_fpp"]) + "\\,\\%",
        ])
    n = nums["targets"][0]["n"]
    put("targets-n", pow10(n))
    write(outdir, "tab-space.tex", table(
        "r rr r r r r rr rr",
        ["target", "classic", "SBBF", "$\\Delta$", "classic at", "counting", "cuckoo",
         "\\multicolumn{2}{c}{Parquet formula}", "\\multicolumn{2}{c}{Parquet sizing}"],
        [["$\\varepsilon$", "bits/key", "bits/key", "bits/key", "SBBF size", "bits/key", "bits/key",
          "bits/key", "real FPR", "bits/key", "real FPR"], "MID"] + rows,
        "All at $n = %s$, from \\texttt{bf\\_size\\_for}, \\texttt{bf\\_fpp\\_for}, "
        "\\texttt{bf\\_sbbf\\_parquet\\_bytes} and \\texttt{bf\\_sbbf\\_model\\_fpp} (library %s, "
        "\\texttt{paper/numbers.c}). Cuckoo: the shape $(b, f)$ sizing picks in parentheses. Real FPR: the exact "
        "Poisson model of the SBBF at that size. "
        "Parquet formula: $-8/\\ln(1-\\varepsilon^{1/8})$ bits/key before rounding; Parquet sizing: "
        "rounded up to a power of two." % (pow10(n), tex(nums["library_version"]))))

    smaller = ["%g\\,\\%%" % (100 * t["fpp"]) for t in nums["targets"]
               if t["cuckoo"]["bits_per_key"] < t["bloom"]["bits_per_key"]]
    if smaller:
        put("cuckoo-vs-bloom", "The cuckoo filter needs fewer bits per key than the classic filter at %s of "
            "the four targets of \\cref{tab:space}" % ", ".join(smaller))
    else:
        put("cuckoo-vs-bloom", "At none of the four targets of \\cref{tab:space} does the cuckoo filter need "
            "fewer bits per key than the classic filter: the fingerprint each target needs, over the load its "
            "buckets reach, costs more than the classic filter's bits")
    m = nums["mixture"]
    put("mix-lambda", sig(m["lambda"], 3))
    put("mix-model", pct(m["model_fpp"]))
    put("mix-even", pct(m["even_load_fpp"]))
    put("mix-bytes", "{:,}".format(m["bytes"]).replace(",", "\\,"))
    # Share of false positives from blocks above their mean load.
    above = sum(t[1] * t[2] for t in m["terms"] if t[0] > m["lambda"]) / m["model_fpp"]
    put("mix-above-share", sig(100 * above, 2))
    pabove = sum(t[1] for t in m["terms"] if t[0] > m["lambda"])
    put("mix-above-prob", sig(100 * pabove, 2))
    worked(nums["worked"], outdir)


def worked(w, outdir):
    """The 2-block SBBF as a TikZ grid: 2 blocks x 8 words x 32 bits, each
    set bit coloured by the key that set it, and the query table."""
    colors = ["blue!70", "red!70", "green!50!black", "orange"]
    blocks = w["blocks"]
    owner = {}
    for i, ins in enumerate(w["inserts"]):
        for word, bit in enumerate(ins["bits"]):
            owner.setdefault((ins["block"], word, bit), []).append(i)
    s = 0.36  # cm per bit
    out = ["\\begin{tikzpicture}[x=%.3fcm,y=-%.3fcm,font=\\scriptsize]" % (s, s)]
    for b in range(blocks):
        y0 = b * 9.5
        out.append("\\node[anchor=east] at (-3.6,%g) {block %d};" % (y0 + 4, b))
        for word in range(8):
            y = y0 + word
            out.append("\\node[anchor=east,font=\\tiny] at (-0.1,%g) {word %d};" % (y + 0.5, word))
            for bit in range(32):
                x = 31 - bit  # bit 31 on the left, as a 32-bit word is written
                who = owner.get((b, word, bit))
                if who:
                    fill = colors[who[0] % len(colors)] if len(who) == 1 else "black"
                    out.append("\\fill[%s] (%d,%g) rectangle (%d,%g);" % (fill, x, y, x + 1, y + 1))
        for x in range(1, 32):
            out.append("\\draw[gray!50] (%d,%g) -- (%d,%g);" % (x, y0, x, y0 + 8))
        for y in range(1, 8):
            out.append("\\draw[gray!50] (0,%g) -- (32,%g);" % (y0 + y, y0 + y))
        out.append("\\draw[thick] (0,%g) rectangle (32,%g);" % (y0, y0 + 8))
    for x, lab in ((0, "31"), (31, "0")):
        out.append("\\node[font=\\tiny] at (%g,-0.6) {bit %s};" % (x + 0.5, lab))
    legend = []
    for i, ins in enumerate(w["inserts"]):
        legend.append("\\textcolor{%s}{\\rule{1.4ex}{1.4ex}}~\\texttt{%s} (block %d)" %
                      (colors[i % len(colors)], tex(ins["key"]), ins["block"]))
    out.append("\\node[anchor=north] at (16,%g) {%s};" % (blocks * 9.5 - 1.0, "\\quad ".join(legend)))
    out.append("\\end{tikzpicture}")
    write(outdir, "worked-sbbf.tex", "\n".join(out) + "\n")

    rows = []
    for ins in w["inserts"]:
        rows.append([tt(ins["key"]), "insert", "\\texttt{%s}" % ins["hash"], str(ins["block"]),
                     ", ".join(str(b) for b in ins["bits"]), "--"])
    rows.append("MID")
    for q in w["queries"]:
        bits = ", ".join(("%d" % b) if on else ("\\underline{%d}" % b) for b, on in q["bits"])
        rows.append([tt(q["key"]), "query", "\\texttt{%s}" % q["hash"], str(q["block"]), bits,
                     "present?" if q["contains"] else "absent"])
    write(outdir, "tab-worked.tex", table(
        "l l l c l l", ["key", "", "XXH64 (seed 0)", "block", "bit in words 0--7", "answer"], rows,
        "Block $= \\lfloor (h \\gg 32)\\cdot z / 2^{32}\\rfloor$ with $z = %d$; bit in word $i$ "
        "$= ((h \\bmod 2^{32})\\cdot \\mathrm{SALT}_i \\bmod 2^{32}) \\gg 27$. Underlined: a bit the query "
        "finds clear. Printed by \\texttt{paper/numbers.c}, which checks every bit against the "
        "library's own bitset." % blocks))
    put("worked-keys", str(len(w["inserts"])))
    put("worked-bytes", str(w["bytes"]))
    absent = [q for q in w["queries"] if not q["contains"]]
    if absent:
        q = absent[0]
        word = next(i for i, (b, on) in enumerate(q["bits"]) if not on)
        put("worked-absent-key", tt(q["key"]))
        put("worked-absent-word", str(word))
        put("worked-absent-bit", str(q["bits"][word][0]))
        put("worked-absent-block", str(q["block"]))


# --------------------------------------------------------------------------
# Results.
def one(rows, **kw):
    rs = plot.pick(rows, **kw)
    return rs[0] if rs else None


def matrix(run, series, op, n, fpp, pos=50.0, threads=1.0, hash_="hash_excl"):
    kw = dict(kind="matrix", series=series, op=op, n=n, fpp=fpp, threads=threads, hash=hash_)
    if pos is not None:
        kw["pos_pct"] = pos
    return one(run["rows"], **kw)


def kern(run, kernel, op, size, pos=50.0):
    for r in run["rows"]:
        if r["kind"] == "kernel" and r["kernel"] == kernel and r["op"] == op and r["bytes"] == size and \
                r.get("pos_pct") == pos:
            return r
    return None


def sbbf_series(run):
    return "sbbf/%s" % run["best"] if ("sbbf/%s" % run["best"]) in plot.series_list(run["rows"]) else next(
        (s for s in plot.series_list(run["rows"]) if s.startswith("sbbf/")), None)


def machine_table(runs, outdir):
    def caches(ctx):
        return tex(ctx.get("bf_caches", "?")).replace("; ", "\\newline ")

    def reps(run):
        return str(max([int(r.get("repetitions", 1)) for r in run["rows"]] or [1]))

    fields = [
        ("results folder", lambda r: tt(r["folder"])),
        ("file", lambda r: "\\texttt{\\footnotesize %s}" % tex(r["file"])),
        ("CPU (\\texttt{/proc/cpuinfo})", lambda r: tex(r["ctx"].get("bf_cpu_model", "?"))),
        ("cores / PUs / NUMA nodes", lambda r: "%s / %s / %s" % (r["ctx"].get("bf_hwloc_cores", "?"),
                                                                 r["ctx"].get("bf_hwloc_pus", "?"),
                                                                 r["ctx"].get("bf_hwloc_numa_nodes", "?"))),
        ("clock (Google Benchmark)", lambda r: "%s MHz" % r["ctx"].get("mhz_per_cpu", "?")),
        ("caches (hwloc)", lambda r: caches(r["ctx"])),
        ("transparent huge pages", lambda r: tex(r["ctx"].get("bf_thp", "?"))),
        ("kernels supported / measured", lambda r: "%s / %s" % (tex(",".join(r["supported"]) or "?"),
                                                                 tex(",".join(r["measured"])))),
        ("compiler, build", lambda r: tex("%s; %s" % (r["ctx"].get("bf_compiler_c", "?"),
                                                     r["ctx"].get("bf_build", "?").split(" c_args")[0]))),
        ("commit, date (UTC)", lambda r: tex("%s, %s" % (r["ctx"].get("bf_commit", "?"),
                                                        r["ctx"].get("bf_date_utc", "?")))),
        ("matrix", lambda r: tex("%s: n = %s; fpp = %s" % (r["mode"], r["ctx"].get("bf_matrix_n", "?"),
                                                           r["ctx"].get("bf_matrix_fpp", "?")))),
        ("key seed", lambda r: tt(r["ctx"].get("bf_seed", "?"))),
        ("negative keys for FPR", lambda r: tex(r["ctx"].get("bf_fpr_negative_keys", "?"))),
        ("queries per timed pass", lambda r: tex(r["ctx"].get("bf_queries_per_pass", "?"))),
        ("min.\\ time per benchmark, repetitions", lambda r: "%s s, %s" % (tex(r["ctx"].get("bf_min_time_s", "?")),
                                                                            reps(r))),
    ]
    width = "%.2f\\linewidth" % (0.68 / len(runs))
    body = [[name] + [f(r) for r in runs] for name, f in fields]
    write(outdir, "tab-machines.tex", table("l" + ("p{%s}" % width) * len(runs),
                                            ["", ] + ["run %d" % (i + 1) for i in range(len(runs))], body))
    for i, r in enumerate(runs):
        put("run%d-folder" % (i + 1), tt(r["folder"]))
        put("run%d-file" % (i + 1), "\\texttt{results/%s/%s}" % (tex(r["folder"]), tex(r["file"])))
    put("runs", str(len(runs)))
    p = runs[0]
    put("p-folder", tt(p["folder"]))
    put("p-path", "\\texttt{results/%s/\\allowbreak %s}" % (tex(p["folder"]), tex(p["file"])))
    put("p-cpu", tex(p["ctx"].get("bf_cpu_model", "?")))
    put("p-cores", str(p["ctx"].get("bf_hwloc_cores", "?")))
    put("p-best", tt(p["best"]))
    put("p-mhz", str(p["ctx"].get("mhz_per_cpu", "?")))
    put("p-thp", tex(p["ctx"].get("bf_thp", "?")))
    put("p-seed", tt(p["ctx"].get("bf_seed", "?")))
    negk = p["ctx"].get("bf_fpr_negative_keys", "")
    put("p-negatives", "{:,}".format(int(float(negk))).replace(",", "\\,") if negk else "?")
    put("p-compiler", tex(p["ctx"].get("bf_compiler_c", "?")))
    put("p-min-time", tex(p["ctx"].get("bf_min_time_s", "?")))
    put("p-reps", reps(p))
    put("p-mode", tex(p["mode"]))
    put("p-commit", tt(p["ctx"].get("bf_commit", "?")))


def lookup_table(p, outdir):
    rows = p["rows"]
    fpp = plot.ref_fpp(rows)
    put("ref-fpp", "%g" % (100 * fpp))
    body = []
    for s in plot.series_list(rows):
        ns = sorted({r["n"] for r in plot.pick(rows, kind="matrix", series=s, fpp=fpp)})
        first = True
        for n in ns:
            single = matrix(p, s, "contains_single", n, fpp)
            batch = matrix(p, s, "contains_batch", n, fpp)
            r = single or batch
            if not r:
                continue
            if first and body:
                body.append("MID")
            body.append([tex(plot.series_label(s)) if first else "", pow10(n), sig(r["bits_per_key"], 4),
                         pct(r["fpr_measured"]), pct(r["fpr_model"]),
                         sig(single["ns_per_op"]) if single else "--",
                         sig(batch["ns_per_op"]) if batch else "--",
                         sig(batch.get("x_mem_limit")) if batch and "x_mem_limit" in batch else "--"])
            first = False
    write(outdir, "tab-lookup.tex", table(
        "l r r r r r r r",
        ["family (kernel)", "$n$", "bits/key", "FPR \\%", "model \\%", "ns single", "ns batch", "$\\times$ limit"],
        body,
        "Run %s. Target fpp %g\\,\\%%, 50\\,\\%% positive queries, hashes precomputed, one thread; "
        "FPR measured on never-inserted keys; $\\times$ limit: batch lookup time over the random-read limit "
        "for a buffer of the filter's size." % (NUM["p-path"], 100 * fpp)))


def fpr_table(p, outdir):
    rows = p["rows"]
    neg = float(p["ctx"].get("bf_fpr_negative_keys", "1e6"))
    body = []
    worst = 0.0
    for s in plot.series_list(rows):
        fam = s.split("/")[0]
        if fam == "sbbf" and s != sbbf_series(p):
            continue
        if body:
            body.append("MID")
        first = True
        for fpp in sorted({r["fpp"] for r in plot.pick(rows, kind="matrix", series=s)}, reverse=True):
            nmax = max(r["n"] for r in plot.pick(rows, kind="matrix", series=s, fpp=fpp))
            r = matrix(p, s, "contains_batch", nmax, fpp) or matrix(p, s, "contains_single", nmax, fpp)
            if not r:
                continue
            model, meas = r["fpr_model"], r["fpr_measured"]
            sd = math.sqrt(model * (1 - model) / neg)
            z = (meas - model) / sd if sd > 0 else 0
            worst = max(worst, abs(z))
            body.append([fam if first else "", "%g\\,\\%%" % (100 * fpp), pow10(nmax), sig(r["bits_per_key"], 4),
                         pct(model, 4), pct(meas, 4), "%+.1f" % z])
            first = False
    put("fpr-worst-sigma", "%.1f" % worst)
    put("fpr-verdict", "within the spread that sampling alone explains: every family's model predicts what the "
        "filter does" if worst <= 3.0 else
        "more than sampling alone explains (over three standard deviations): a model and its filter disagree, "
        "and this run should be checked")
    write(outdir, "tab-fpr.tex", table(
        "l r r r r r r", ["family", "target", "$n$", "bits/key", "model \\%", "measured \\%", "dev.\\ ($\\sigma$)"],
        body,
        "Run %s, the largest $n$ of each target; %s never-inserted keys per filter; "
        "$\\sigma = \\sqrt{p(1-p)/N}$ for the model's $p$. The SBBF kernels give identical bits, so one "
        "kernel stands for all." % (NUM["p-path"], sig(neg, 2))))


def quoted_results(p, outdir):
    rows = p["rows"]
    fpp = plot.ref_fpp(rows)
    s = sbbf_series(p)
    nmax = max(r["n"] for r in plot.pick(rows, kind="matrix", fpp=fpp))
    put("p-nmax", pow10(nmax))
    b = matrix(p, s, "contains_batch", nmax, fpp)
    put("p-sbbf-kernel", tt(s.split("/")[1]))
    if b:
        put("p-sbbf-batch-nmax", sig(b["ns_per_op"]))
        put("p-sbbf-batch-nmax-x", sig(b.get("x_mem_limit")))
        put("p-limit-nmax", sig(b.get("mem_limit_ns")))
        put("p-sbbf-mib-nmax", sig(b["bytes"] / 2 ** 20))
    sgl = matrix(p, s, "contains_single", nmax, fpp)
    if sgl:
        put("p-sbbf-single-nmax", sig(sgl["ns_per_op"]))
    for fam in ("bloom", "counting", "cuckoo"):
        r = matrix(p, fam + "/-", "contains_batch", nmax, fpp)
        r1 = matrix(p, fam + "/-", "contains_single", nmax, fpp)
        if r:
            put("p-%s-batch-nmax" % fam, sig(r["ns_per_op"]))
            if b:
                put("p-%s-over-sbbf-nmax" % fam, sig(r["ns_per_op"] / b["ns_per_op"], 2))
        if r1:
            put("p-%s-single-nmax" % fam, sig(r1["ns_per_op"]))
        r6 = matrix(p, fam + "/-", "contains_batch", 1e6, fpp)
        if r6:
            put("p-%s-batch-1e6" % fam, sig(r6["ns_per_op"]))
    b6 = matrix(p, s, "contains_batch", 1e6, fpp)
    if b6:
        put("p-sbbf-batch-1e6", sig(b6["ns_per_op"]))
    # Hashing inside the timed loop (the byte-string calls) against outside.
    for n, tag in ((1e6, "1e6"), (nmax, "nmax")):
        for fam_s, name in ((s, "sbbf"), ("bloom/-", "bloom")):
            ex = matrix(p, fam_s, "contains_batch", n, fpp)
            inc = matrix(p, fam_s, "contains_batch", n, fpp, hash_="hash_incl")
            if ex and inc:
                put("p-%s-hashincl-%s" % (name, tag), sig(inc["ns_per_op"]))
                put("p-%s-hashcost-%s" % (name, tag), sig(inc["ns_per_op"] - ex["ns_per_op"]))
    # Query mix: all-negative against all-positive lookups, classic filter.
    for fam_s, name in (("bloom/-", "bloom"), (s, "sbbf"), ("cuckoo/-", "cuckoo")):
        neg = matrix(p, fam_s, "contains_single", 1e6, fpp, pos=0.0)
        posr = matrix(p, fam_s, "contains_single", 1e6, fpp, pos=100.0)
        if neg and posr:
            put("p-%s-single-pos0-1e6" % name, sig(neg["ns_per_op"]))
            put("p-%s-single-pos100-1e6" % name, sig(posr["ns_per_op"]))
    # Inserts.
    for fam_s, name in ((s, "sbbf"), ("bloom/-", "bloom"), ("counting/-", "counting"), ("cuckoo/-", "cuckoo")):
        r = matrix(p, fam_s, "insert_batch", nmax, fpp, pos=None)
        r1 = matrix(p, fam_s, "insert_single", nmax, fpp, pos=None)
        if r:
            put("p-%s-insert-batch-nmax" % name, sig(r["ns_per_op"]))
        if r1:
            put("p-%s-insert-single-nmax" % name, sig(r1["ns_per_op"]))
    # Memory limit at the largest buffer measured.
    ml = [r for r in rows if r["kind"] == "memlimit"]
    if ml:
        big = max(ml, key=lambda r: r["bytes"])
        small = min(ml, key=lambda r: r["bytes"])
        put("p-limit-largest", sig(big["ns_per_op"]))
        put("p-limit-largest-size", plot.human_bytes(int(big["bytes"])).replace(" ", "~"))
        put("p-limit-smallest", sig(small["ns_per_op"]))
        put("p-limit-smallest-size", plot.human_bytes(int(small["bytes"])).replace(" ", "~"))
        put("p-limit-huge", sig(100 * big.get("huge_page_fraction", float("nan")), 2))


def kernel_tables(runs, outdir):
    body = []
    sentences = []
    any_avx512 = False
    for i, run in enumerate(runs):
        ks = [r for r in run["rows"] if r["kind"] == "kernel"]
        kernels = sorted({r["kernel"] for r in ks}, key=lambda k: plot.KERNEL_RANK.get(k, 9))
        sizes = sorted({r["bytes"] for r in ks})
        if not kernels:
            continue
        if body:
            body.append("MID")
        for k in kernels:
            first = True
            for sz in sizes:
                b = kern(run, k, "contains_batch", sz)
                s1 = kern(run, k, "contains_single", sz)
                sc = kern(run, "scalar", "contains_batch", sz)
                if not b:
                    continue
                body.append([tt(run["folder"]) if first and k == kernels[0] else "", tt(k) if first else "",
                             plot.human_bytes(int(sz)), sig(s1["ns_per_key"]) if s1 else "--", sig(b["ns_per_key"]),
                             "%.0f" % (b["keys_per_s"] / 1e6), sig(b.get("x_mem_limit")),
                             sig(sc["ns_per_key"] / b["ns_per_key"], 2) if sc else "--"])
                first = False
        # Quoted numbers per run: L2-sized (256 KiB) and the largest size.
        l2 = min(sizes, key=lambda x: abs(math.log(x / 262144.0)))
        big = max(sizes)
        tag = "k%d" % (i + 1)
        put("%s-l2" % tag, plot.human_bytes(int(l2)).replace(" ", "~"))
        put("%s-big" % tag, plot.human_bytes(int(big)).replace(" ", "~"))
        for k in kernels:
            for sz, stag in ((l2, "l2"), (big, "big")):
                b = kern(run, k, "contains_batch", sz)
                s1 = kern(run, k, "contains_single", sz)
                if b:
                    put("%s-%s-batch-%s" % (tag, k, stag), sig(b["ns_per_key"]))
                    put("%s-%s-mkeys-%s" % (tag, k, stag), "%.0f" % (b["keys_per_s"] / 1e6))
                    put("%s-%s-x-%s" % (tag, k, stag), sig(b.get("x_mem_limit")))
                if s1:
                    put("%s-%s-single-%s" % (tag, k, stag), sig(s1["ns_per_key"]))
            ins = kern(run, k, "insert_batch", big, pos=100.0)
            if ins:
                put("%s-%s-insert-batch-big" % (tag, k), sig(ins["ns_per_key"]))
                put("%s-%s-insert-x-big" % (tag, k), sig(ins.get("x_mem_limit")))
        # The run's best kernel under a fixed name, for the text.
        put("%s-best" % tag, tt(kernels[0]))
        for sz, stag in ((l2, "l2"), (big, "big")):
            b = kern(run, kernels[0], "contains_batch", sz)
            s1 = kern(run, kernels[0], "contains_single", sz)
            if b:
                put("%s-best-batch-%s" % (tag, stag), sig(b["ns_per_key"]))
                put("%s-best-x-%s" % (tag, stag), sig(b.get("x_mem_limit")))
            if s1:
                put("%s-best-single-%s" % (tag, stag), sig(s1["ns_per_key"]))
        lim = [r for r in run["rows"] if r["kind"] == "kernel" and r["bytes"] == big and "mem_limit_ns" in r]
        if lim:
            put("%s-limit-big" % tag, sig(lim[0]["mem_limit_ns"]))
        # The sentence for this run.
        parts = []
        best = kernels[0]
        bl2 = kern(run, best, "contains_batch", l2)
        for k in kernels:
            b = kern(run, k, "contains_batch", l2)
            if b:
                parts.append("%s ns/key with %s" % (sig(b["ns_per_key"]), tt(k)))
        ratios = []
        for k in kernels[1:]:
            b = kern(run, k, "contains_batch", l2)
            if b and bl2:
                ratios.append("%s$\\times$ as fast as %s" % (sig(b["ns_per_key"] / bl2["ns_per_key"], 2), tt(k)))
        s1b = [kern(run, k, "contains_single", sz) for sz in sizes for k in (best,)]
        s1s = [kern(run, "scalar", "contains_single", sz) for sz in sizes]
        single = [s.get("ns_per_key") / b.get("ns_per_key") for b, s in zip(s1b, s1s) if b and s]
        bbig = kern(run, best, "contains_batch", big)
        txt = ("On %s (kernels measured: %s), batch contains in a %s filter takes %s" %
               (tt(run["folder"]), ", ".join(tt(k) for k in kernels), plot.human_bytes(int(l2)),
                ", ".join(parts)))
        if ratios:
            txt += ": %s is %s" % (tt(best), " and ".join(ratios))
        txt += "."
        if bbig and "x_mem_limit" in bbig:
            txt += (" At %s the %s batch lookup runs at %s$\\times$ the machine's random-read limit (%s against %s ns)." %
                    (plot.human_bytes(int(big)), tt(best), sig(bbig["x_mem_limit"]), sig(bbig["ns_per_key"]),
                     sig(bbig["mem_limit_ns"])))
        if single and best != "scalar":
            txt += (" Single-key contains with %s is %s--%s$\\times$ as fast as scalar across the sizes." %
                    (tt(best), sig(min(single), 2), sig(max(single), 2)))
        sentences.append(txt)
        if "avx512" in kernels:
            any_avx512 = True
            a5 = kern(run, "avx512", "contains_batch", l2)
            a2 = kern(run, "avx2", "contains_batch", l2)
            if a5 and a2:
                put("avx512-over-avx2-l2", sig(a2["ns_per_key"] / a5["ns_per_key"], 2))
    write(outdir, "tab-kernels.tex", table(
        "l l r r r r r r",
        ["machine", "kernel", "filter", "ns single", "ns batch", "Mkeys/s", "$\\times$ limit", "vs scalar"],
        body,
        "Filters at 10 bits/key, hashes precomputed, 50\\,\\% positive queries, one thread. $\\times$ limit: "
        "batch time over the random-read limit at that size on the same machine. vs scalar: the scalar "
        "kernel's batch time over this kernel's, same machine, same size."))
    if not any_avx512:
        folders = ", ".join(tt(r["folder"]) for r in runs)
        sentences.append(
            "No run given to this build of the paper measured the AVX-512 kernel: the results used (%s) come "
            "from machines that do not expose AVX-512, so this paper shows no AVX-512 timing. The kernel is "
            "built and its bits are tested on every host through SIMDe (\\cref{sec:kernels}); a run from a "
            "machine with AVX-512, committed under \\texttt{results/} and picked up by "
            "\\texttt{./scripts/paper.sh}, adds it to \\cref{fig:kernels,tab:kernels}." % folders)
    if not any("neon" in r["measured"] for r in runs):
        sentences.append("No aarch64 run is included, so the NEON kernel's speed is not shown; "
                         "its bits are tested under qemu, which says nothing about speed.")
    write(outdir, "text-kernels.tex", "\n\n".join(sentences) + "\n")
    put("any-avx512", "yes" if any_avx512 else "no")


def thread_table(runs, outdir):
    body = []
    sentences = []
    for run in runs:
        rows = run["rows"]
        cores = run["ctx"].get("bf_hwloc_cores", "?")
        ns = sorted({r["n"] for r in rows if r["kind"] == "matrix" and r["threads"] > 1})
        tmax = max([r["threads"] for r in rows if r["kind"] == "matrix"] or [1])
        if not ns:
            continue
        if body:
            body.append("MID")
        first = True
        for s in plot.series_list(rows):
            for op in ("contains_batch", "insert_concurrent"):
                for n in ns:
                    rs = plot.pick(rows, kind="matrix", series=s, op=op, n=n, hash="hash_excl")
                    rs = [r for r in rs if op == "insert_concurrent" or r.get("pos_pct") == 50.0]
                    by_t = {r["threads"]: r["ops_per_s"] for r in rs}
                    if 1.0 not in by_t or tmax not in by_t:
                        continue
                    body.append([tt(run["folder"]) if first else "", tex(plot.series_label(s)),
                                 op.replace("_", " "), pow10(n), sig(by_t[1.0] / 1e6), sig(by_t[tmax] / 1e6),
                                 sig(by_t[tmax] / by_t[1.0], 2)])
                    first = False
        sentences.append("%s has %s cores, so its scaling runs stop at %d threads." %
                         (tt(run["folder"]), cores, int(tmax)))
    p = runs[0]
    s = sbbf_series(p)
    rows = p["rows"]
    tmax = max([r["threads"] for r in rows if r["kind"] == "matrix"] or [1])
    put("p-tmax", "%d" % tmax)
    for n, tag in ((1e6, "1e6"), (1e8, "1e8")):
        for op, name in (("contains_batch", "batch"), ("insert_concurrent", "ins")):
            rs = plot.pick(rows, kind="matrix", series=s, op=op, n=n, hash="hash_excl")
            rs = [r for r in rs if op == "insert_concurrent" or r.get("pos_pct") == 50.0]
            by_t = {r["threads"]: r["ops_per_s"] for r in rs}
            if 1.0 in by_t and tmax in by_t:
                put("p-thr-%s-%s-1" % (name, tag), sig(by_t[1.0] / 1e6))
                put("p-thr-%s-%s-max" % (name, tag), sig(by_t[tmax] / 1e6))
                put("p-thr-%s-%s-speedup" % (name, tag), sig(by_t[tmax] / by_t[1.0], 2))
    big, small = NUM.get("p-thr-ins-1e8-speedup"), NUM.get("p-thr-ins-1e6-speedup")
    if big and small:
        if float(big) > 1.15 * float(small):
            verdict = ("scale better where the filter is large (%s$\\times$ at $n = 10^8$) than where it is small "
                       "(%s$\\times$ at $n = 10^6$), where the threads contend for the same cache lines" %
                       (big, small))
        else:
            verdict = "scale by %s$\\times$ at $n = 10^8$ and %s$\\times$ at $n = 10^6$" % (big, small)
        put("p-thr-ins-verdict", verdict)
    write(outdir, "tab-threads.tex", table(
        "l l l r r r r", ["machine", "family (kernel)", "operation", "$n$", "1 thread", "max threads", "speed-up"],
        body, "Million operations per second over all threads, one shared filter, one thread per core "
        "(pinned); max threads = the machine's core count. fpp 1\\,\\%."))
    many = [r for r in runs if str(r["ctx"].get("bf_hwloc_cores", "0")).isdigit() and
            int(r["ctx"]["bf_hwloc_cores"]) > 4]
    if not many:
        sentences.append("No machine used here has more than %s cores: what the shared filter does at 8, 32 "
                         "or 128 threads (contention on the cache lines concurrent inserts OR into, memory "
                         "bandwidth shared by many lookup threads) is not measured in this paper." %
                         max(str(r["ctx"].get("bf_hwloc_cores", "?")) for r in runs))
    write(outdir, "text-threads.tex", " ".join(sentences) + "\n")


def limits_text(runs, outdir):
    """What the runs could not show, said from what they hold."""
    out = []
    if not any("avx512" in r["measured"] for r in runs):
        out.append("AVX-512 timings: no run measured the AVX-512 kernel (\\cref{sec:results-kernels}).")
    if not any("neon" in r["measured"] for r in runs):
        out.append("NEON timings: no aarch64 run.")
    cores = sorted({str(r["ctx"].get("bf_hwloc_cores", "?")) for r in runs})
    out.append("Thread scaling beyond %s core(s), the most any machine here had." % "/".join(cores))
    models = sorted({r["ctx"].get("bf_cpu_model", "?") for r in runs})
    if len(models) == 1:
        out.append("Other CPUs: every run comes from one CPU model (%s)." % tex(models[0]))
    reps = max(int(b.get("repetitions", 1)) for r in runs for b in r["rows"])
    if reps <= 1:
        out.append("Run-to-run spread: each benchmark ran once per run (no repetitions), so the tables "
                   "carry no error bars for time; read ratios, not last digits.")
    write(outdir, "text-limits.tex", "\\begin{itemize}\n" + "".join("\\item %s\n" % o for o in out) +
          "\\end{itemize}\n")


def provenance_table(runs, outdir):
    """Where each figure and table of the paper comes from."""
    prim = NUM["p-path"]
    every = " and ".join("\\texttt{results/%s/\\allowbreak %s}" % (tex(r["folder"]), tex(r["file"]))
                         for r in runs)
    lib = "\\texttt{paper/numbers.c}: the library's models, sizings and bit layout (no measurement)"
    body = [
        ["\\cref{fig:worked,tab:worked}", lib],
        ["\\cref{fig:models,tab:space}", lib],
        ["\\cref{fig:fpr,tab:fpr,tab:lookup,fig:pareto}", "primary run: %s" % prim],
        ["\\cref{tab:decision}", "\\texttt{paper/numbers.c} (bits/key) and the primary run (ns/lookup)"],
        ["\\cref{tab:cost-lsm,tab:cost-join}", "primary run, with the stated cost of a false positive"],
    ] + ([["\\cref{fig:shapes,tab:shapes,tab:shapes-detail}", "primary run: %s (the cuckoo-shapes series)" % prim]]
         if plot.shape_ns(runs[0]["rows"]) else []) + (
        [["\\cref{fig:design-skyline,fig:design-winner,tab:design}",
          "primary run: %s (the design-space series, with the cuckoo shapes)" % prim]]
        if plot.design_ns(runs[0]["rows"]) else []) + [
        ["\\cref{tab:machines,fig:lookup,fig:insert,fig:kernels,tab:kernels,fig:threads,tab:threads}",
         "every run: %s" % every],
    ]
    write(outdir, "tab-provenance.tex", table(">{\\raggedright\\arraybackslash}p{0.36\\linewidth} "
                                              ">{\\raggedright\\arraybackslash}p{0.56\\linewidth}",
                                              ["figure or table", "generated from"], body))


def runs_text(runs, all_folders, outdir):
    used = {r["folder"] for r in runs}
    lines = ["\\begin{itemize}"]
    for i, r in enumerate(runs):
        lines.append("\\item Run %d%s: \\texttt{results/%s/\\allowbreak %s} (%s matrix, %s, best kernel %s)." %
                     (i + 1, " (primary)" if i == 0 else "", tex(r["folder"]), tex(r["file"]), tex(r["mode"]),
                      tex(r["ctx"].get("bf_cpu_model", "?")), tt(r["best"])))
    lines.append("\\end{itemize}")
    missing = [f for f in all_folders if f not in used]
    if missing:
        lines.append("Folders under \\texttt{results/} with no full run, not used: %s." %
                     ", ".join(tt(f) for f in missing))
    write(outdir, "text-runs.tex", "\n".join(lines) + "\n")


# --------------------------------------------------------------------------
# Guidance: the cost metric and the decision table.
# Each case: the keys in the filter, and what one false positive costs, in
# nanoseconds (the work it causes). These are the paper's stated
# assumptions; the lookup times and FPRs come from the primary run.
CASES = [
    {"id": "lsm", "title": "LSM-tree point reads of absent keys",
     "n": 1e8, "fp_ns": 100000.0,
     "fp_what": "one random 4\\,KiB read from an NVMe SSD plus decoding the block, taken as 100\\,\\textmu s"},
    {"id": "join", "title": "semi-join filter in front of an in-memory hash join",
     "n": 1e7, "fp_ns": 150.0,
     "fp_what": "one probe of a hash table far larger than the caches (two cache misses and the compare), "
                "taken as 150\\,ns"},
]


def cost_tables(p, outdir):
    rows = p["rows"]
    for case in CASES:
        n = min({r["n"] for r in rows if r["kind"] == "matrix"}, key=lambda x: abs(math.log(x / case["n"])))
        body = []
        best_overall = None
        per_family = {}
        for s in plot.series_list(rows):
            for fpp in sorted({r["fpp"] for r in plot.pick(rows, kind="matrix", series=s, n=n)}, reverse=True):
                r = matrix(p, s, "contains_batch", n, fpp, pos=0.0) or matrix(p, s, "contains_batch", n, fpp)
                if not r:
                    continue
                fp = r["fpr_measured"] * case["fp_ns"]
                total = r["ns_per_op"] + fp
                per_family.setdefault(s, []).append((total, fpp, r, fp))
        for s, opts in per_family.items():
            opts.sort(key=lambda o: o[0])
            total, fpp, r, fp = opts[0]
            if best_overall is None or total < best_overall[0]:
                best_overall = (total, s, fpp, r)
            body.append([tex(plot.series_label(s)), "%g\\,\\%%" % (100 * fpp), sig(r["bits_per_key"], 4),
                         sig(r["ns_per_op"]), pct(r["fpr_measured"]), sig(fp), sig(total)])
        body.sort(key=lambda b: float(b[-1]))
        write(outdir, "tab-cost-%s.tex" % case["id"], table(
            "l r r r r r r", ["family (kernel)", "best fpp", "bits/key", "lookup ns", "FPR \\%", "FPR$\\times C$ ns",
                              "cost ns"], body,
            "$n = %s$, batch lookups of absent keys (0\\,\\%% positives), hashes precomputed; $C$ = %s. Each "
            "row is the family's best target fpp from the run's matrix." %
            (pow10(n), case["fp_what"])))
        i = case["id"]
        put("case-%s-n" % i, pow10(n))
        put("case-%s-C" % i, sig(case["fp_ns"] / 1000.0) + "\\,\\textmu s" if case["fp_ns"] >= 1000 else
            sig(case["fp_ns"]) + "\\,ns")
        put("case-%s-what" % i, case["fp_what"])
        put("case-%s-title" % i, case["title"])
        if best_overall:
            total, s, fpp, r = best_overall
            # The filter pays while t < (1 - h)(1 - FPR) C: the hit ratio
            # above which it costs more than it saves.
            h = 1.0 - r["ns_per_op"] / ((1.0 - r["fpr_measured"]) * case["fp_ns"])
            put("case-%s-breakeven-h" % i, sig(100 * h, 4) if h > 0 else "0")
            put("case-%s-best-fpterm" % i, sig(total - r["ns_per_op"]))
            put("case-%s-best-is-sbbf" % i, "yes" if s.startswith("sbbf") else "no")
            put("case-%s-best" % i, tex(plot.series_label(s)))
            put("case-%s-best-fpp" % i, "%g" % (100 * fpp))
            put("case-%s-best-cost" % i, sig(total))
            put("case-%s-best-lookup" % i, sig(r["ns_per_op"]))
            put("case-%s-best-bpk" % i, sig(r["bits_per_key"], 4))
        # The best SBBF at 1 % against the best the family allows.
        s = sbbf_series(p)
        r1 = matrix(p, s, "contains_batch", n, 0.01, pos=0.0)
        if r1:
            put("case-%s-sbbf1-cost" % i, sig(r1["ns_per_op"] + r1["fpr_measured"] * case["fp_ns"]))
            put("case-%s-sbbf1-fpterm" % i, sig(r1["fpr_measured"] * case["fp_ns"]))
        if s in per_family:
            put("case-%s-sbbf-best-fpp" % i, "%g" % (100 * per_family[s][0][1]))
            put("case-%s-sbbf-best-cost" % i, sig(per_family[s][0][0]))
        if "bloom/-" in per_family:
            put("case-%s-bloom-best-cost" % i, sig(per_family["bloom/-"][0][0]))
            put("case-%s-bloom-best-fpp" % i, "%g" % (100 * per_family["bloom/-"][0][1]))
        # Lowest fpp in the matrix: is the FP term still above the lookup?
        lo = min({r["fpp"] for r in rows if r["kind"] == "matrix"})
        rl = matrix(p, s, "contains_batch", n, lo, pos=0.0)
        if rl:
            put("case-%s-lowfpp" % i, "%g" % (100 * lo))
            put("case-%s-lowfpp-fpterm" % i, sig(rl["fpr_measured"] * case["fp_ns"]))
            put("case-%s-lowfpp-lookup" % i, sig(rl["ns_per_op"]))
            fpt, lk = rl["fpr_measured"] * case["fp_ns"], rl["ns_per_op"]
            put("case-%s-lowfpp-verdict" % i,
                "still larger than the lookup itself: a lower target than the matrix holds would pay"
                if fpt > lk else
                "of the order of the lookup itself: the two terms are close to balanced"
                if fpt > 0.3 * lk else
                "already small next to the lookup: a lower target would buy little")


def pareto_text(p):
    """Which series is fastest and which smallest at each target (largest n)."""
    rows = p["rows"]
    parts = []
    for fpp in sorted({r["fpp"] for r in rows if r["kind"] == "matrix"}, reverse=True):
        nmax = max(r["n"] for r in plot.pick(rows, kind="matrix", fpp=fpp))
        rs = [r for r in plot.pick(rows, kind="matrix", hash="hash_excl", fpp=fpp, n=nmax, pos_pct=50.0, threads=1.0)
              if r["op"] in ("contains_single", "contains_batch")]
        if not rs:
            continue
        fast = min(rs, key=lambda r: r["ns_per_op"])
        small = min(rs, key=lambda r: (r["bits_per_key"], r["ns_per_op"]))
        parts.append("at %g\\,\\%% the fastest is %s (%s\\,ns, %s bits/key) and the smallest %s (%s bits/key, %s\\,ns)" %
                     (100 * fpp, tex(plot.series_label(fast["series"])), sig(fast["ns_per_op"]),
                      sig(fast["bits_per_key"], 4), tex(plot.series_label(small["series"])),
                      sig(small["bits_per_key"], 4), sig(small["ns_per_op"])))
    put("pareto-text", "; ".join(parts))


def decision_table(p, nums, outdir):
    rows = p["rows"]
    fpp = plot.ref_fpp(rows)
    nmax = max(r["n"] for r in plot.pick(rows, kind="matrix", fpp=fpp))
    t1 = next(t for t in nums["targets"] if abs(t["fpp"] - 0.01) < 1e-12)
    s = sbbf_series(p)

    def ns(series):
        r = matrix(p, series, "contains_batch", nmax, fpp)
        return sig(r["ns_per_op"]) if r else "--"

    fams = [
        ("SBBF", s, "sbbf", "no", "yes (OR)", "estimate", "yes (byte for byte)",
         "read-heavy, insert-only sets; Parquet columns; anything that must be fast"),
        ("classic Bloom", "bloom/-", "bloom", "no", "yes (OR)", "estimate", "no",
         "the least memory of the Bloom family when lookups are rare or cache-resident"),
        ("counting Bloom", "counting/-", "counting", "yes", "yes (add)", "estimate", "no",
         "sets that shrink; 4$\\times$ the classic filter's memory"),
        ("cuckoo", "cuckoo/-", "cuckoo", "yes", "no", "exact", "no",
         "deletes at about the classic filter's space; two cache lines per lookup"),
    ]
    body = []
    for name, series, fam, dele, merge, count, pq, fit in fams:
        body.append([name, dele, merge, count, pq, sig(t1[fam]["bits_per_key"], 4), ns(series),
                     "\\parbox[t]{0.3\\linewidth}{\\raggedright %s}" % fit])
    write(outdir, "tab-decision.tex", table(
        "l c c c c r r l", ["family", "delete", "merge", "count", "Parquet", "bits/key", "ns/lookup", "where it fits"],
        body,
        "bits/key at 1\\,\\%% (library sizing, $n=%s$); ns/lookup: batch, $n=%s$, fpp %g\\,\\%%, run %s." %
        (pow10(t1["n"]), pow10(nmax), 100 * fpp, NUM["p-path"])))


def load_text(p):
    """What the primary run recorded of the machine's load (the check that
    refuses a loaded primary run is plot.check_primary_load)."""
    vals = plot.load_values(p["ctx"], p["rows"])
    rec = p["ctx"].get("bf_loadavg")
    if not vals:
        put("p-load", "The primary run recorded no load average (it predates the harness's record), so "
            "this build cannot show that the machine was quiet; its folder's \\texttt{README.md} says what "
            "ran beside it.")
        return
    txt = ("The primary run recorded the machine's load: the 1-minute load average, less the harness's own "
           "threads beyond its first, reached at most %s (the build refuses a primary run above %s)" %
           (sig(max(vals), 2), sig(plot.MAX_PRIMARY_LOAD, 2)))
    if isinstance(rec, dict) and isinstance(rec.get("before"), dict) and isinstance(rec.get("after"), dict):
        txt += ("; the plain load average was %s before the first benchmark and %s after the last, with %d "
                "samples between" % (sig(rec["before"].get("load1"), 2), sig(rec["after"].get("load1"), 2),
                                     len(rec.get("during") or [])))
    put("p-load", txt + ".")


# The cuckoo filter's shapes against an SBBF of the same size.
FP_MIN = 30  # false positives each filter must show before measured FPRs are compared


def shape_verdict(c, t):
    """(fpr, lookup, insert): whether the shape beats its SBBF twin. FPR: a
    lower FPR at the same bytes, measured where both filters produced at
    least FP_MIN false positives among the negatives, else by the models."""
    neg = c.get("fpr_negatives", 0)
    measured = c["fpr_measured"] * neg >= FP_MIN and t["fpr_measured"] * neg >= FP_MIN
    fc, ft = (c["fpr_measured"], t["fpr_measured"]) if measured else (c["fpr_model"], t["fpr_model"])
    return fc < ft, c["ns_batch"] < t["ns_batch"], c["ns_insert"] < t["ns_insert"]


def shape_bf(sh):
    """(b, f, semi-sorted) of a shape name b<b>-f<f>[-semi]."""
    parts = sh.split("-")
    return int(parts[0][1:]), int(parts[1][1:]), sh.endswith("-semi")


def shape_label(sh):
    b, f, semi = shape_bf(sh)
    return "$(%d, %d)$%s" % (b, f, " semi-sorted" if semi else "")


def shapes_text(p, outdir):
    """text-shapes.tex: from the primary run's cuckoo-shapes series, the
    figure, a table of where each shape beats the SBBF of its size (b x f
    per n) and the table of every number; or a sentence saying the run has
    none."""
    rows = p["rows"]
    ns = plot.shape_ns(rows)
    if not ns:
        write(outdir, "text-shapes.tex",
              "The primary run (%s) did not measure the cuckoo-shapes series (runs of the harness before it "
              "existed, or without \\texttt{-{}-families cuckoo-shapes}), so this build of the paper has no "
              "table of shapes; a full run made with the current harness adds it here.\n" % NUM["p-path"])
        return
    names = plot.shape_names(rows)
    fs = sorted({shape_bf(sh)[1] for sh in names})
    lines = sorted({(shape_bf(sh)[0], shape_bf(sh)[2]) for sh in names})
    detail, wins_body, sentences = [], [], []
    neg = None
    for n in ns:
        wins = {"fpr": [], "lookup": [], "insert": []}
        cells = {}
        if detail:
            detail.append("MID")
            wins_body.append("MID")
        first = True
        for sh in names:
            c, t = plot.shape_point(rows, sh, n), plot.shape_point(rows, "sbbf-" + sh, n)
            if not c or not t:
                continue
            neg = c.get("fpr_negatives", neg)
            won = dict(zip(("fpr", "lookup", "insert"), shape_verdict(c, t)))
            for k, v in won.items():
                if v:
                    wins[k].append(sh)
            letters = "".join(ch for ch, k in (("F", "fpr"), ("L", "lookup"), ("I", "insert")) if won[k]) or "--"
            same = c.get("sbbf_bits_per_key_same_fpr")
            ratio = c["bits_per_key"] / same if same else None
            b, f, semi = shape_bf(sh)
            cells[(b, semi, f)] = "%s %s" % (sig(ratio, 2) if ratio else "--", letters)
            detail.append([pow10(n) if first else "", shape_label(sh), sig(c["bits_per_key"], 3),
                           sig(c.get("load"), 3), pct(c["fpr_measured"]), pct(c["fpr_model"]),
                           pct(t["fpr_measured"]), pct(t["fpr_model"]), sig(same, 3) if same else "--",
                           sig(c["ns_batch"]), sig(t["ns_batch"]), sig(c["ns_insert"]), sig(t["ns_insert"])])
            first = False
        for i, (b, semi) in enumerate(lines):
            wins_body.append([pow10(n) if i == 0 else "", "%d%s" % (b, " semi-sorted" if semi else "")] +
                             [cells.get((b, semi, f), "") for f in fs])
        tag = "%d" % round(math.log10(n))

        def listed(lst):
            return ", ".join(shape_label(x) for x in lst) if lst else "none"
        sentences.append("At $n = %s$ the shapes $(b, f)$ with a lower FPR than the SBBF of the same size are %s; "
                         "with faster batch lookups, %s; with faster inserts, %s." %
                         (pow10(n), listed(wins["fpr"]), listed(wins["lookup"]), listed(wins["insert"])))
        put("shapes-%s-fpr-wins" % tag, str(len(wins["fpr"])))
        put("shapes-%s-lookup-wins" % tag, str(len(wins["lookup"])))
    put("shapes-count", str(len(names)))
    common = ("Run %s. Each shape's table is sized for $n$ at the load \\texttt{bf\\_cuckoo\\_model\\_load($b$)} "
              "gives and filled until full or $n$. SBBF: a filter of the table's bytes (whole 32-byte blocks) holding "
              "the same keys, %s kernel. FPR on %s never-inserted keys; lookups in batch calls, 50\\,\\%% "
              "positives, hashes precomputed, one thread; inserts in single calls into an empty table." %
              (NUM["p-path"], tt(p["best"]), "{:,}".format(int(neg)).replace(",", "\\,") if neg else "?"))
    wins_tab = table(
        "r l " + "c" * len(fs), ["$n$", "$b$"] + ["$f = %d$" % f for f in fs], wins_body,
        "Each cell: the shape's bits per key over the SBBF's for the same FPR (\\texttt{bf\\_sbbf\\_compact\\_bytes} "
        "at the shape's model FPR; below 1 the shape needs less memory), then what it beats the SBBF of its size on: "
        "F, a lower FPR (measured where both filters produced at least %d false positives, else by the models); "
        "L, faster batch lookups; I, faster inserts. %s" % (FP_MIN, common))
    detail_tab = table(
        "r l r r r r r r r r r r r",
        ["$n$", "$(b, f)$", "bits/", "load", "\\multicolumn{2}{c}{cuckoo FPR \\%}",
         "\\multicolumn{2}{c}{SBBF FPR \\%}", "SBBF", "\\multicolumn{2}{c}{ns batch lookup}",
         "\\multicolumn{2}{c}{ns insert}"],
        [["", "", "key", "", "meas.", "model", "meas.", "model", "bits/key", "cuckoo", "SBBF", "cuckoo", "SBBF"],
         "MID"] + detail,
        "bits/key = table bytes $\\times 8$ / keys stored; load = keys stored / slots; SBBF bits/key: what "
        "the SBBF needs for the shape's model FPR. %s" % common)
    out = [" ".join(sentences)]
    out.append("\\begin{figure}[htbp]\n  \\centering\n  \\includegraphics[width=\\linewidth]{fig-shapes.pdf}\n"
               "  \\caption{Cuckoo shapes ($b$ slots per bucket: marker; $f$-bit fingerprints: colour; hollow: "
               "semi-sorted) and the SBBF of each one's size (black crosses): FPR and batch lookup time against the "
               "bits per key used. Primary run.}\n  \\label{fig:shapes}\n\\end{figure}\n")
    out.append("\\begin{table}[htbp]\n  \\centering\\scriptsize\n" + wins_tab +
               "  \\caption{When each cuckoo shape wins against the SBBF (primary run).}\n"
               "  \\label{tab:shapes}\n\\end{table}\n")
    out.append("\\begin{table}[htbp]\n  \\centering\\tiny\\setlength{\\tabcolsep}{3pt}\n" + detail_tab +
               "  \\caption{The cuckoo shapes and the SBBF of each one's size, every number (primary run).}\n"
               "  \\label{tab:shapes-detail}\n\\end{table}\n")
    write(outdir, "text-shapes.tex", "\n\n".join(out) + "\n")


# The design space (Lang et al., VLDB 2019): which blocked shape, or cuckoo
# shape, is cheapest for a job, and whether their headline reproduces.
DESIGN_T_SHOWN = (1.0, 100.0, 1e4, 1e5)  # ns of work a negative saves, the table's columns


def t_label(t):
    """A time in ns for text mode: 1\\,ns, 12\\,\\textmu s."""
    return "%s\\,ns" % sig(t, 2) if t < 1000 else "%s\\,\\textmu s" % sig(t / 1000, 2)


def shape_tex(name):
    """A contender's name for the tables: cuckoo-b4-f12 -> cuckoo $(4, 12)$."""
    if name.startswith("cuckoo-"):
        return "cuckoo " + shape_label(name[len("cuckoo-"):])
    return tt(name)


def design_text(p, outdir):
    """text-design.tex: from the primary run's design-space series, whether
    blocked Bloom filters win at small T and cuckoo filters at large T
    (Lang et al.'s headline), the winners at a few T per (n, bits/key), the
    FPR rule, and the two figures; or a sentence saying the run has none."""
    rows = p["rows"]
    ns = plot.design_ns(rows)
    if not ns:
        write(outdir, "text-design.tex",
              "The primary run (%s) did not measure the design-space series (runs of the harness before it "
              "existed, or without \\texttt{-{}-families design}), so this build of the paper cannot say whether "
              "Lang et al.'s headline reproduces on our machines; a full run made with the current harness "
              "answers it here.\n" % NUM["p-path"])
        put("design-verdict", "not measured")
        return
    bpks = plot.design_bpks(rows)
    cuckoo_ns = set(plot.shape_ns(rows))
    body, bloom_low, cuckoo_high, jobs = [], [], [], 0
    for n in ns:
        if body:
            body.append("MID")
        for i, b in enumerate(bpks):
            cont = plot.design_contenders(rows, n, b)
            if not cont:
                continue
            win = [plot.design_winner(cont, t) for t in DESIGN_T_SHOWN]
            cross = next((t for t in plot.design_t_grid() if plot.design_winner(cont, t)[1] == "cuckoo"), None)
            has_cuckoo = any(c[1] == "cuckoo" for c in cont)
            # A job tests the headline only where both kinds compete: a
            # budget the design series did not run at this n (the full
            # matrix leaves out 16 bits/key at 10^8) has cuckoo shapes alone.
            has_blocked = any(c[1] != "cuckoo" for c in cont)
            if has_cuckoo and has_blocked:
                jobs += 1
                lo, hi = plot.design_winner(cont, plot.DESIGN_T_MIN), plot.design_winner(cont, plot.DESIGN_T_MAX)
                bloom_low.append(lo[1] != "cuckoo")
                cuckoo_high.append(hi[1] == "cuckoo")
            body.append([pow10(n) if i == 0 else "", str(b)] + [shape_tex(w[0]) for w in win] +
                        [((t_label(cross) if cross else "none") if has_blocked else "(no blocked shape measured)")
                         if has_cuckoo else "(no cuckoo shape measured)"])
    if not jobs:
        verdict = "cannot be tested on this run"
        why = ("no cuckoo shape was measured at the design series' $n$ within its memory budgets (the "
               "cuckoo-shapes series runs at $n = %s$)" % ", ".join(pow10(x) for x in sorted(cuckoo_ns)) if cuckoo_ns
               else "the run has no cuckoo-shapes series")
    elif all(bloom_low) and any(cuckoo_high):
        verdict = "reproduces"
        why = ("a blocked Bloom filter is cheapest at $T = 1$\\,ns in all %d jobs (an $n$ and a memory budget) where cuckoo "
               "shapes and blocked shapes compete, and a cuckoo shape is cheapest at $T = 100$\\,\\textmu s in %d of them" %
               (jobs, sum(cuckoo_high)))
    elif all(bloom_low):
        verdict = "reproduces only in part"
        why = ("a blocked Bloom filter is cheapest at $T = 1$\\,ns in all %d jobs where cuckoo shapes and blocked shapes compete, but "
               "no cuckoo shape is cheapest even at $T = 100$\\,\\textmu s" % jobs)
    else:
        verdict = "does not reproduce"
        why = ("a cuckoo shape is cheapest already at $T = 1$\\,ns in %d of the %d jobs where cuckoo shapes "
               "and blocked shapes compete" % (sum(1 for x in bloom_low if not x), jobs))
    put("design-verdict", verdict)
    pts = plot.design_points(rows)
    checks = [(q, plot.design_fpr_check(q)) for q in pts]
    ruled = [(q, c) for q, c in checks if c[0] == "5%"]
    worst = max((abs(c[2]) for q, c in ruled), default=None)
    negs = sorted({int(q["fpr_negatives"]) for q in pts})
    put("design-points", str(len(pts)))
    put("design-shapes", str(len({q["shape"] for q in pts})))
    fpr_sentence = (
        "Over %s absent keys, %d of the %d points (those where 5\\,\\%% of the expected false positives is at "
        "least four standard deviations of sampling) are held to the \\textpm 5\\,\\%% rule: %d meet it, the "
        "worst %s\\,\\%% from the model%s." %
        (" or ".join("{:,}".format(x).replace(",", "\\,") for x in negs), len(ruled), len(pts),
         sum(1 for q, c in ruled if c[1]), pct(worst, 2) if worst is not None else "--",
         "" if len(ruled) == len(pts) else "; the other points lie within the sampling band: %s" %
         ("all" if all(c[1] for q, c in checks if c[0] != "5%") else "not all")))
    if not ruled:
        fpr_sentence = ("This run measured the FPR on %s absent keys, fewer than the rule's $10^7$ (or too few false "
                        "positives), so the \\textpm 5\\,\\%% rule is not tested on it; every point lies within the "
                        "sampling band: %s." % (" or ".join("{:,}".format(x).replace(",", "\\,") for x in negs),
                                                "yes" if all(c[1] for q, c in checks) else "no"))
    text = ("On the primary run (%s), Lang et al.'s headline --- blocked Bloom filters win when lookups must be "
            "cheap, cuckoo filters when the FPR must be very low --- \\textbf{%s}: %s. The design-space series has "
            "%s shapes $(B, S, z, k)$ at %s bits per key and $n = %s$; each job's cost is the measured batch "
            "lookup time plus the measured FPR times $T$, the work a negative answer saves (the model's FPR where "
            "no false positive was seen), and the cuckoo shapes compete where their table fits the budget. %s" %
            (NUM["p-path"], verdict, why, NUM["design-shapes"], ", ".join(str(b) for b in bpks),
             ", ".join(pow10(n) for n in ns), fpr_sentence))
    tab = table("r r " + "l" * (len(DESIGN_T_SHOWN) + 1),
                ["$n$", "bits/key"] + ["$T$ = %s" % t_label(t) for t in DESIGN_T_SHOWN] + ["cuckoo from"],
                body,
                "The cheapest contender (least batch lookup ns + FPR $\\times T$) at each memory budget; a blocked "
                "shape is named layout-k (reg: register-blocked, sect: sectorized, csect\\ldots z: cache-sectorized "
                "with $z$ groups). Cuckoo from: the least $T$ (of 61 steps from 1\\,ns to 100\\,\\textmu s) at which "
                "a cuckoo shape is cheapest. Run %s, one thread, hashes precomputed, 50\\,\\%% positives." %
                NUM["p-path"])
    out = [text,
           "\\begin{figure}[htbp]\n  \\centering\n  \\includegraphics[width=\\linewidth]{fig-design-skyline.pdf}\n"
           "  \\caption{The skyline: batch lookup time against FPR for every blocked shape, $k$ and bits per key "
           "(colour: layout) and every cuckoo shape (crosses), with the Pareto front. Primary run.}\n"
           "  \\label{fig:design-skyline}\n\\end{figure}\n",
           "\\begin{figure}[htbp]\n  \\centering\n  \\includegraphics[width=\\linewidth]{fig-design-winner.pdf}\n"
           "  \\caption{Which shape wins a job of $n$ keys that saves $T$ per negative, at each memory budget. "
           "Primary run.}\n  \\label{fig:design-winner}\n\\end{figure}\n",
           "\\begin{table}[htbp]\n  \\centering\\scriptsize\n" + tab +
           "  \\caption{The cheapest shape for a job (primary run).}\n  \\label{tab:design}\n\\end{table}\n"]
    write(outdir, "text-design.tex", "\n\n".join(out) + "\n")


def newest_full_runs(results):
    """The newest full run of every machine folder under results/ (file
    names start with the UTC date, so the last in name order is the newest)
    whose recorded load the primary-run check accepts, and the names of all
    folders."""
    runs, folders = [], []
    for d in sorted(os.listdir(results)):
        path = os.path.join(results, d)
        if not os.path.isdir(path):
            continue
        folders.append(d)
        full = sorted(f for f in os.listdir(path) if f.endswith("-full.json"))
        # The newest run the load check accepts: a newer, loaded one is
        # named on stderr and passed over, so the paper keeps building.
        for f in reversed(full):
            run = os.path.join(path, f)
            ctx, rows = plot.load(run)[:2]
            vals = plot.load_values(ctx, rows)
            if vals and max(vals) > plot.MAX_PRIMARY_LOAD:
                sys.stderr.write("paper: passing over %s: its recorded load average reached %.2f, above %.1f\n"
                                 % (run, max(vals), plot.MAX_PRIMARY_LOAD))
                continue
            runs.append(run)
            break
    return runs, folders


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--list-runs":
        runs, folders = newest_full_runs(sys.argv[2])
        print("\n".join(runs))
        return 0
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--out", required=True)
    ap.add_argument("--numbers", required=True)
    ap.add_argument("--all-folders", default="", help="comma-separated results folders, to say which were not used")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    runs = plot.load_runs(args.runs)
    plot.check_primary_load(runs[0])  # refuses a loaded primary run, before anything is written
    with open(args.numbers) as f:
        nums = json.load(f)
    model_numbers(nums, args.out)
    machine_table(runs, args.out)
    runs_text(runs, [f for f in args.all_folders.split(",") if f], args.out)
    limits_text(runs, args.out)
    provenance_table(runs, args.out)
    lookup_table(runs[0], args.out)
    fpr_table(runs[0], args.out)
    quoted_results(runs[0], args.out)
    kernel_tables(runs, args.out)
    thread_table(runs, args.out)
    cost_tables(runs[0], args.out)
    decision_table(runs[0], nums, args.out)
    pareto_text(runs[0])
    load_text(runs[0])
    shapes_text(runs[0], args.out)
    design_text(runs[0], args.out)
    with open(os.path.join(args.out, "numbers.tex"), "w") as f:
        f.write("%% Generated by scripts/paper_tables.py from %s and %s\n" %
                (", ".join(r["path"] for r in runs), args.numbers))
        for k in sorted(NUM):
            f.write("\\bfset{%s}{%s}\n" % (k, NUM[k]))
    print("paper_tables.py: %d numbers, tables in %s" % (len(NUM), args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
