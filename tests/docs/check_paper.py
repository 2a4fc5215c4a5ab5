#!/usr/bin/python3
"""The paper's generated inputs, checked without LaTeX.

  check_paper.py --numbers-exe BUILD/tests/docs/paper_numbers --source SRCDIR --work DIR

Does what scripts/paper.sh does before latexmk, on the runs it would use
(the newest full run of every results/<machine>/): runs paper/numbers.c
(which fails if its worked example disagrees with the library's bitset),
draws the figures with scripts/plot.py --paper and writes the tables and
numbers with scripts/paper_tables.py. Then checks paper/blockfilter.tex
against the output: every \\bfnum{key} it quotes must have been generated,
and every \\input and \\includegraphics file must exist. A results file
whose schema drifted, or a quoted number that no generator writes any more,
fails here, on machines without LaTeX too. Exits 77 (skipped) when
matplotlib is missing.
"""
import os
import re
import subprocess
import sys

import docs_common  # beside this script

PY = "/usr/bin/python3"


def main():
    args = docs_common.parse_check_args(__doc__, "--numbers-exe")
    if args is None:
        return 77
    src = os.path.abspath(args.source)
    work = os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    for f in os.listdir(work):
        os.remove(os.path.join(work, f))
    if subprocess.run([PY, "-c", "import matplotlib"], stderr=subprocess.DEVNULL).returncode != 0:
        print("matplotlib missing: skipped (./scripts/setup.sh installs python3-matplotlib)")
        return 77
    passed = failed = 0

    def step(name, ok, detail=""):
        nonlocal passed, failed
        print("%s %s%s" % ("ok  " if ok else "FAIL", name, (": " + detail) if detail and not ok else ""))
        if ok:
            passed += 1
        else:
            failed += 1
        return ok

    numbers = os.path.join(work, "numbers.json")
    with open(numbers, "w") as out:
        p = subprocess.run([args.numbers_exe], stdout=out, stderr=subprocess.PIPE)
    step("paper/numbers.c (models, sizings, worked example checked against the bitset)", p.returncode == 0,
         p.stderr.decode())

    listing = subprocess.run([PY, os.path.join(src, "scripts", "paper_tables.py"), "--list-runs",
                              os.path.join(src, "results")], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    runs = [r for r in listing.stdout.decode().split("\n") if r]
    if not step("a full run under results/", listing.returncode == 0 and bool(runs),
                listing.stdout.decode() + listing.stderr.decode()):
        print("%d passed, %d failed" % (passed, failed))
        return 1
    for tool, extra in (("plot.py", ["--paper", work, "--numbers", numbers]),
                        ("paper_tables.py", ["--out", work, "--numbers", numbers])):
        p = subprocess.run([PY, os.path.join(src, "scripts", tool)] + extra + runs, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT)
        step("%s on %s" % (tool, ", ".join(os.path.relpath(r, src) for r in runs)), p.returncode == 0,
             p.stdout.decode()[-3000:])

    with open(os.path.join(src, "paper", "blockfilter.tex"), encoding="utf-8") as f:
        tex = f.read()
    body = re.sub(r"(?<!\\)%.*", "", tex)  # comments out
    defined = set()
    ntex = os.path.join(work, "numbers.tex")
    if os.path.exists(ntex):
        with open(ntex, encoding="utf-8") as f:
            defined = set(re.findall(r"^\\bfset\{([^}]*)\}", f.read(), re.M))
    used = set(re.findall(r"\\bfnum\{([^}]*)\}", body))
    missing = sorted(used - defined)
    step("%d numbers the text quotes are all generated" % len(used), not missing, ", ".join(missing))
    files = re.findall(r"\\input\{([^}]*)\}", body) + re.findall(r"\\includegraphics(?:\[[^]]*\])?\{([^}]*)\}", body)
    absent = [f for f in files if not os.path.exists(os.path.join(work, f if "." in f else f + ".tex"))]
    step("%d generated tables, texts and figures exist" % len(files), not absent, ", ".join(absent))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
