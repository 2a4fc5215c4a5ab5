"""Bad input from a client must get an error (or work) and never crash the
server: huge capacities, error rates out of range, binary and 1 MB items,
crafted dump headers with valid checksums, random LOADCHUNK calls, a chain
at its layer limit, bad load-time arguments."""

import random
import struct
import subprocess
import time

from checksums import with_checksum
from harness import REDIS_SERVER, Error, Server, check, eq, err, test


def alive(s, c):
    check(s.alive(), "server process alive:\n" + s.log_tail())
    eq(c("PING"), b"PONG")


def error_or(reply, ok_values, what):
    check(isinstance(reply, Error) or reply in ok_values, "%s: %r" % (what, reply))


@test
def huge_capacities_and_rates(ctx):
    s = ctx.server()
    c = s.client()
    big = str(2 ** 63 - 1)
    for args in (("BF.RESERVE", "k", "0.01", big), ("BF.RESERVE", "k", "1e-300", "1000000000000"),
                 ("BF.INSERT", "k", "CAPACITY", big, "ITEMS", "a"),
                 ("BF.RESERVE", "k", "0.5", big, "EXPANSION", "32768"),
                 ("CF.RESERVE", "k", big), ("CF.RESERVE", "k", str(2 ** 50)),
                 ("CF.INSERT", "k", "CAPACITY", big, "ITEMS", "a"),
                 ("CF.RESERVE", "k", "1000", "ERROR", "1e-300")):
        r = c(*args)
        check(isinstance(r, Error), "%s: %r" % (" ".join(args), r))
        eq(c("EXISTS", "k"), 0, "nothing created by " + " ".join(args))
    alive(s, c)
    # Large but possible: works (memory is only touched as items arrive).
    error_or(c("BF.RESERVE", "k1", "0.01", "1000000000"), [b"OK"], "1e9 keys")
    error_or(c("CF.RESERVE", "k2", "1000000000"), [b"OK"], "CF 1e9")
    c("BF.ADD", "k1", "x")
    c("DEL", "k1", "k2")
    for rate in ("0", "1", "1.0", "-1", "2", "nan", "inf", "-0", "1e400", "0x10"):
        r = c("BF.RESERVE", "r", rate, "100")
        check(isinstance(r, Error), "error rate %s refused: %r" % (rate, r))
        r = c("BF.INSERT", "r", "ERROR", rate, "ITEMS", "a")
        check(isinstance(r, Error), "BF.INSERT ERROR %s refused: %r" % (rate, r))
    # Below about 1e-12 an SBBF needs mostly empty blocks: refused or huge.
    err(c("BF.RESERVE", "tiny", "1e-300", "10"), "ERR could not create filter")
    error_or(c("BF.RESERVE", "tiny", "1e-20", "10"), [b"OK"], "error rate 1e-20")
    eq(c("BF.RESERVE", "small", "1e-10", "10"), b"OK")
    eq(c("BF.ADD", "small", "a"), 1)
    error_or(c("BF.RESERVE", "sub", "4.9e-324", "1"), [b"OK"], "a denormal error rate")
    eq(c("BF.RESERVE", "loose", "0.999999", "10"), b"OK")
    r = c("BF.MADD", "loose", "a", "b")
    check(r[0] == 1 and r[1] in (0, 1), "an error rate near 1: %r" % r)
    eq(c("BF.MEXISTS", "loose", "a", "b"), [1, 1])
    alive(s, c)


@test
def binary_and_large_items(ctx):
    s = ctx.server()
    c = s.client(timeout=120)
    items = [bytes([i]) for i in range(256)] + [b"", b"\x00\x00", b"a\r\nb", b"\xff" * 100,
                                                   bytes(range(256)) * 4]
    for kind, add, check_cmd in (("bf", "BF.MADD", "BF.MEXISTS"), ("cf", "CF.INSERT", "CF.MEXISTS")):
        args = [add, kind] + (["ITEMS"] if kind == "cf" else []) + items
        r = c(*args)
        check(isinstance(r, list) and len(r) == len(items), "%s binary items: %r" % (kind, r))
        eq(c(check_cmd, kind, *items), [1] * len(items), kind + " binary items found")
    mb = [random.Random(i).randbytes(1 << 20) for i in range(4)]
    eq(c("BF.ADD", "big", mb[0]), 1)
    eq(c("BF.MADD", "big", *mb[1:]), [1, 1, 1])
    eq(c("BF.MEXISTS", "big", *mb), [1, 1, 1, 1])
    eq(c("CF.ADD", "cbig", mb[0]), 1)
    eq(c("CF.COUNT", "cbig", mb[0]), 1)
    eq(c("CF.DEL", "cbig", mb[0]), 1)
    huge = b"x" * (16 << 20)
    eq(c("BF.ADD", "big", huge), 1)
    eq(c("BF.EXISTS", "big", huge), 1)
    many = ["m%d" % i for i in range(100_000)]
    r = c("BF.MADD", "many", *many)
    eq(len(r), len(many), "one MADD of 1e5 items")
    eq(c("BF.MEXISTS", "many", *many), [1] * len(many))
    alive(s, c)


def bf_header(flags=0, expansion=2, layers=((100, 0, 128),), fpp=0.01, ratio=0.8, cap=None, seed=0,
              version=1):
    cap = layers[0][0] if cap is None else cap
    h = b"BFSC" + struct.pack("<BBH", version, flags, 0) + struct.pack("<II", expansion, len(layers))
    h += struct.pack("<ddQQ", fpp, ratio, cap, seed)
    for lc, cnt, nb in layers:
        h += struct.pack("<QQQ", lc, cnt, nb)
    return with_checksum(h)


def cf_header(filters=((64, 9, 0, 0, 0, 1),), expansion=1, kicks=20, fpp=0.01, cap=100, seed=0,
              deletes=0, version=2, bucket_size=2):
    h = b"CFCH" + struct.pack("<BBH", version, 0, 0)
    h += struct.pack("<IIII", expansion, kicks, len(filters), bucket_size)
    h += struct.pack("<dQQQ", fpp, cap, seed, deletes)
    for buckets, bits, vfp, count, vidx, rng in filters:
        h += struct.pack("<QIIQQQ", buckets, bits, vfp, count, vidx, rng)
    return with_checksum(h)


@test
def crafted_dump_headers(ctx):
    s = ctx.server()
    c = s.client()
    # Genuine headers as references: the crafted ones differ in one way.
    c("BF.RESERVE", "ref", "0.01", "100")
    ref = c("BF.SCANDUMP", "ref", 0)[1]
    nb = struct.unpack_from("<Q", ref, 48 + 16)[0]
    eq(bf_header(layers=((100, 0, nb),)), ref, "the test's header encoder matches the module's")
    eq(c("BF.LOADCHUNK", "ok", 1, bf_header(layers=((100, 0, nb),))), b"OK")
    bad_bf = [
        bf_header(version=2, layers=((100, 0, nb),)),
        bf_header(version=0, layers=((100, 0, nb),)),
        bf_header(flags=2, layers=((100, 0, nb),)),
        bf_header(layers=((100, 0, nb + 32),)),
        bf_header(layers=((100, 0, 2 ** 62),)),
        bf_header(layers=((100, 5, nb), (200, 0, nb * 2))),
        bf_header(layers=((2 ** 62, 0, nb),)),
        bf_header(fpp=1.5, layers=((100, 0, nb),)),
        bf_header(fpp=float("nan"), layers=((100, 0, nb),)),
        bf_header(ratio=0.0, layers=((100, 0, nb),)),
        bf_header(expansion=0, layers=((100, 0, nb),)),
        bf_header(expansion=2 ** 31, layers=((100, 0, nb),)),
        bf_header(flags=1, layers=((100, 100, nb), (200, 1, 2 * nb))),
        bf_header(layers=tuple((100 << min(i, 50), 100 << min(i, 50), nb) for i in range(70))),
        bf_header(layers=((100, 101, nb),)),
    ]
    for i, h in enumerate(bad_bf):
        err(c("BF.LOADCHUNK", "b%d" % i, 1, h), "ERR received bad data", "crafted BF header %d" % i)
        eq(c("EXISTS", "b%d" % i), 0)
    c("CF.RESERVE", "cref", "100")
    c("CF.ADD", "cref", "x")  # an empty filter's dump is (0, nil)
    cref = c("CF.SCANDUMP", "cref", 0)[1]
    buckets, bits, vfp, count, vidx, rng = struct.unpack_from("<QIIQQQ", cref, 56)
    cap = struct.unpack_from("<Q", cref, 32)[0]
    eq(cf_header(filters=((buckets, bits, vfp, count, vidx, rng),), cap=cap), cref,
       "the test's CF header encoder matches the module's")
    good = (buckets, bits, 0, 0, 0, rng)
    eq(c("CF.LOADCHUNK", "cok", 1, cf_header(filters=(good,), cap=cap)), b"OK")
    bad_cf = [
        cf_header(filters=((buckets, bits + 1, 0, 0, 0, rng),)),  # not the bits the target needs
        cf_header(filters=((buckets, bits - 1, 0, 0, 0, rng),)),  # weaker than the target
        cf_header(filters=((0, bits, 0, 0, 0, rng),)),
        cf_header(filters=((2 ** 44, bits, 0, 0, 0, rng),)),
        cf_header(filters=((2 ** 40, bits, 0, 0, 0, rng),) * 8),
        cf_header(filters=((buckets, bits, 5, 1, buckets, rng),)),
        cf_header(filters=((buckets, bits, 1 << bits, 1, 1, rng),)),
        cf_header(filters=((buckets, bits, 0, 0, 3, rng),)),
        cf_header(filters=((buckets, bits, 0, 10 ** 9, 0, rng),)),
        cf_header(filters=((buckets, bits, 0, 0, 0, 0),)),
        cf_header(filters=(good,), kicks=0),
        cf_header(filters=(good,), kicks=70000),
        cf_header(filters=(good,), fpp=0.0),
        cf_header(filters=(good,), cap=0),
        cf_header(filters=(good, good), expansion=0),
        cf_header(filters=(good,), expansion=40000),
        cf_header(filters=(good,), version=3),
        cf_header(filters=(good,), bucket_size=0),
        cf_header(filters=(good,), bucket_size=256),
        cf_header(filters=(good,), bucket_size=2 ** 32 - 1),
        # Version 1: buckets of 4 (0 at offset 20), 8, 12 or 16 bits only;
        # those sizes in version 2 only in buckets of 4.
        cf_header(filters=((buckets, 12, 0, 0, 0, rng),), version=1, bucket_size=4),
        cf_header(filters=((buckets, 9, 0, 0, 0, rng),), version=1, bucket_size=0),
        cf_header(filters=((buckets, 12, 0, 0, 0, rng),), version=2, bucket_size=2),
    ]
    for i, h in enumerate(bad_cf):
        r = c("CF.LOADCHUNK", "c%d" % i, 1, h)
        check(isinstance(r, Error) and str(r) in ("Couldn't create filter!", "Invalid header"),
              "crafted CF header %d: %r" % (i, r))
        eq(c("EXISTS", "c%d" % i), 0)
    rnd = random.Random(7)
    for i in range(300):
        blob = rnd.randbytes(rnd.choice([0, 1, 8, 55, 56, 64, 104, 200]))
        for cmd in ("BF.LOADCHUNK", "CF.LOADCHUNK"):
            r = c(cmd, "r", 1, blob)
            check(isinstance(r, Error), "random header accepted by %s" % cmd)
    alive(s, c)


@test
def random_loadchunk_calls(ctx):
    s = ctx.server()
    c = s.client()
    c("BF.RESERVE", "b", "0.01", "100")
    c("BF.MADD", "b", *["x%d" % i for i in range(3000)])
    c("CF.RESERVE", "f", "100", "EXPANSION", "2")
    c("CF.INSERT", "f", "ITEMS", *["x%d" % i for i in range(1000)])
    rnd = random.Random(11)
    known = {"OK", "ERR received bad data", "ERR invalid offset - no link found",
             "ERR invalid chunk - Too big for current filter", "Couldn't load chunk!", "Invalid position",
             "ERR item exists"}
    for i in range(2000):
        key = rnd.choice("bf")
        cmd = "BF.LOADCHUNK" if key == "b" else "CF.LOADCHUNK"
        it = rnd.choice([rnd.randint(-5, 5), rnd.randint(0, 20000), 2 ** 63 - 1, -2 ** 63])
        data = rnd.randbytes(rnd.choice([0, 1, 7, 64, 1000, 5000]))
        r = c(cmd, key, it, data)
        text = r.decode() if isinstance(r, bytes) else str(r)
        check(text in known, "%s %s %d: %r" % (cmd, key, it, r))
    for cmd in ("BF.SCANDUMP", "CF.SCANDUMP"):
        for it in (-2 ** 63, -1, 2 ** 63 - 1, 10 ** 9):
            r = c(cmd, "b" if cmd[0] == "B" else "f", it)
            check(isinstance(r, (list, Error)), "%s %d" % (cmd, it))
    eq(c("DEBUG", "RELOAD"), b"OK")
    alive(s, c)


@test
def chain_limits(ctx):
    s = ctx.server()
    c = s.client()
    eq(c("BF.RESERVE", "b", "0.01", "1", "EXPANSION", "1"), b"OK")
    added, last = [], None
    for i in range(200):
        last = c("BF.ADD", "b", "i%d" % i)
        if isinstance(last, Error):
            break
        if last == 1:
            added.append("i%d" % i)
    err(last, "ERR problem inserting into filter", "a chain at its layer limit")
    # The chain stops growing before a layer costs over 512 bits per item.
    layers = c("BF.INFO", "b", "FILTERS")[0]
    check(20 <= layers <= 64, "the chain stops growing: %d layers" % layers)
    size = c("BF.INFO", "b", "SIZE")[0]
    check(size < 64 * 1024, "and stays small: %d bytes" % size)
    eq(c("BF.MEXISTS", "b", *added), [1] * len(added))
    # The same cuckoo item again and again: copies fill sub-filters, then
    # the sub-filter limit stops it.
    replies = [c("CF.ADD", "c", "same") for _ in range(400)]
    check(isinstance(replies[-1], Error), "copies are bounded: %r" % replies[-1])
    # 4 copies per sub-filter (two buckets of 2, RedisBloom's default); the
    # 32nd sub-filter takes the copy that created it, then the limit is
    # reached.
    eq(c("CF.COUNT", "c", "same"), 31 * 4 + 1, "copies stored")
    alive(s, c)


@test
def bad_load_arguments(ctx):
    for args in (["ERROR_RATE", "2"], ["ERROR_RATE", "0"], ["INITIAL_SIZE", "0"], ["ERROR_RATE"],
                 ["BOGUS", "1"], ["CF_MAX_EXPANSIONS", "x"], ["SEED", "7"], ["CF_MAX_ITERATIONS", "0"]):
        srv = Server(ctx.module, name="badargs", module_args=args)
        srv.start(wait=False)
        try:
            srv.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            srv.kill()
            raise AssertionError("server started with module args %r" % args)
        check(srv.proc.returncode != 0, "module args %r refused" % args)
        log = srv.log_tail(50)
        check("Module" in log and ("failed" in log.lower() or "error" in log.lower()),
              "the log says why: %s" % log)
    # And the accepted ones take effect.
    s = ctx.server(module_args=["ERROR_RATE", "0.001", "INITIAL_SIZE", "500", "CF_INITIAL_SIZE", "5000",
                                "CF_EXPANSION", "0", "CF_MAX_ITERATIONS", "50", "BF_EXPANSION", "4"])
    c = s.client()
    c("BF.ADD", "b", "x")
    eq(c("BF.INFO", "b", "CAPACITY"), [500])
    eq(c("BF.INFO", "b", "EXPANSION"), [4])
    check(abs(float(c("BF.INFO", "b", "ERROR")[0]) - 0.001) < 1e-15, "ERROR_RATE")
    c("CF.ADD", "f", "x")
    i = c("CF.INFO", "f")
    eq((i[13], i[15]), (0, 50), "CF_EXPANSION, CF_MAX_ITERATIONS")
    check(i[3] * i[11] >= 5000 and i[11] == 2, "CF_INITIAL_SIZE, in buckets of 2")
    # CF_MAX_EXPANSIONS 1: RedisBloom's check (a filter with that many
    # sub-filters refuses adds) refuses even the first add, which must not
    # leave an empty key behind.
    s2 = ctx.server("maxexp1", module_args=["CF_MAX_EXPANSIONS", "1"])
    c2 = s2.client()
    err(c2("CF.ADD", "f", "x"), "Maximum expansions reached")
    eq(c2("EXISTS", "f"), 0, "no key left by a refused add")
