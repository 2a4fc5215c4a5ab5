"""Mutated filter images, Parquet filter bytes and Parquet files through the
Python loaders. Run as a script (test_fuzz.py runs it in a child process, so
that a crash fails the test instead of killing it):

    python3 fuzz_worker.py DATA_DIR TMP_DIR SEED COUNT

Every input must load or be refused with ValueError, TypeError, KeyError or
OSError; whatever loads is queried, listed, pruned, copied and saved. Prints
"N inputs: A loaded, R refused" and exits 0, or dies (a crash) / exits 1 (an
unexpected exception, printed)."""
import os
import pathlib
import random
import sys

import numpy as np

import blockfilter as bf
import blockfilter.parquet as bpq

EXPECTED = (ValueError, TypeError, KeyError, OSError)


def mutate(rng, seed_bytes, others):
    b = bytearray(seed_bytes)
    for _ in range(rng.choice((1, 1, 2, 3, 8))):
        op = rng.randrange(8)
        if not b:
            b = bytearray(rng.randbytes(rng.randrange(1, 64)))
        i = rng.randrange(len(b))
        # Headers and footers hold the fields: aim there half of the time.
        if rng.random() < 0.5:
            i = rng.randrange(min(len(b), 96)) if rng.random() < 0.5 else \
                max(0, len(b) - 1 - rng.randrange(min(len(b), 256)))
        if op == 0:
            b[i] ^= 1 << rng.randrange(8)
        elif op == 1:
            b[i] = rng.choice((0, 1, 0x7F, 0x80, 0xFF, rng.randrange(256)))
        elif op == 2:
            del b[rng.randrange(len(b)):]
        elif op == 3:
            b += rng.randbytes(rng.randrange(1, 40))
        elif op == 4:
            j = rng.randrange(len(b))
            b[i:i] = b[j:j + rng.randrange(1, 32)]
        elif op == 5:
            del b[i:i + rng.randrange(1, 16)]
        elif op == 6:
            o = rng.choice(others)
            j = rng.randrange(len(o))
            b[i:i + 16] = o[j:j + 16]
        else:
            w = rng.choice((4, 8))
            b[i:i + w] = rng.choice((0, 2**31 - 1, 2**32 - 1, 2**63 - 1, 2**64 - 1,
                                     rng.getrandbits(64))).to_bytes(8, "little")[:w]
    return bytes(b)


def use_filter(f):
    keys = np.arange(-50, 50, dtype=np.int64)
    f.contains_many(keys)
    f.contains_many(["a", b"b", 1.5])
    _ = ("key-7" in f, 3 in f, len(f), f.stats, repr(f), f.nbytes)
    if isinstance(f, bf.Scalable):
        _ = f.layers
    c = f.copy()
    c.add("new")
    c.add_many(keys)
    _ = c.to_bytes()
    if isinstance(f, bf.SBBF) and f.seed == 0:
        bf.SBBF.from_parquet(f.to_parquet())
    try:
        f.add("x")
    except TypeError:
        pass  # read-only


def native(rng, img, tmp):
    used = 0
    p = tmp / "n.bf"
    p.write_bytes(img)
    for how in ("bytes", "load", "open", "verify"):
        try:
            if how == "bytes":
                f = bf.from_bytes(img)
            else:
                f = bf.load(p) if how == "load" else bf.open(p, verify=how == "verify")
        except EXPECTED:
            continue
        use_filter(f)
        f.close()
        used += 1
    return used


def parquet_bytes(rng, blob, tmp):
    used = 0
    p = tmp / "p.bin"
    p.write_bytes(blob)
    for how in ("copy", "view", "open"):
        try:
            if how == "open":
                f = bf.SBBF.open(p)
            else:
                f = bf.SBBF.from_parquet(blob, copy=how == "copy")
        except EXPECTED:
            continue
        use_filter(f)
        used += 1
    return used


def parquet_file(rng, blob, tmp):
    used = 0
    p = tmp / "f.parquet"
    p.write_bytes(blob)
    for how in ("buffer", "path"):
        try:
            if how == "path":
                pf = bpq.open(p)
            else:
                pf = bpq.open(blob)
        except EXPECTED:
            continue
        used += 1
        try:
            pf.to_dict()
        except EXPECTED:
            pass
        for col in pf.columns:
            for vals in (["0", "1", "-5", "2020-01-01", "key-00000", "nan", "Hello", "x" * 40],
                         [b"\x00\x00\x00\x00", b"\x01" * 8, b"abc"]):
                for kw in ({}, {"strict": True}, {"stats": False}):
                    ok = []
                    for v in vals:
                        try:
                            pf.value(col.path, v)
                            ok.append(v)
                        except EXPECTED:
                            pass
                    try:
                        pf.prune(col.path, ok, **kw)
                    except EXPECTED:
                        pass
            for rg in range(min(pf.num_row_groups, 4)):
                try:
                    f = pf.bloom_filter(rg, col.path)
                except EXPECTED:
                    continue
                if f is not None:
                    use_filter(f)
        pf.close()
    return used


def main():
    data, tmp, seed, count = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), \
        int(sys.argv[3]), int(sys.argv[4])
    rng = random.Random(seed)
    natives = [p.read_bytes() for p in sorted((data / "native").glob("*.bflt"))]
    # Filters this package writes: keyed, grown, every family, tiny and not.
    for cls in (bf.SBBF, bf.Bloom, bf.Counting, bf.Cuckoo, bf.Scalable):
        f = cls(64, 0.05, seed=7)
        f.add_many(np.arange(100 if cls is not bf.Cuckoo else 60, dtype=np.int64))
        natives.append(f.to_bytes())
    pq_filters = [(data / "parquet" / "bloom_filter.xxhash.bin").read_bytes(),
                  bf.SBBF(10, 0.1).to_parquet()]
    files = [p.read_bytes() for p in sorted((data / "parquet").glob("*.parquet"))]
    everything = natives + pq_filters + files
    loaded = refused = 0
    for i in range(count):
        kind = i % 10
        if kind < 4:
            blob, fn = mutate(rng, rng.choice(natives), everything), native
        elif kind < 6:
            blob, fn = mutate(rng, rng.choice(pq_filters), everything), parquet_bytes
        else:
            blob, fn = mutate(rng, rng.choice(files), everything), parquet_file
        try:
            used = fn(rng, blob, tmp)
        except EXPECTED:
            used = 0
        except BaseException:
            print("input %d (seed %d): unexpected exception" % (i, seed), file=sys.stderr)
            (tmp / "failing-input").write_bytes(blob)
            raise
        if used:
            loaded += 1
        else:
            refused += 1
    print("%d inputs: %d loaded, %d refused" % (count, loaded, refused))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
