#!/usr/bin/python3
"""scripts/costs_from_bench.py on small benchmark JSON files.

  check_costs_from_bench.py --source SRCDIR --work DIR [--tool BUILD/tools/blockfilter]

Feeds the script runs made up here and checks the cost table it writes,
line for line: the SBBF rows of the run's kernel, and the design-space
series' blocked shapes at the size classes of `blockfilter calibrate`,
interpolated in log2(bytes) between the sizes measured, none
extrapolated, aggregates and build rows ignored, and nothing from the
design series when --kernel names another kernel than the run's. With
--tool, the table goes through `blockfilter calibrate --from` and
`blockfilter calc`, which must read a design row's figure back. Prints
"ok ..." per check and "N passed, N failed"; exit status 1 on a failure.
"""
import argparse
import json
import os
import subprocess
import sys

PY = sys.executable or "/usr/bin/python3"

CONTEXT = {"bf_cpu_model": "Test CPU", "bf_kernel_auto": "avx2",
           "bf_library_version": "9.9.9"}


def lookup(kernel, n, nbytes, ns, run_type="iteration"):
    """A single-thread batch lookup of absent keys, as bench_main.cc names it."""
    return {"name": "sbbf/%s/contains_batch/pos0/hash_excl/n:%d/fpp:0.01/threads:1/"
                    "min_time:0.050/manual_time" % (kernel, n),
            "run_type": run_type, "bytes": float(nbytes), "ns_per_op": ns}


def design(layout, shape, op, n, bpk, nbytes, ns, run_type="iteration", counters=True):
    """A design-space row, as bench/design.cc names it and counts it."""
    b = {"name": "design/%s-k%d/%s/n:%d/bpk:%d/min_time:0.050/manual_time"
                 % (layout, shape[3], op, n, bpk),
         "run_type": run_type, "bytes": float(nbytes), "ns_per_op": ns, "n": float(n),
         "label": "blocked"}
    if counters:
        b.update(zip(("block_bits", "sectors", "groups", "k"), map(float, shape)))
    return b


REG64 = (64, 1, 1, 4)
CSECT = (512, 8, 2, 6)
SECT = (512, 8, 8, 8)
POS50 = "contains_batch/pos50"

RUN = {"context": CONTEXT, "benchmarks": [
    lookup("avx2", 1000, 1216, 2.5),
    lookup("scalar", 1000, 1216, 9.0),
    # reg64-k4 measured at 2^18, twice at 2^20 (3 and 5: 4 on average) and at
    # 2^23: 512 KiB lies between 2^18 and 2^20 (2 + 2 * 1/2 = 3), 2 MiB
    # between 2^20 and 2^23 (4 + 3 * 1/3 = 5), 8 MiB is measured; 32 KiB and
    # 128 MiB are outside (no row).
    design("reg64", REG64, POS50, 1 << 18, 8, 1 << 18, 2.0),
    design("reg64", REG64, POS50, 1 << 20, 8, 1 << 20, 3.0),
    design("reg64", REG64, POS50, 1 << 19, 16, 1 << 20, 5.0),
    design("reg64", REG64, POS50, 1 << 23, 8, 1 << 23, 7.0),
    design("reg64", REG64, POS50, 1 << 20, 8, 1 << 20, 100.0, run_type="aggregate"),
    design("reg64", REG64, "build", 1 << 19, 8, 1 << 19, 50.0),
    # csect512z2-k6 at 2^14 and 2^16: 32 KiB halfway, 2.
    design("csect512z2", CSECT, POS50, 1 << 14, 8, 1 << 14, 1.0),
    design("csect512z2", CSECT, POS50, 1 << 16, 8, 1 << 16, 3.0),
    # sect512-k8 at one size that is no class: no row.
    design("sect512", SECT, POS50, 1000000, 8, 1000000, 4.0),
    # A row without the shape's counters: not a shape.
    design("sect512", SECT, POS50, 1 << 19, 8, 1 << 19, 6.0, counters=False),
]}

WANT = """blockfilter-costs 1
machine Test CPU; kernel avx2; blockfilter 9.9.9
row blocked-512-8-2-k6 32768 2
row blocked-64-1-1-k4 524288 3
row blocked-64-1-1-k4 2097152 5
row blocked-64-1-1-k4 8388608 7
row sbbf 1216 2.5
end
"""

WANT_SCALAR = """blockfilter-costs 1
machine Test CPU; kernel scalar; blockfilter 9.9.9
row sbbf 1216 9
end
"""


class Checks:
    def __init__(self):
        self.passed = self.failed = 0

    def check(self, cond, what, detail=""):
        if cond:
            self.passed += 1
            print("ok " + what)
        else:
            self.failed += 1
            print("FAIL " + what + ("\n    " + detail.replace("\n", "\n    ") if detail else ""))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--source", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--tool")
    args = ap.parse_args()
    script = os.path.join(os.path.abspath(args.source), "scripts", "costs_from_bench.py")
    work = os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    c = Checks()

    def run(doc, *extra):
        path = os.path.join(work, "run-%d.json" % (c.passed + c.failed))
        with open(path, "w") as fp:
            json.dump(doc, fp)
        return subprocess.run([PY, script, path] + list(extra), capture_output=True, text=True)

    p = run(RUN)
    c.check(p.returncode == 0 and p.stdout == WANT, "the run's table",
            "exit %d\n%s%s" % (p.returncode, p.stdout, p.stderr))
    table = os.path.join(work, "costs.txt")
    with open(table, "w") as fp:
        fp.write(p.stdout)

    p = run(RUN, "--kernel", "scalar")
    c.check(p.returncode == 0 and p.stdout == WANT_SCALAR, "--kernel scalar: no design rows",
            "exit %d\n%s%s" % (p.returncode, p.stdout, p.stderr))
    c.check("measured with kernel avx2, not scalar" in p.stderr, "--kernel scalar: says why",
            p.stderr)

    # Design rows only, all between two classes (10^6 keys at 8..16 bits/key,
    # the default run's): no table, and the reason.
    only = {"context": CONTEXT, "benchmarks": [
        design("reg64", REG64, POS50, 1000000, 8, 1000000, 3.0),
        design("reg64", REG64, POS50, 1000000, 16, 2000000, 4.0)]}
    p = run(only)
    c.check(p.returncode != 0 and p.stdout == "", "no class within the sizes: no table",
            "exit %d\n%s" % (p.returncode, p.stdout))
    c.check("no shape was measured on both sides of a size class" in p.stderr,
            "no class within the sizes: says why", p.stderr)

    if args.tool:
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "cache"))
        merged = os.path.join(work, "merged.txt")
        if os.path.exists(merged):
            os.remove(merged)
        p = subprocess.run([args.tool, "calibrate", "--from", table, "--out", merged],
                           capture_output=True, text=True, env=env)
        c.check(p.returncode == 0 and p.stdout.startswith("5 rows"), "calibrate --from",
                "exit %d\n%s%s" % (p.returncode, p.stdout, p.stderr))
        # No work saved: the cheapest lookup wins, and each candidate's
        # lookup is its table figure (flat outside its rows).
        p = subprocess.run([args.tool, "calc", "--n", "1e4", "--bytes", "524288",
                            "--work-ns", "0", "--costs", merged, "--top", "40"],
                           capture_output=True, text=True, env=env)
        ns = {}
        for line in p.stdout.splitlines():
            f = line.split()
            if len(f) >= 7 and f[0].isdigit():
                ns[f[1]] = f[5]
        c.check(p.returncode == 0 and ns.get("blocked-64-1-1-k4") == "3.00"
                and ns.get("blocked-512-8-2-k6") == "2.00" and ns.get("sbbf") == "2.50",
                "calc reads the design rows", "exit %d\n%s%s" % (p.returncode, p.stdout, p.stderr))
        c.check("pick: blocked-512-8-2-k6" in p.stdout, "calc picks the fastest", p.stdout)

    print("%d passed, %d failed" % (c.passed, c.failed))
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
