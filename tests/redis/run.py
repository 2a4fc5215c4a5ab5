#!/usr/bin/python3
"""Runs the Redis module tests against real redis-server processes.

  tests/redis/run.py --module build/redis/blockfilter-redis.so [--only NAME]
                     [--large] [--keep]

The last line is "N passed, N failed"; the exit status is 0 only if every
test passed. --large runs the bigger variants (see each test)."""

import argparse
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import harness  # noqa: E402
import test_commands  # noqa: E402,F401
import test_persistence  # noqa: E402,F401
import test_hostile  # noqa: E402,F401
import test_cluster  # noqa: E402,F401
import test_cuckoo_shapes  # noqa: E402,F401


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--module", required=True)
    ap.add_argument("--only", help="run the tests whose name contains this")
    ap.add_argument("--large", action="store_true")
    ap.add_argument("--keep", action="store_true", help="keep the servers' directories")
    args = ap.parse_args()
    module = os.path.abspath(args.module)
    if not os.path.exists(module):
        print("module not found: %s" % module)
        print("0 passed, 1 failed")
        return 1
    if not shutil.which(harness.REDIS_SERVER):
        print("redis-server not found (./scripts/setup.sh installs it)")
        print("0 passed, 1 failed")
        return 1
    ctx = harness.Context(module, large=args.large)
    try:
        passed, failed = harness.run(ctx, harness.TESTS, args.only)
    finally:
        harness.cleanup(keep=args.keep)
    for k, v in ctx.figures.items():
        print("figure %s: %s" % (k, v))
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
