#!/usr/bin/python3
"""Runs every command of a Markdown tutorial and checks the output it shows.

  run_tutorial.py --doc docs/tutorial.md --tool BUILD/tools/blockfilter \\
                  --source SRCDIR --work DIR

The commands are read from the document itself, so the tutorial cannot go
stale without this test failing:

  ```sh tutorial      a block this test runs, with bash -e -o pipefail, in a
                      fresh scratch directory (shared by all blocks, in
                      document order), with the built tool first on PATH and
                      BLOCKFILTER set to the source tree
  ```text output      the output (stdout and stderr together) of the block
                      just before it. A line "..." matches any number of
                      lines; "..." inside a line matches any text; every
                      other character must match exactly.

Plain ```sh blocks are shown to the reader but not run: the tutorial's
"before you start" block, which builds the tool and sets PATH and
BLOCKFILTER, is what this test does itself. Every relative link of the
document must name a file that exists. BF_BENCH_BUILD is pointed into DIR,
so a benchmark the tutorial runs builds its harness there, not in the
source tree. --env NAME=VALUE (repeatable) adds to the blocks' environment:
scripts/install-test.sh runs docs/adopting.md so, with the installed prefix.

Prints one line per block and "N passed, N failed"; exits 1 on any failure.
`run_tutorial.py --self-test --work DIR` checks that the checker fails on
wrong output, failing commands and broken links.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import docs_common  # beside this script

FENCE = re.compile(r"^(\s*)(`{3,})(.*)$")


def blocks(text):
    """(line number, info string, body) of every fenced block."""
    out = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, info, start = m.group(2), m.group(3).strip(), i + 1
        body = []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence):
            body.append(lines[i])
            i += 1
        out.append((start, info, "\n".join(body)))
        i += 1
    return out


def line_regex(expected):
    return re.compile("^" + ".*".join(re.escape(p) for p in expected.split("...")) + "$")


def matches(expected, actual):
    """Whether actual lines match expected lines ("..." wildcards)."""
    exp = expected
    act = actual

    def go(i, j):
        while i < len(exp):
            if exp[i].strip() == "...":
                return any(go(i + 1, k) for k in range(j, len(act) + 1))
            if j >= len(act) or not line_regex(exp[i]).match(act[j]):
                return False
            i += 1
            j += 1
        return j == len(act)

    return go(0, 0)


def check_links(doc_path, text):
    bad = []
    base = os.path.dirname(os.path.abspath(doc_path))
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"^[a-z]+:", target) or target.startswith("#"):
            continue
        path = target.split("#", 1)[0]
        if path and not os.path.exists(os.path.join(base, path)):
            bad.append(target)
    return bad


SELF_TESTS = [
    # (name, document, whether the run must pass)
    ("matching output, wildcards", "```sh tutorial\nprintf 'a\\nb 1\\nc\\nd\\n'\n```\n"
     "```text output\na\nb ...\n...\nd\n```\n", True),
    ("output differs", "```sh tutorial\necho one\n```\n```text output\ntwo\n```\n", False),
    ("extra output line", "```sh tutorial\nprintf 'one\\ntwo\\n'\n```\n```text output\none\n```\n", False),
    ("command fails", "```sh tutorial\nfalse\necho not reached\n```\n", False),
    ("pipeline fails", "```sh tutorial\nfalse | cat\n```\n", False),
    ("broken link", "[x](no-such-file.md)\n```sh tutorial\ntrue\n```\n", False),
    ("no commands", "```sh\necho shown, not run\n```\n", False),
]


def self_test(work):
    """The checker must fail where it should: each case's document is run
    through this very script."""
    os.makedirs(work, exist_ok=True)
    bad = 0
    for name, doc, should_pass in SELF_TESTS:
        d = tempfile.mkdtemp(prefix="selftest-", dir=os.path.abspath(work))
        path = os.path.join(d, "doc.md")
        with open(path, "w") as f:
            f.write(doc)
        p = subprocess.run([sys.executable, os.path.abspath(__file__), "--doc", path, "--tool", "/bin/true",
                            "--source", d, "--work", d], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        ok = (p.returncode == 0) == should_pass
        print("%s self-test: %s (%s as it should)" % ("ok  " if ok else "FAIL", name,
                                                       "passed" if should_pass else "failed"))
        if not ok:
            print(p.stdout.decode("utf-8", "replace"))
            bad += 1
        shutil.rmtree(d, ignore_errors=True)
    print("%d passed, %d failed" % (len(SELF_TESTS) - bad, bad))
    return 1 if bad else 0


def main():
    if "--self-test" in sys.argv:
        work = sys.argv[sys.argv.index("--work") + 1] if "--work" in sys.argv else tempfile.gettempdir()
        return self_test(work)
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--doc", required=True)
    ap.add_argument("--tool", required=True, help="the built blockfilter executable")
    ap.add_argument("--source", required=True, help="the source tree (BLOCKFILTER)")
    ap.add_argument("--work", required=True, help="a folder for the scratch directory and the bench build")
    ap.add_argument("--keep", action="store_true", help="keep the scratch directory")
    ap.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                    help="an environment variable for the blocks (repeatable)")
    docs_common.add_once_per_cpu(ap)
    args = ap.parse_args()
    if docs_common.skipped_for_kernel(args):
        return 77

    with open(args.doc, encoding="utf-8") as f:
        text = f.read()
    passed = failed = 0

    bad = check_links(args.doc, text)
    if bad:
        print("FAIL links: %s names no file: %s" % (args.doc, ", ".join(bad)))
        failed += 1
    else:
        passed += 1

    all_blocks = blocks(text)
    runs = []  # [line, command, expected or None]
    for line, info, body in all_blocks:
        words = info.split()
        if words[:2] == ["sh", "tutorial"]:
            runs.append([line, body, None])
        elif words[:2] == ["text", "output"]:
            if not runs or runs[-1][2] is not None:
                print("FAIL %s:%d: an output block with no command block before it" % (args.doc, line))
                failed += 1
                continue
            runs[-1][2] = body
    if not runs:
        print("FAIL %s: no ```sh tutorial blocks" % args.doc)
        print("%d passed, %d failed" % (passed, failed + 1))
        return 1

    os.makedirs(args.work, exist_ok=True)
    scratch = tempfile.mkdtemp(prefix="tutorial-", dir=os.path.abspath(args.work))
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(os.path.abspath(args.tool)) + os.pathsep + env.get("PATH", "")
    env["BLOCKFILTER"] = os.path.abspath(args.source)
    env["BF_BENCH_BUILD"] = os.path.join(os.path.abspath(args.work), "bench-release")
    env["LC_ALL"] = "C"
    for item in args.env:
        name, _, value = item.partition("=")
        env[name] = value
    for line, command, expected in runs:
        t0 = time.time()
        p = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", command], cwd=scratch, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                           timeout=900)
        out = p.stdout.decode("utf-8", "replace")
        first = command.strip().split("\n")[0]
        where = "%s:%d" % (args.doc, line)
        if p.returncode != 0:
            print("FAIL %s: `%s` exited %d\n%s" % (where, first, p.returncode, out[-4000:]))
            failed += 1
            continue
        if expected is not None:
            act = out.rstrip("\n").split("\n") if out.strip() else []
            exp = expected.rstrip("\n").split("\n") if expected.strip() else []
            if not matches(exp, act):
                print("FAIL %s: `%s`: output differs from the document\n--- document\n%s\n--- actual\n%s" %
                      (where, first, expected, out))
                failed += 1
                continue
        print("ok   %s: `%s` (%.1f s%s)" % (where, first, time.time() - t0,
                                            ", output checked" if expected is not None else ""))
        passed += 1
    if failed == 0 and not args.keep:
        shutil.rmtree(scratch, ignore_errors=True)
    else:
        print("scratch directory kept: %s" % scratch)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
