"""Shared by the docs tests (run_tutorial.py, check_paper.py)."""
import os
import subprocess


def add_once_per_cpu(ap):
    ap.add_argument("--once-per-cpu", metavar="EXE",
                    help="paper_numbers: skip (exit 77) when BLOCKFILTER_KERNEL forces another kernel than "
                         "the CPU's best, so the kernel test setups run this once")


def skipped_for_kernel(args):
    """True (and says why) when this run is under a kernel setup that is not
    the CPU's best: the result does not depend on the kernel, so it runs
    once, under the best kernel's setup or with no setup at all."""
    forced = os.environ.get("BLOCKFILTER_KERNEL")
    if not args.once_per_cpu or not forced:
        return False
    best = subprocess.run([args.once_per_cpu, "--best-kernel"], stdout=subprocess.PIPE).stdout.decode().strip()
    if best and forced != best:
        print("skipped under BLOCKFILTER_KERNEL=%s: runs once, under the %s setup" % (forced, best))
        return True
    return False


def parse_check_args(doc, exe_option):
    """The arguments of a check script: exe_option (the program it runs),
    --source, --work and --once-per-cpu. None when it is skipped for the
    forced kernel (the caller exits 77)."""
    import argparse
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(exe_option, required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--work", required=True)
    add_once_per_cpu(ap)
    args = ap.parse_args()
    return None if skipped_for_kernel(args) else args
