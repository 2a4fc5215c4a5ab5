#!/usr/bin/python3
"""The benchmark JSON's load-average record and cuckoo-shapes series, and
what scripts/plot.py and the paper make of them.

  check_bench_json.py --bench BUILD/bench/blockfilter_bench --source SRCDIR --work DIR

Runs a tiny matrix of the harness (the classic filter and the cuckoo-shapes
series) with a JSON file and a short sampling interval, then checks:

- the load record: the file is valid JSON with the "bf_loadavg" record
  (before, samples during, after, each with the 1-minute load average, the
  harness's own share and load1_adj), the context's bf_loadavg_before and
  every benchmark's loadavg_1m/loadavg_1m_adj counters; plot.py reads it;
- the paper's check (plot.check_primary_load): the same run with its load
  set to 2.0 is refused, by the function and by scripts/paper_tables.py and
  scripts/plot.py --paper (exit status 3, a message naming the load), and
  with 1.0, or with no record at all, is not;
- the cuckoo-shapes series: every shape the context lists has its lookups
  and fill, and so has the SBBF of its size; bits/key, load and bytes agree
  with each other; the measured FPR agrees with the model where the
  negatives show enough false positives; plot.py's summary and figure 7 and
  the paper's shapes tables are made from it;
- the design-space series (--bf_families design): every shape the context
  lists has its build and batch lookups at every n and bits/key, with
  bits/key, bytes and shape counters that agree; the measured FPR agrees
  with the exact model (plot.design_fpr_check: within +-5 % where at least
  10^7 absent keys and enough false positives were measured, within the
  sampling band elsewhere), on this run and on every committed run under
  results/ that has the series; the rule itself refuses a point 6 % off;
  plot.py's summary has its table, and it draws figures 8-10 (FPR against
  bits/key, the skyline, the winner map), and the paper's design section is written, and says so when the
  primary run lacks the series;
- the peers' rows (design-peer/..., bench/design_peers.cc; runs built with
  bench.sh --peers, which CI cannot make): made here from the run's own
  design rows, they are read as peers beside the series, not into it;
  they compete in the winner map and the summary only where asked, a
  static filter only within its bits per key; plot.py draws figures 8-10
  and the summary's peer table with them, and the paper's design section
  is the same with and without them.

Exits 77 (skipped) where matplotlib or /proc/loadavg is missing, and under
a forced kernel other than the CPU's best (--once-per-cpu).
"""
import copy
import json
import os
import subprocess
import sys

import docs_common  # beside this script

PY = "/usr/bin/python3"


def main():
    # Debian's python3, where matplotlib is (the project's Python).
    if os.path.realpath(sys.executable) != os.path.realpath(PY) and os.path.exists(PY):
        os.execv(PY, [PY] + sys.argv)
    args = docs_common.parse_check_args(__doc__, "--bench")
    if args is None:
        return 77
    if not os.path.exists("/proc/loadavg"):
        print("no /proc/loadavg: skipped")
        return 77
    if subprocess.run([PY, "-c", "import matplotlib"], stderr=subprocess.DEVNULL).returncode != 0:
        print("matplotlib missing: skipped (./scripts/setup.sh installs python3-matplotlib)")
        return 77
    src = os.path.abspath(args.source)
    work = os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    sys.path.insert(0, os.path.join(src, "scripts"))
    import plot  # noqa: E402

    failed = 0

    def step(name, ok, detail=""):
        nonlocal failed
        print("%s %s%s" % ("ok  " if ok else "FAIL", name, (": " + detail) if detail and not ok else ""))
        failed += 0 if ok else 1
        return ok

    run_json = os.path.join(work, "run.json")
    p = subprocess.run([args.bench, "--bf_quick", "--bf_n=3000", "--bf_fpp=0.01", "--bf_families=bloom,cuckoo-shapes,design",
                        "--bf_shape_n=1e5", "--bf_design_n=1e5", "--bf_design_bpk=8,12",
                        "--bf_design_fpr_keys=200000",
                        "--bf_only=matrix", "--bf_min_time=0.002", "--bf_loadavg_interval=0.05",
                        "--benchmark_out=" + run_json, "--benchmark_out_format=json"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = p.stdout.decode()
    if not step("the harness runs", p.returncode == 0, out[-2000:]):
        return 1
    step("it prints the load record", "load average (1 min): before" in out, out[-600:])
    try:
        with open(run_json) as f:
            data = json.load(f)
    except ValueError as e:
        step("the JSON file parses", False, str(e))
        return 1
    rec = data.get("bf_loadavg")
    step("the JSON has a bf_loadavg record", isinstance(rec, dict), str(rec)[:300])
    if not isinstance(rec, dict):
        return 1
    keys = ("t_s", "load1", "load5", "load15", "own_1m", "load1_adj")

    def sample_ok(s):
        return isinstance(s, dict) and all(isinstance(s.get(k), (int, float)) for k in keys) and \
            abs(s["load1_adj"] - (s["load1"] - max(0.0, s["own_1m"] - 1.0))) < 1e-3
    step("before and after are whole samples", sample_ok(rec.get("before")) and sample_ok(rec.get("after")),
         json.dumps(rec)[:400])
    during = rec.get("during") or []
    step("samples during the run, every one whole and in time order",
         len(during) >= 1 and all(sample_ok(s) for s in during) and
         all(a["t_s"] <= b["t_s"] for a, b in zip(during, during[1:])), json.dumps(during)[:400])
    step("the context has bf_loadavg_before", bool(data["context"].get("bf_loadavg_before")))
    benches = data.get("benchmarks", [])
    step("every benchmark carries loadavg_1m and loadavg_1m_adj",
         bool(benches) and all("loadavg_1m" in b and "loadavg_1m_adj" in b for b in benches))
    ctx, rows = plot.load(run_json)
    vals = plot.load_values(ctx, rows)
    step("plot.py reads the record", len(vals) >= 2 + len(during) and isinstance(ctx.get("bf_loadavg"), dict))

    # The paper's check on the same run with its load set to a value.
    def with_load(value):
        d = copy.deepcopy(data)
        if value is None:
            d.pop("bf_loadavg", None)
            for b in d["benchmarks"]:
                b.pop("loadavg_1m", None)
                b.pop("loadavg_1m_adj", None)
            return d
        for s in [d["bf_loadavg"]["before"], d["bf_loadavg"]["after"]] + d["bf_loadavg"]["during"]:
            s["load1_adj"] = 0.5
        d["bf_loadavg"]["during"][-1]["load1_adj"] = value
        for b in d["benchmarks"]:
            b["loadavg_1m_adj"] = 0.5
        return d

    def refused(d, tag):
        path = os.path.join(work, "run-%s.json" % tag)
        with open(path, "w") as f:
            json.dump(d, f)
        ctx, rows = plot.load(path)
        run = plot.run_info(path, ctx, rows)
        try:
            plot.check_primary_load(run)
            fn = False
        except SystemExit as e:
            fn = e.code == 3
        nums = os.path.join(work, "numbers-empty.json")
        with open(nums, "w") as f:
            f.write("{}")
        tools = []
        for cmd in ([PY, os.path.join(src, "scripts", "paper_tables.py"), "--out", os.path.join(work, "pt-" + tag),
                     "--numbers", nums, path],
                    [PY, os.path.join(src, "scripts", "plot.py"), "--paper", os.path.join(work, "fig-" + tag), path]):
            r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            msg = r.stdout.decode()
            tools.append((r.returncode == 3 and "refusing" in msg and "load average" in msg, msg))
        return fn, tools

    fn, tools = refused(with_load(2.0), "loaded")
    step("a run whose load reached 2.0 is refused by plot.check_primary_load", fn)
    step("... and by paper_tables.py (status 3, says why)", tools[0][0], tools[0][1][-600:])
    step("... and by plot.py --paper (status 3, says why)", tools[1][0], tools[1][1][-600:])
    fn, tools = refused(with_load(1.0), "quiet")
    step("a run whose load stayed at 1.0 is not refused", not fn and not any(t[0] for t in tools),
         " | ".join(t[1][-300:] for t in tools))
    fn, tools = refused(with_load(None), "unrecorded")
    step("a run with no record is not refused (the paper says it has none)",
         not fn and not any(t[0] for t in tools), " | ".join(t[1][-300:] for t in tools))
    # paper.sh's default choice: per folder, the newest full run the check
    # accepts; a newer loaded one is passed over and named.
    folder = os.path.join(work, "listing", "some-machine")
    os.makedirs(folder, exist_ok=True)
    quiet_run = os.path.join(folder, "2026-01-01T0000Z-aaaaaaaaaaaa-full.json")
    loaded_run = os.path.join(folder, "2026-01-02T0000Z-bbbbbbbbbbbb-full.json")
    for path, value in ((quiet_run, 1.0), (loaded_run, 2.0)):
        with open(path, "w") as f:
            json.dump(with_load(value), f)
    r = subprocess.run([PY, os.path.join(src, "scripts", "paper_tables.py"), "--list-runs",
                        os.path.join(work, "listing")], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    step("paper_tables.py --list-runs passes over a newer loaded run, names it, and lists the quiet one",
         r.returncode == 0 and r.stdout.decode().split() == [quiet_run] and "passing over" in r.stderr.decode()
         and os.path.basename(loaded_run) in r.stderr.decode(), r.stdout.decode() + r.stderr.decode())
    check_shapes(data, run_json, src, work, step)
    check_design(data, run_json, src, work, step)
    check_design_peers(data, src, work, step)
    print("%s" % ("all passed" if not failed else "%d failed" % failed))
    return 1 if failed else 0


def check_shapes(data, run_json, src, work, step):
    """The cuckoo-shapes series of the run (step counts the failures)."""
    import plot
    import paper_tables
    ctx = data["context"]
    shapes = [s for s in ctx.get("bf_shapes", "").split(",") if s]
    step("the context lists the shapes built (%d)" % len(shapes), len(shapes) >= 1, ctx.get("bf_shapes_refused", ""))
    # Names without Google Benchmark's suffixes (/min_time:..., /manual_time).
    names = {b["name"].split("/min_time:")[0]: b for b in data["benchmarks"]}
    missing = ["cuckoo-shapes/%s%s/%s/n:100000" % (tw, sh, op) for sh in shapes for tw in ("", "sbbf-")
               for op in ("insert_single", "contains_single/pos50", "contains_batch/pos50")
               if "cuckoo-shapes/%s%s/%s/n:100000" % (tw, sh, op) not in names]
    step("every shape and its SBBF have their fill and lookups", not missing, ", ".join(missing[:5]))
    problems = []
    for sh in shapes:
        c = names.get("cuckoo-shapes/%s/contains_batch/pos50/n:100000" % sh)
        t = names.get("cuckoo-shapes/sbbf-%s/contains_batch/pos50/n:100000" % sh)
        if not c or not t:
            continue
        b, f = int(c["bucket_size"]), int(c["fp_bits"])
        if sh != "b%d-f%d%s" % (b, f, "-semi" if c.get("semisorted") else ""):
            problems.append("%s: counters say b=%d f=%d" % (sh, b, f))
        if not (0 < c["load"] <= 1 and abs(c["load"] - c["stored"] / (c["buckets"] * b)) < 1e-9):
            problems.append("%s: load %g" % (sh, c["load"]))
        if abs(c["bits_per_key"] - 8 * c["bytes"] / c["stored"]) > 1e-6 * c["bits_per_key"]:
            problems.append("%s: bits/key %g" % (sh, c["bits_per_key"]))
        if not (c["bytes"] - 32 < t["bytes"] <= max(c["bytes"], 32)) or t["keys_offered"] != c["keys_offered"]:
            problems.append("%s: the SBBF has %g bytes and %g keys" % (sh, t["bytes"], t["keys_offered"]))
        for r, who in ((c, sh), (t, "sbbf-" + sh)):
            neg, p, m = r["fpr_negatives"], r["fpr_model"], r["fpr_measured"]
            # Sampling the negatives (6 sigma), and the filter's own spread
            # around the model's expectation (10 %: an SBBF of 10^5 keys has
            # over a thousand blocks).
            if p * neg >= 100 and abs(m - p) > 6 * (p * (1 - p) / neg) ** 0.5 + 0.1 * p:
                problems.append("%s: FPR %g against the model's %g" % (who, m, p))
    step("each shape's numbers agree with each other and with the models", not problems, "; ".join(problems[:6]))
    p = subprocess.run([PY, os.path.join(src, "scripts", "plot.py"), run_json, "--summary"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = p.stdout.decode()
    step("plot.py --summary has the shapes table", p.returncode == 0 and "Cuckoo shapes at n = 1e+05" in out and
        all(("\n%s " % sh) in out for sh in shapes), out[-1500:])
    figs = os.path.join(work, "figs")
    p = subprocess.run([PY, os.path.join(src, "scripts", "plot.py"), run_json, "--outdir", figs],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    step("plot.py draws figure 7", p.returncode == 0 and os.path.exists(os.path.join(figs, "run-7-cuckoo-shapes.png")),
        p.stdout.decode()[-1500:])
    ctx2, rows = plot.load(run_json)
    run = plot.run_info(run_json, ctx2, rows)
    paper_tables.NUM["p-path"] = "run"
    tex_dir = os.path.join(work, "tex")
    os.makedirs(tex_dir, exist_ok=True)
    paper_tables.shapes_text(run, tex_dir)
    with open(os.path.join(tex_dir, "text-shapes.tex")) as f:
        tex = f.read()
    bs = sorted({int(names["cuckoo-shapes/%s/insert_single/n:100000" % sh]["bucket_size"]) for sh in shapes})
    step("the paper's shapes tables are written, a row per bucket size",
        "\\label{tab:shapes}" in tex and "\\label{tab:shapes-detail}" in tex and
        all(("& %d & " % b) in tex or ("& %d semi" % b) in tex for b in bs), tex[:800])


def check_design(data, run_json, src, work, step):
    """The design-space series of the run, and of the committed results."""
    import glob
    import plot
    import paper_tables
    ctx = data["context"]
    shapes = [x for x in ctx.get("bf_design_shapes", "").split(",") if x]
    ns = [int(float(x)) for x in ctx.get("bf_design_n", "").split(",") if x]
    bpks = [int(float(x)) for x in ctx.get("bf_design_bpk", "").split(",") if x]
    step("the context lists the design shapes (%d), n and bits/key" % len(shapes),
         len(shapes) >= 8 and ns == [100000] and bpks == [8, 12],
         "%s | %s" % (ctx.get("bf_design_shapes"), ctx.get("bf_design_shapes_refused")))
    names = {b["name"].split("/min_time:")[0]: b for b in data["benchmarks"]}
    want = ["design/%s/%s/n:%d/bpk:%d" % (sh, op, n, b) for sh in shapes for n in ns for b in bpks
            for op in ("build", "contains_batch/pos50")]
    missing = [w for w in want if w not in names]
    step("every design shape has its build and lookups at every n and bits/key", not missing, ", ".join(missing[:5]))
    problems = []
    for w in want:
        r = names.get(w)
        if not r:
            continue
        sh = w.split("/")[1]
        lay = [x for x in plot.DESIGN_LAYOUTS if sh.startswith(x + "-k")]
        if not lay or int(r["k"]) != int(sh.rsplit("-k", 1)[1]):
            problems.append("%s: k %g" % (w, r["k"]))
        blk = r["block_bits"] / 8
        if not (r["bytes"] % blk == 0 and r["bytes"] <= r["n"] * r["bits_per_key_target"] / 8 < r["bytes"] + blk):
            problems.append("%s: %g bytes" % (w, r["bytes"]))
        if abs(r["bits_per_key"] - 8 * r["bytes"] / r["n"]) > 1e-9 * r["bits_per_key"]:
            problems.append("%s: bits/key %g" % (w, r["bits_per_key"]))
        if r["fpr_negatives"] != 200000 or not (0 < r["fpr_model"] < 1) or r["ns_per_op"] <= 0:
            problems.append("%s: negatives %g, model %g" % (w, r["fpr_negatives"], r["fpr_model"]))
    step("the design counters agree with each other", not problems, "; ".join(problems[:6]))
    ctx2, rows = plot.load(run_json)
    pts = plot.design_points(rows)
    bad = ["%s n=%d bpk=%d: %g vs model %g" % (q["shape"], q["n"], q["bpk_target"], q["fpr_measured"],
                                               q["fpr_model"])
           for q in pts if not plot.design_fpr_check(q)[1]]
    step("every design point's FPR agrees with the model (%d points)" % len(pts), pts and not bad, "; ".join(bad[:6]))
    # The +-5 % rule refuses what it must, and holds where it applies.
    synth = {"fpr_negatives": 1e7, "fpr_model": 0.01}
    step("the +-5 % rule refuses a point 6 % off over 10^7 absent keys and passes one 4 % off",
         plot.design_fpr_check(dict(synth, fpr_measured=0.0106))[:2] == ("5%", False) and
         plot.design_fpr_check(dict(synth, fpr_measured=0.0096))[:2] == ("5%", True))
    committed, ruled, bad = 0, 0, []
    for path in sorted(glob.glob(os.path.join(src, "results", "*", "*.json"))):
        try:
            c, rs = plot.load(path)
        except (ValueError, KeyError, IndexError):
            continue
        for q in plot.design_points(rs):
            committed += 1
            rule, ok, rel = plot.design_fpr_check(q)
            ruled += rule == "5%"
            if not ok:
                bad.append("%s: %s n=%d bpk=%d %+.1f%% (%s)" % (os.path.relpath(path, src), q["shape"], q["n"],
                                                               q["bpk_target"], 100 * rel, rule))
    step("the committed design runs meet the FPR rule (%d points, %d under the +-5 %% rule)" % (committed, ruled),
         not bad, "; ".join(bad[:6]))
    p = subprocess.run([PY, os.path.join(src, "scripts", "plot.py"), run_json, "--summary"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = p.stdout.decode()
    step("plot.py --summary has the design table and its winners", p.returncode == 0 and
         "Design space at n = 1e+05" in out and all(("\n%s " % sh) in out for sh in shapes) and
         "12 bits/key, winner at T = 1 ns: " in out, out[-1500:])
    figs = os.path.join(work, "figs")
    p = subprocess.run([PY, os.path.join(src, "scripts", "plot.py"), run_json, "--outdir", figs],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    drawn = [os.path.exists(os.path.join(figs, "run-%s.png" % f))
             for f in ("8-design-fpr", "9-design-skyline", "10-design-winner")]
    step("plot.py draws figures 8, 9 and 10", p.returncode == 0 and all(drawn), p.stdout.decode()[-1500:])
    run = plot.run_info(run_json, ctx2, rows)
    pdfs = os.path.join(work, "paper-figs")
    plot.paper_style()
    plot.paper_design(run, pdfs)
    step("plot.py --paper draws the design figures",
         all(os.path.exists(os.path.join(pdfs, f)) for f in ("fig-design-skyline.pdf", "fig-design-winner.pdf")))
    tex_dir = os.path.join(work, "tex-design")
    os.makedirs(tex_dir, exist_ok=True)
    paper_tables.NUM.clear()
    paper_tables.NUM["p-path"] = "run"
    paper_tables.design_text(run, tex_dir)
    with open(os.path.join(tex_dir, "text-design.tex")) as f:
        tex = f.read()
    verdict = paper_tables.NUM.get("design-verdict")
    step("the paper's design section is written, with a verdict on Lang et al.'s headline (%s)" % verdict,
         "\\label{tab:design}" in tex and "fig-design-winner.pdf" in tex and verdict in (
             "reproduces", "reproduces only in part", "does not reproduce") and ("\\textbf{%s}" % verdict) in tex,
         tex[:800])
    paper_tables.NUM.clear()
    paper_tables.NUM["p-path"] = "run"
    bare = dict(run, rows=[r for r in rows if r["kind"] != "design"])
    paper_tables.design_text(bare, tex_dir)
    with open(os.path.join(tex_dir, "text-design.tex")) as f:
        tex = f.read()
    step("... and says so when the primary run lacks the series",
         "did not measure the design-space series" in tex and "includegraphics" not in tex, tex[:400])


def check_design_peers(data, src, work, step):
    """Peer rows, made from the run's design rows, through plot.py and the
    paper (step counts the failures)."""
    import plot
    import paper_tables
    bench = [b for b in data["benchmarks"] if b.get("run_type") != "aggregate"]
    design = [b for b in bench if b["name"].startswith("design/")]
    fastest = min(b["counters"]["ns_per_op"] if "counters" in b else b["ns_per_op"] for b in design)
    peers = []
    # Bloom peers: renamed copies of two shapes' rows; the SBBF's twin made
    # the fastest of all, so it must win the winner map at small T.
    for ours, theirs in (("design/sbbf-k8/", "design-peer/libfilter/block/"),
                         ("design/sect256-k8/", "design-peer/partitioned-filters/Sectorized256-k8/")):
        for b in design:
            if b["name"].startswith(ours):
                c = copy.deepcopy(b)
                for key in ("name", "run_name"):
                    c[key] = c[key].replace(ours, theirs)
                c["label"] = "peer/" + theirs.split("/", 1)[1].rstrip("/")
                if "libfilter" in theirs and "contains_batch" in c["name"]:
                    c["ns_per_op"] = fastest / 100
                peers.append(c)
    # A static filter at the run's first n: 9.84 bits/key, no shape.
    n0 = min(int(b["n"]) for b in design)
    for op in ("build", "contains_batch/pos50"):
        b = next(b for b in design if b["name"].startswith("design/sbbf-k8/" + op + "/n:%d/" % n0))
        c = copy.deepcopy(b)
        for key in ("block_bits", "sectors", "groups", "k", "bits_per_key_target", "fpr_model"):
            c.pop(key, None)
        c["name"] = c["run_name"] = "design-peer/fastfilter_cpp/xor8/%s/n:%d" % (op, n0)
        c["bits_per_key"], c["fpr_measured"], c["static"] = 9.84, 0.0039, 1
        peers.append(c)
    synth = copy.deepcopy(data)
    synth["benchmarks"] = data["benchmarks"] + peers
    path = os.path.join(work, "run-peers.json")
    with open(path, "w") as f:
        json.dump(synth, f)
    ctx, rows = plot.load(path)
    _, rows0 = plot.load(os.path.join(work, "run.json"))
    pts = plot.peer_points(rows)
    bpks = plot.design_bpks(rows)
    layouts = sorted({(p["shape"], p["layout"]) for p in pts})
    step("plot.py reads the peer rows as peers, each matched to the series' layout (%s)" % layouts,
         len(pts) == 2 * len(bpks) * len(plot.design_ns(rows)) + 1 and layouts == [
             ("fastfilter_cpp/xor8", "static"), ("libfilter/block", "sbbf"),
             ("partitioned-filters/Sectorized256-k8", "sect256")], str(layouts))
    step("... and not into the series", len(plot.design_points(rows)) == len(plot.design_points(rows0)))
    lo, hi = min(bpks), max(bpks)
    c_lo, c_hi = plot.design_contenders(rows, n0, lo, peers=True), plot.design_contenders(rows, n0, hi, peers=True)
    step("the peers compete only where asked, a static filter only within its bits per key",
         plot.design_contenders(rows, n0, lo) == plot.design_contenders(rows0, n0, lo) and
         "peer/libfilter/block" in [c[0] for c in c_lo] and
         ("peer/fastfilter_cpp/xor8" in [c[0] for c in c_hi]) == (hi >= 9.84) and
         ("peer/fastfilter_cpp/xor8" in [c[0] for c in c_lo]) == (lo >= 9.84),
         "%s | %s" % ([c[0] for c in c_lo], [c[0] for c in c_hi]))
    step("the fastest peer wins the winner map at T = 1 ns",
         plot.design_winner(c_lo, 1)[0] == "peer/libfilter/block", str(plot.design_winner(c_lo, 1)))
    p = subprocess.run([PY, os.path.join(src, "scripts", "plot.py"), path, "--summary"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = p.stdout.decode()
    step("plot.py --summary has the peer table and the winners with the peers", p.returncode == 0 and
         "Peers at n = " in out and "\nlibfilter/block " in out and "fastfilter_cpp/xor8 " in out and
         "with the peers, winner at T = 1 ns: peer/libfilter/block" in out, out[-1500:])
    figs = os.path.join(work, "figs-peers")
    p = subprocess.run([PY, os.path.join(src, "scripts", "plot.py"), path, "--outdir", figs],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    drawn = [os.path.exists(os.path.join(figs, "run-peers-%s.png" % f))
             for f in ("8-design-fpr", "9-design-skyline", "10-design-winner")]
    step("plot.py draws figures 8, 9 and 10 with the peers", p.returncode == 0 and all(drawn),
         p.stdout.decode()[-1500:])
    tex = {}
    for name, rs in (("with", rows), ("without", rows0)):
        tex_dir = os.path.join(work, "tex-design-peers-" + name)
        os.makedirs(tex_dir, exist_ok=True)
        paper_tables.NUM.clear()
        paper_tables.NUM["p-path"] = "run"
        paper_tables.design_text(plot.run_info(path, ctx, rs), tex_dir)
        with open(os.path.join(tex_dir, "text-design.tex")) as f:
            tex[name] = f.read()
    step("the paper's design section is the same with the peers' rows", tex["with"] == tex["without"])


if __name__ == "__main__":
    sys.exit(main())
