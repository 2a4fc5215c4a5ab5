"""Cuckoo filters of every shape RedisBloom allows: RedisBloom's defaults
(bucket size 2, 20 kick-outs, expansion 1) and the load-time options that
change them; BUCKETSIZE 1..255 honoured (CF.INFO, CF.DEBUG, the slots that
really hold items, the FPR target kept by the fingerprint size); every shape
through SCANDUMP/LOADCHUNK, DUMP/RESTORE, DEBUG RELOAD and replication; and
values written before bucket sizes existed (encoding version 1) still
loading."""

import struct
import time

import cf_v1_fixture
from harness import Error, Server, check, eq, err, test

SHAPES = (1, 2, 3, 4, 7, 16, 255)


def info(c, key):
    r = c("CF.INFO", key, "ALL")
    check(isinstance(r, list), "CF.INFO %s: %r" % (key, r))
    return {r[i].decode(): r[i + 1] for i in range(0, len(r), 2)}


def debug_line(c, key):
    i = info(c, key)
    return ("bktsize:%d buckets:%d items:%d deletes:%d filters:%d max_iterations:%d expansion:%d" % (
        i["Bucket size"], i["Number of buckets"], i["Number of items inserted"], i["Number of items deleted"],
        i["Number of filters"], i["Max iterations"], i["Expansion rate"])).encode()


def scandump(c, key):
    out, it = [], 0
    while True:
        it, data = c("CF.SCANDUMP", key, it)
        if it == 0:
            eq(data, None, "the dump ends with nil")
            return out
        out.append((it, data))


def header_bucket_size(chunks):
    """The bucket size a dump header (version 2) records, at offset 20."""
    h = chunks[0][1]
    eq((h[:4], h[4]), (b"CFCH", 2), "a version 2 header")
    return struct.unpack_from("<I", h, 20)[0]


def add_all(c, key, items):
    for i in range(0, len(items), 1000):
        r = c("CF.INSERT", key, "NOCREATE", "ITEMS", *items[i : i + 1000])
        check(r == [1] * len(r), "CF.INSERT %s: %r" % (key, r if isinstance(r, Error) else set(r)))


def all_present(c, key, items, what):
    for i in range(0, len(items), 1000):
        r = c("CF.MEXISTS", key, *items[i : i + 1000])
        eq(r, [1] * len(r), "%s: no false negative" % what)


@test
def cf_redisbloom_defaults(ctx):
    s = ctx.server()
    c = s.client()
    eq(c("CF.RESERVE", "r", "1000"), b"OK")
    eq(c("CF.ADD", "a", "x"), 1)
    eq(c("CF.INSERT", "i", "ITEMS", "x"), [1])
    for key, cap in (("r", 1000), ("a", 1024), ("i", 1024)):
        i = info(c, key)
        eq((i["Bucket size"], i["Max iterations"], i["Expansion rate"], i["Number of filters"]), (2, 20, 1, 1),
           "%s: RedisBloom's defaults" % key)
        # Sized for the load 20 kick-outs reach (about 0.55 at b = 2).
        check(cap <= i["Number of buckets"] * 2 < 2.5 * cap, "%s: %d buckets of 2 for %d" % (key, i["Number of buckets"], cap))
        eq(c("CF.DEBUG", key), debug_line(c, key))
        check(c("CF.DEBUG", key).startswith(b"bktsize:2 buckets:"), "CF.DEBUG of %s" % key)
    # RedisBloom's least capacity at its default bucket size: 2 * 2.
    err(c("CF.RESERVE", "k", "3"), "Capacity must be at least (BucketSize * 2)")
    err(c("CF.INSERT", "k", "CAPACITY", "3", "ITEMS", "x"), "Capacity must be at least (BucketSize * 2)")
    eq(c("CF.RESERVE", "k", "4"), b"OK")
    eq(c("CF.INSERT", "k2", "CAPACITY", "4", "ITEMS", "x"), [1])
    eq(info(c, "k2")["Bucket size"], 2)
    # The load-time options choose others, for every filter CF.ADD and
    # CF.INSERT create (CF.RESERVE still takes BUCKETSIZE).
    s2 = ctx.server("opts", module_args=["CF_BUCKET_SIZE", "8", "CF_MAX_ITERATIONS", "100", "CF_EXPANSION", "2",
                                         "CF_INITIAL_SIZE", "16"])
    c2 = s2.client()
    eq(c2("CF.ADD", "a", "x"), 1)
    i = info(c2, "a")
    eq((i["Bucket size"], i["Max iterations"], i["Expansion rate"]), (8, 100, 2))
    check(i["Number of buckets"] * 8 >= 16, "CF_INITIAL_SIZE 16: %r" % i)
    err(c2("CF.INSERT", "b", "CAPACITY", "15", "ITEMS", "x"), "Capacity must be at least (BucketSize * 2)")
    eq(c2("CF.INSERT", "b", "CAPACITY", "16", "ITEMS", "x"), [1])
    eq(c2("CF.RESERVE", "c", "100", "BUCKETSIZE", "3"), b"OK")
    eq(info(c2, "c")["Bucket size"], 3)
    eq(c2("CF.RESERVE", "d", "100"), b"OK")
    eq(info(c2, "d")["Bucket size"], 8)


@test
def cf_bad_bucket_options(ctx):
    s = ctx.server()
    c = s.client()
    for bad in ("0", "256", "-1", "33554432"):
        err(c("CF.RESERVE", "k", "1000", "BUCKETSIZE", bad),
            "BUCKETSIZE: value must be an integer between 1 and 255, inclusive.")
    err(c("CF.RESERVE", "k", "1000", "BUCKETSIZE", "2.5"), "Couldn't parse BUCKETSIZE")
    err(c("CF.RESERVE", "k", "509", "BUCKETSIZE", "255"), "Capacity must be at least (BucketSize * 2)")
    # An FPR target no fingerprint of up to 32 bits keeps at this bucket size.
    err(c("CF.RESERVE", "k", "1000", "BUCKETSIZE", "255", "ERROR", "1e-9"), "ERR error rate too low for this BUCKETSIZE")
    eq(c("EXISTS", "k"), 0, "no key after refusals")
    eq(c("CF.RESERVE", "k", "1000", "BUCKETSIZE", "2", "ERROR", "1e-9"), b"OK")
    for args in (["CF_BUCKET_SIZE", "0"], ["CF_BUCKET_SIZE", "256"], ["CF_BUCKET_SIZE", "x"],
                 ["CF_BUCKET_SIZE", "8", "CF_INITIAL_SIZE", "15"],
                 ["CF_BUCKET_SIZE", "255", "CF_ERROR_RATE", "1e-9"]):
        srv = Server(ctx.module, name="badargs", module_args=args)
        srv.start(wait=False)
        try:
            srv.proc.wait(timeout=20)
        except Exception:
            srv.kill()
            raise AssertionError("server started with module args %r" % args)
        check(srv.proc.returncode != 0, "module args %r refused" % args)
        check("CF_" in srv.log_tail(50), "the log names the option: %s" % srv.log_tail(10))


@test
def cf_bucket_sizes_honoured(ctx):
    """Each shape holds what its buckets hold: the chain's slots are buckets
    times BUCKETSIZE, no item is lost, and the FPR stays within the target
    however full a sub-filter gets."""
    s = ctx.server()
    c = s.client()
    for b in SHAPES:
        key = "b%d" % b
        cap = max(1000, 2 * b)
        eq(c("CF.RESERVE", key, cap, "BUCKETSIZE", b, "EXPANSION", "2"), b"OK")
        i = info(c, key)
        eq(i["Bucket size"], b, "CF.INFO of BUCKETSIZE %d" % b)
        check(i["Number of buckets"] * b >= cap, "b %d: %d buckets for %d" % (b, i["Number of buckets"], cap))
        # Until it has grown a second sub-filter (how far a sub-filter
        # fills depends on the bucket size).
        items = []
        while info(c, key)["Number of filters"] < 2 and len(items) < 40 * cap:
            more = ["%s:%d" % (key, j) for j in range(len(items), len(items) + cap)]
            add_all(c, key, more)
            items += more
        all_present(c, key, items, key)
        i = info(c, key)
        check(i["Number of filters"] >= 2, "b %d grew: %r" % (b, i))
        eq(c("CF.DEBUG", key), debug_line(c, key), "CF.DEBUG of b %d" % b)
        check(c("CF.DEBUG", key).startswith(b"bktsize:%d " % b), "bktsize %d" % b)
        check(0 < float(i["Load factor"]) <= 1, "load factor %r" % i["Load factor"])
        eq(header_bucket_size(scandump(c, key)), b, "the dump records bucket size %d" % b)
        # One sub-filter filled until it refuses: the FPR target holds.
        full = "full%d" % b
        eq(c("CF.RESERVE", full, "4000" if b < 255 else "10200", "BUCKETSIZE", b, "EXPANSION", "0",
             "MAXITERATIONS", "500"), b"OK")
        n = 0
        while True:
            r = c("CF.INSERT", full, "ITEMS", *["%s:%d" % (full, j) for j in range(n, n + 1000)])
            n += r.count(1)
            if -1 in r:
                break
        fi = info(c, full)
        load = float(fi["Load factor"])
        probes = 100000
        hits = 0
        for j in range(0, probes, 2000):
            hits += sum(c("CF.MEXISTS", full, *["absent:%d" % k for k in range(j, j + 2000)]))
        fpr = hits / probes
        check(fpr <= 0.01, "b %d: FPR %.5f at load %.3f (target 1 %%)" % (b, fpr, load))
        check(float(fi["Estimated FPR"]) <= 0.01, "b %d: estimated FPR %r" % (b, fi["Estimated FPR"]))
        ctx.figures["cf b=%d" % b] = "full at load %.3f, FPR %.4f %%" % (load, 100 * fpr)


@test
def cf_insert_growth_bounded(ctx):
    """One CF.INSERT of many copies of an item into a filter of one-slot
    buckets grows it only to CF_MAX_EXPANSIONS sub-filters; the copies past
    that answer -1 (RedisBloom checks the limit only as a command starts, so
    such a call builds up to 65535 sub-filters and scans them all for every
    item)."""
    s = ctx.server()
    c = s.client()
    eq(c("CF.RESERVE", "cf", "2", "BUCKETSIZE", "1", "EXPANSION", "1"), b"OK")
    t0 = time.time()
    r = c("CF.INSERT", "cf", "ITEMS", *["1 "] * 140000)
    took = time.time() - t0
    i = info(c, "cf")
    eq(i["Number of filters"], 32, "CF_MAX_EXPANSIONS sub-filters")
    eq(r.count(1), i["Number of items inserted"], "a 1 for every copy stored")
    eq(r.count(1) + r.count(-1), 140000, "-1 for the others")
    eq(c("CF.COUNT", "cf", "1 "), r.count(1))
    err(c("CF.ADD", "cf", "other"), "Maximum expansions reached")
    ctx.figures["140000 copies into bucket size 1"] = "%.2f s" % took


@test
def cf_reserve_limits_reported(ctx):
    """RedisBloom's own example: every limit at once, reported as given."""
    s = ctx.server()
    c = s.client()
    eq(c("CF.RESERVE", "cf", "67108864", "BUCKETSIZE", "255", "MAXITERATIONS", "65535", "EXPANSION", "32768"),
       b"OK")
    r = c("CF.INFO", "cf")
    i = {r[k].decode(): r[k + 1] for k in range(0, len(r), 2)}
    eq((i["Bucket size"], i["Expansion rate"], i["Max iterations"], i["Number of filters"]), (255, 32768, 65535, 1))
    check(i["Number of buckets"] * 255 >= 67108864, "buckets: %r" % i)
    eq(c("CF.ADD", "cf", "a"), 1)
    eq(c("CF.DEBUG", "cf"), ("bktsize:255 buckets:%d items:1 deletes:0 filters:1 max_iterations:65535 "
                             "expansion:32768" % i["Number of buckets"]).encode())
    eq(c("CF.EXISTS", "cf", "a"), 1)


@test
def cf_shapes_round_trip(ctx):
    """Every shape through SCANDUMP/LOADCHUNK, DUMP/RESTORE on another server,
    DEBUG RELOAD and a restart from the RDB: byte for byte the same value
    (DEBUG DIGEST-VALUE), the same CF.INFO and CF.DEBUG, every item present,
    and the same answers to later adds."""
    s = ctx.server()
    c = s.client()
    other = ctx.server("other")
    o = other.client()
    keys = {}
    for b in SHAPES:
        key = "s%d" % b
        eq(c("CF.RESERVE", key, 200 if b < 100 else 2 * b, "BUCKETSIZE", b, "EXPANSION", "2", "MAXITERATIONS", "30"),
           b"OK")
        items = ["%s:%d" % (key, j) for j in range(1500)]
        add_all(c, key, items)
        for j in range(0, 1500, 5):
            eq(c("CF.DEL", key, items[j]), 1)
        keys[key] = [x for j, x in enumerate(items) if j % 5]

    def state(cl, key):
        return cl("DEBUG", "DIGEST-VALUE", key), cl("CF.INFO", key, "ALL"), cl("CF.DEBUG", key)

    def answers(cl, key):
        # Every item ever added and as many never added. (A delete takes the
        # newest matching fingerprint, which across sub-filters can be
        # another item's: items kept may answer 0 after deletes, as in
        # RedisBloom; what must hold is that copies answer as the original.)
        its = ["%s:%d" % (key, j) for j in range(1500)] + ["%s:no%d" % (key, j) for j in range(1500)]
        return cl("CF.MEXISTS", key, *its)

    before = {k: state(c, k) for k in keys}
    said = {k: answers(c, k) for k in keys}
    for k in keys:
        check(sum(said[k][:1500]) >= len(keys[k]) * 0.98, "%s: items kept answer present" % k)
    for k in keys:
        chunks = scandump(c, k)
        for it, data in chunks:
            eq(c("CF.LOADCHUNK", k + ":copy", it, data), b"OK")
        eq(state(c, k + ":copy"), before[k], "SCANDUMP/LOADCHUNK of %s" % k)
        eq(o("RESTORE", k, 0, c("DUMP", k)), b"OK")
        eq(state(o, k), before[k], "DUMP/RESTORE of %s" % k)
        eq(answers(o, k), said[k], "answers after DUMP/RESTORE of %s" % k)
    eq(c("DEBUG", "RELOAD"), b"OK")
    for k in keys:
        eq(state(c, k), before[k], "DEBUG RELOAD of %s" % k)
    c.close()
    s.restart(save=True)
    c = s.client()
    for k in keys:
        eq(state(c, k), before[k], "restart of %s" % k)
        eq(answers(c, k), said[k], "answers after the restart of %s" % k)
        # The restored copies make the same choices on later adds.
        more = ["%s:more%d" % (k, j) for j in range(1000)]
        eq(c("CF.INSERT", k, "ITEMS", *more), c("CF.INSERT", k + ":copy", "ITEMS", *more))
        eq(c("DEBUG", "DIGEST-VALUE", k), c("DEBUG", "DIGEST-VALUE", k + ":copy"), "later adds on %s" % k)


@test
def cf_shapes_replicate(ctx):
    """A replica loaded with other CF defaults builds the master's shapes:
    creations replicate with their BUCKETSIZE."""
    master = ctx.server("master")
    replica = Server(ctx.module, name="replica",
                     module_args=["CF_BUCKET_SIZE", "5", "CF_MAX_ITERATIONS", "7", "CF_EXPANSION", "3"],
                     config={"replicaof": "127.0.0.1 %d" % master.port}).start()
    m, r = master.client(), replica.client()
    for _ in range(600):
        if r("INFO", "replication").find(b"master_link_status:up") >= 0:
            break
        time.sleep(0.05)
    m("CF.RESERVE", "r3", "100", "BUCKETSIZE", "3")
    m("CF.ADD", "auto", "x")
    m("CF.INSERT", "ins", "CAPACITY", "50", "ITEMS", *["i%d" % j for j in range(500)])
    m("CF.INSERT", "r3", "ITEMS", *["j%d" % j for j in range(500)])
    eq(m("WAIT", 1, 10000), 1)
    for k in ("r3", "auto", "ins"):
        eq(r("DEBUG", "DIGEST-VALUE", k), m("DEBUG", "DIGEST-VALUE", k), "replica's " + k)
        eq(r("CF.DEBUG", k), m("CF.DEBUG", k), "replica's CF.DEBUG of " + k)
    eq(info(r, "auto")["Bucket size"], 2, "the master's default, not the replica's")


@test
def cf_version1_values_load(ctx):
    """Values written before bucket sizes existed (RDB encoding version 1,
    dump header version 1: buckets of 4, 8/12/16-bit fingerprints) load by
    RESTORE and by LOADCHUNK, answer every item they held, report bucket
    size 4, keep growing, and are saved again as version 2."""
    s = ctx.server()
    c = s.client()
    for name, f in cf_v1_fixture.FILTERS.items():
        payload = bytes.fromhex(f["dump"])
        eq(c("RESTORE", name, 0, payload), b"OK", "RESTORE of version 1 " + name)
        for it, hexdata in f["scandump"]:
            eq(c("CF.LOADCHUNK", name + ":chunks", it, bytes.fromhex(hexdata)), b"OK")
        items = f["items"]
        for k in (name, name + ":chunks"):
            all_present(c, k, items, "version 1 " + k)
            eq(c("CF.DEBUG", k).decode(), f["debug"], "CF.DEBUG of version 1 " + k)
            eq(info(c, k)["Bucket size"], 4)
        eq(c("DEBUG", "DIGEST-VALUE", name), c("DEBUG", "DIGEST-VALUE", name + ":chunks"))
        eq(c("CF.COUNT", name, items[0]), 1)
        absent = sum(c("CF.MEXISTS", name, *["nope%d" % j for j in range(5000)]))
        check(absent < 5000 * 0.04 * f["filters"], "%s: %d false positives of 5000" % (name, absent))
        # New items, and a delete, on the old value.
        more = ["%s:new%d" % (name, j) for j in range(600)]
        add_all(c, name, more)
        eq(c("CF.DEL", name, items[1]), 1)
        all_present(c, name, items[2:] + more, "version 1 %s after adds" % name)
        eq(info(c, name)["Bucket size"], 4, "its sub-filters keep buckets of 4")
        # Saved again: the module writes version 2 (encoding and header).
        payload2 = c("DUMP", name)
        (mid,) = struct.unpack(">Q", payload2[2:10])
        eq(mid & 1023, 2, "encoding version 2")
        eq(c("RESTORE", name + ":v2", 0, payload2), b"OK")
        eq(c("DEBUG", "DIGEST-VALUE", name + ":v2"), c("DEBUG", "DIGEST-VALUE", name))
        eq(header_bucket_size(scandump(c, name)), 4)
    eq(c("DEBUG", "RELOAD"), b"OK")
    for name, f in cf_v1_fixture.FILTERS.items():
        all_present(c, name + ":chunks", f["items"], "reload of version 1 " + name)


def many_duplicates(c, key, distinct, adds, seed):
    """adds CF.ADDs (as CF.INSERT batches) over `distinct` items in random
    order, each item about adds / distinct times; every insert must succeed
    (the chain grows). Returns the items added (a few of `distinct` may
    never be drawn)."""
    import random

    rnd = random.Random(seed)
    items = ["dup:%d" % i for i in range(distinct)]
    seq = [items[rnd.randrange(distinct)] for _ in range(adds)]
    add_all(c, key, seq)
    return sorted(set(seq))


@test
def cf_many_duplicates_keep_subfilters_open(ctx):
    # RedisBloom's defaults (bucket size 2, 20 kicks, expansion 1). A failed
    # insert (the item's two buckets full of its own copies) rolls its kicks
    # back, so a sub-filter stays open for other items: the chain needs about
    # (most copies of one item) / (2 * bucket size) sub-filters, not one per
    # failed insert (with the victim slot, 32 sub-filters at 1-2% load).
    # --large: 10^6 items, 9.4 * 10^6 adds, capacity 16 * 10^6 (the report).
    s = ctx.server()
    c = s.client(timeout=600)
    distinct, adds, cap = (10**6, 9400000, 16000000) if ctx.large else (20000, 188000, 320000)
    eq(c("CF.RESERVE", "dups", cap), b"OK")
    items = many_duplicates(c, "dups", distinct, adds, 5)  # the items added at least once
    i = info(c, "dups")
    filters = i["Number of filters"]
    check(filters <= 10, "%d sub-filters for %d adds of %d items" % (filters, adds, distinct))
    eq(i["Number of items inserted"], adds)
    all_present(c, "dups", items, "many duplicates")
    # Every add of one item is stored: CF.COUNT sums its copies.
    eq(c("CF.COUNT", "dups", items[0]) >= 1, True)
    print("    %d adds of %d items, capacity %d: %d sub-filters, MEMORY USAGE %d bytes" % (
        adds, distinct, cap, filters, c("MEMORY", "USAGE", "dups")))
    # Reloaded, the sub-filters behave the same: still open, no growth for
    # new distinct items.
    eq(c("DEBUG", "RELOAD"), b"OK")
    add_all(c, "dups", ["fresh:%d" % j for j in range(2000)])
    eq(info(c, "dups")["Number of filters"], filters, "a reloaded chain keeps its sub-filters open")


@test
def cf_capacity_holds_n_distinct_items(ctx):
    # A filter reserved for n holds n distinct items in its first sub-filter
    # at RedisBloom's 20 kick-outs (sizing for the kick limit).
    s = ctx.server()
    c = s.client(timeout=600)
    for n, bs in ((100000, 2), (50000, 1), (50000, 4), (3000, 2)):
        key = "n%d:b%d" % (n, bs)
        eq(c("CF.RESERVE", key, n, "BUCKETSIZE", bs), b"OK")
        items = ["%s:%d" % (key, j) for j in range(n)]
        add_all(c, key, items)
        eq(info(c, key)["Number of filters"], 1, "%s: one sub-filter" % key)
        all_present(c, key, items, key)
