"""Every BF.* and CF.* command on a standalone server: replies, and the exact
error texts of RedisBloom 2.8 (read from its source); every failing call
leaves the key as it was (DEBUG DIGEST-VALUE before and after)."""

from harness import Error, check, eq, err, test

WRONGTYPE = "WRONGTYPE Operation against a key holding the wrong kind of value"


def arity(cmd):
    # Redis 7.0 writes the command's registered (lower-case) name.
    return "ERR wrong number of arguments for '%s' command" % cmd.lower()


def digest(c, key):
    return c("DEBUG", "DIGEST-VALUE", key)


def unchanged(c, key, reply, text, what):
    """Runs nothing: checks reply is error `text` and key kept its digest."""
    err(reply, text, what)


def fails_untouched(c, key, args, text):
    before = digest(c, key)
    r = c(*args)
    err(r, text, " ".join(str(a) for a in args))
    eq(digest(c, key), before, "digest of %s after %s" % (key, args[0]))


def info_map(reply):
    eq(type(reply), list, "BF.INFO reply")
    return {reply[i].decode(): reply[i + 1] for i in range(0, len(reply), 2)}


@test
def bf_reserve(ctx):
    s = ctx.server()
    c = s.client()
    c("SET", "str", "x")
    err(c("BF.RESERVE", "k"), arity("BF.RESERVE"))
    err(c("bf.reserve", "k", "0.01"), arity("bf.reserve"))
    err(c("BF.RESERVE", "k", "abc", "100"), "ERR bad error rate")
    for bad in ("0", "1", "-0.5", "1.5", "inf", "-inf"):
        err(c("BF.RESERVE", "k", bad, "100"), "ERR (0 < error rate range < 1) ", "error " + bad)
    err(c("BF.RESERVE", "k", "nan", "100"), "ERR bad error rate")
    err(c("BF.RESERVE", "k", "0.01", "abc"), "ERR bad capacity")
    err(c("BF.RESERVE", "k", "0.01", "1.5"), "ERR bad capacity")
    for bad in ("0", "-5"):
        err(c("BF.RESERVE", "k", "0.01", bad), "ERR (capacity should be larger than 0)")
    err(c("BF.RESERVE", "k", "0.01", "100", "EXPANSION"), "ERR no expansion")
    err(c("BF.RESERVE", "k", "0.01", "100", "EXPANSION", "x"), "ERR bad expansion")
    err(c("BF.RESERVE", "k", "0.01", "100", "EXPANSION", "0"), "ERR expansion should be greater or equal to 1")
    err(c("BF.RESERVE", "k", "0.01", "100", "NONSCALING", "EXPANSION", "2"), "Nonscaling filters cannot expand")
    err(c("BF.RESERVE", "k", "0.01", "100", "BOGUS"), "Unknown argument received")
    err(c("BF.RESERVE", "k", "0.01", "100", "SEED", "-1"), "ERR bad seed")
    for bad in ("0", "1", "x", "-0.5"):
        err(c("BF.RESERVE", "k", "0.01", "100", "RATIO", bad), "ERR bad ratio")
    eq(c("EXISTS", "k"), 0, "no key after failed reserves")
    eq(c("BF.RESERVE", "k", "0.01", "100"), b"OK")
    err(c("BF.RESERVE", "k", "0.01", "100"), "ERR item exists")
    err(c("BF.RESERVE", "str", "0.01", "100"), WRONGTYPE)
    eq(c("TYPE", "k"), b"BLKFLT-BF")
    i = info_map(c("BF.INFO", "k"))
    eq(i["Capacity"], 100, "capacity")
    eq(i["Number of filters"], 1, "filters")
    eq(i["Number of items inserted"], 0, "items")
    eq(i["Expansion rate"], 2, "expansion")
    eq(c("BF.RESERVE", "n", "0.001", "1000", "NONSCALING"), b"OK")
    eq(c("BF.INFO", "n", "EXPANSION"), [None], "non-scaling expansion")
    eq(c("BF.RESERVE", "x", "0.05", "50", "expansion", "4"), b"OK")
    eq(c("BF.INFO", "x", "EXPANSION"), [4])
    eq(c("BF.RESERVE", "s", "0.01", "100", "SEED", "12345"), b"OK")
    eq(c("BF.INFO", "s", "KEYED"), [1])
    eq(c("BF.INFO", "k", "KEYED"), [0])
    eq(c("BF.RESERVE", "r", "0.01", "100", "RATIO", "0.5"), b"OK")
    eq(c("BF.INFO", "r", "RATIO"), [b"0.5"])


@test
def bf_add_exists(ctx):
    s = ctx.server()
    c = s.client()
    c("SET", "str", "x")
    err(c("BF.ADD", "k"), arity("BF.ADD"))
    err(c("BF.ADD", "k", "a", "b"), arity("BF.ADD"))
    err(c("BF.ADD", "str", "a"), WRONGTYPE)
    eq(c("BF.ADD", "k", "a"), 1, "first add")
    eq(c("BF.ADD", "k", "a"), 0, "second add")
    eq(c("BF.EXISTS", "k", "a"), 1)
    eq(c("BF.EXISTS", "k", "b"), 0)
    eq(c("BF.EXISTS", "missing", "a"), 0)
    err(c("BF.EXISTS", "k"), arity("BF.EXISTS"))
    err(c("BF.EXISTS", "k", "a", "b"), arity("BF.EXISTS"))
    err(c("BF.EXISTS", "str", "a"), WRONGTYPE)
    # Defaults from the module: capacity 100, expansion 2, error 0.01.
    i = info_map(c("BF.INFO", "k"))
    eq((i["Capacity"], i["Number of items inserted"], i["Expansion rate"]), (100, 1, 2))
    err(c("BF.MADD", "k"), arity("BF.MADD"))
    err(c("BF.MADD", "str", "a"), WRONGTYPE)
    eq(c("BF.MADD", "k", "a", "b", "c", "b"), [0, 1, 1, 0], "madd")
    eq(c("BF.MEXISTS", "k", "a", "b", "z"), [1, 1, 0])
    eq(c("BF.MEXISTS", "missing", "a", "b"), [0, 0])
    err(c("BF.MEXISTS", "k"), arity("BF.MEXISTS"))
    err(c("BF.MEXISTS", "str", "a"), WRONGTYPE)
    eq(c("BF.CARD", "k"), 3)
    eq(c("BF.CARD", "missing"), 0)
    err(c("BF.CARD", "str"), WRONGTYPE)
    err(c("BF.CARD"), arity("BF.CARD"))
    # Growth: 1000 items through a capacity-100 filter, no false negative.
    items = ["item:%d" % i for i in range(1000)]
    c("BF.MADD", "k", *items)
    eq(c("BF.MEXISTS", "k", *items), [1] * 1000, "no false negative after growth")
    i = info_map(c("BF.INFO", "k"))
    check(i["Number of filters"] >= 4, "grew to several layers: %r" % i)
    check(i["Capacity"] >= 1000, "capacity after growth: %r" % i)
    check(990 <= i["Number of items inserted"] <= 1003, "items: %r" % i)


@test
def bf_nonscaling_full(ctx):
    s = ctx.server()
    c = s.client()
    eq(c("BF.RESERVE", "n", "0.001", "3", "NONSCALING"), b"OK")
    eq(c("BF.MADD", "n", "a", "b", "c"), [1, 1, 1])
    d = digest(c, "n")
    r = c("BF.MADD", "n", "a", "d", "e")
    eq(r[:1], [0], "present item")
    eq(r[1:], [Error("ERR non scaling filter is full")], "madd on a full filter stops at the error")
    err(c("BF.ADD", "n", "f"), "ERR non scaling filter is full")
    r = c("BF.INSERT", "n", "ITEMS", "g", "h")
    eq(r, [Error("ERR non scaling filter is full")], "insert on a full filter")
    eq(digest(c, "n"), d, "full filter unchanged")
    eq(c("BF.ADD", "n", "a"), 0, "present items still answer 0")
    eq(c("BF.CARD", "n"), 3)


@test
def bf_insert(ctx):
    s = ctx.server()
    c = s.client()
    c("SET", "str", "x")
    err(c("BF.INSERT", "k", "ITEMS"), arity("BF.INSERT"))
    err(c("BF.INSERT", "k", "a", "b"), "Unknown argument received")
    err(c("BF.INSERT", "k", "CAPACITY", "10", "ITEMS"), arity("BF.INSERT"))
    err(c("BF.INSERT", "k", "CAPACITY", "ITEMS", "a"), "Bad capacity")
    err(c("BF.INSERT", "k", "ERROR", "x", "ITEMS", "a"), "Bad error rate")
    err(c("BF.INSERT", "k", "EXPANSION", "x", "ITEMS", "a"), "Bad expansion")
    err(c("BF.INSERT", "k", "ERROR", "0", "ITEMS", "a"), "Bad argument received")
    err(c("BF.INSERT", "k", "ERROR", "1", "ITEMS", "a"), "Bad argument received")
    err(c("BF.INSERT", "k", "CAPACITY", "0", "ITEMS", "a"), "Bad argument received")
    err(c("BF.INSERT", "k", "EXPANSION", "0", "ITEMS", "a"), "Bad argument received")
    err(c("BF.INSERT", "k", "RATIO", "x", "ITEMS", "a"), "Bad ratio")
    err(c("BF.INSERT", "k", "RATIO", "1", "ITEMS", "a"), "Bad argument received")
    err(c("BF.INSERT", "k", "NOCREATE", "ITEMS", "a"), "ERR not found")
    err(c("BF.INSERT", "str", "ITEMS", "a"), WRONGTYPE)
    eq(c("EXISTS", "k"), 0, "no key after failed inserts")
    eq(c("BF.INSERT", "k", "CAPACITY", "1000", "ERROR", "0.001", "EXPANSION", "3", "ITEMS", "a", "b", "a"), [1, 1, 0])
    i = info_map(c("BF.INFO", "k"))
    eq((i["Capacity"], i["Expansion rate"], i["Number of items inserted"]), (1000, 3, 2))
    check(abs(float(c("BF.INFO", "k", "ERROR")[0]) - 0.001) < 1e-12, "error rate kept")
    eq(c("BF.INSERT", "k", "NOCREATE", "ITEMS", "c"), [1])
    eq(c("BF.INSERT", "ns", "NONSCALING", "CAPACITY", "2", "ITEMS", "a", "b", "c"),
       [1, 1, Error("ERR non scaling filter is full")])
    eq(c("BF.INFO", "ns", "EXPANSION"), [None])
    # Options after ITEMS are items.
    eq(c("BF.INSERT", "k2", "ITEMS", "CAPACITY", "5"), [1, 1])
    eq(c("BF.INFO", "k2", "CAPACITY"), [100])


@test
def bf_info(ctx):
    s = ctx.server()
    c = s.client()
    c("SET", "str", "x")
    err(c("BF.INFO", "missing"), "ERR not found")
    err(c("BF.INFO", "str"), WRONGTYPE)
    err(c("BF.INFO"), arity("BF.INFO"))
    c("BF.RESERVE", "k", "0.01", "1000")
    err(c("BF.INFO", "k", "a", "b"), arity("BF.INFO"))
    err(c("BF.INFO", "k", "bogus"), "Invalid information value")
    c("BF.MADD", "k", *["x%d" % i for i in range(500)])
    full = c("BF.INFO", "k")
    eq([full[i] for i in range(0, 10, 2)],
       [b"Capacity", b"Size", b"Number of filters", b"Number of items inserted", b"Expansion rate"])
    m = info_map(full)
    for f, name in (("CAPACITY", "Capacity"), ("size", "Size"), ("Filters", "Number of filters"),
                    ("ITEMS", "Number of items inserted"), ("EXPANSION", "Expansion rate")):
        eq(c("BF.INFO", "k", f), [m[name]], "BF.INFO k " + f)
    mu = c("MEMORY", "USAGE", "k")
    check(m["Size"] <= mu < m["Size"] + 256, "MEMORY USAGE %r = Size %r + the key's overhead" % (mu, m["Size"]))
    check(1000 * 10.5 / 8 < m["Size"] < 1000 * 10.5 / 8 + 1024, "size ~ bitset bytes: %r" % m["Size"])
    a = info_map(c("BF.INFO", "k", "ALL"))
    eq(len(a), 11, "ALL fields")
    eq(float(a["Tightening ratio"]), 0.8, "the module's default ratio")
    fill, fpr, bound = float(a["Fill ratio"]), float(a["Estimated FPR"]), float(a["FPR bound"])
    check(0.1 < fill < 0.6, "fill ratio %r" % fill)
    check(0 < fpr < bound <= 0.01, "estimated FPR %r, bound %r" % (fpr, bound))
    eq(float(c("BF.INFO", "k", "FPR")[0]), fpr)
    eq(float(c("BF.INFO", "k", "FILL")[0]), fill)


@test
def bf_scandump_loadchunk(ctx):
    s = ctx.server()
    c = s.client()
    c("SET", "str", "x")
    err(c("BF.SCANDUMP", "missing", "0"), "ERR not found")
    err(c("BF.SCANDUMP", "str", "0"), WRONGTYPE)
    err(c("BF.SCANDUMP", "k"), arity("BF.SCANDUMP"))
    c("BF.RESERVE", "k", "0.01", "100")
    c("BF.MADD", "k", *["v%d" % i for i in range(1000)])
    err(c("BF.SCANDUMP", "k", "abc"), "Second argument must be numeric")
    chunks = []
    it = 0
    while True:
        it, data = c("BF.SCANDUMP", "k", it)
        if it == 0:
            eq(data, b"", "end of dump")
            break
        chunks.append((it, data))
    check(len(chunks) >= 2, "header and data")
    eq(c("BF.SCANDUMP", "k", "-5"), [0, b""], "negative iterator")
    eq(c("BF.SCANDUMP", "k", 10 ** 12), [0, b""], "iterator past the end")
    err(c("BF.LOADCHUNK", "r", "1"), arity("BF.LOADCHUNK"))
    err(c("BF.LOADCHUNK", "r", "x", "y"), "ERR Second argument must be numeric")
    # Out of order: data before the header.
    err(c("BF.LOADCHUNK", "r", chunks[1][0], chunks[1][1]), "ERR not found")
    eq(c("EXISTS", "r"), 0)
    # Corrupt headers: nothing created.
    hdr = chunks[0][1]
    err(c("BF.LOADCHUNK", "r", 1, b"garbage"), "ERR received bad data")
    err(c("BF.LOADCHUNK", "r", 1, hdr[:-1]), "ERR received bad data")
    bad = bytearray(hdr)
    bad[20] ^= 1
    err(c("BF.LOADCHUNK", "r", 1, bytes(bad)), "ERR received bad data")
    err(c("BF.LOADCHUNK", "str", 1, hdr), WRONGTYPE)
    eq(c("EXISTS", "r"), 0)
    for it, data in chunks:
        eq(c("BF.LOADCHUNK", "r", it, data), b"OK")
    eq(digest(c, "r"), digest(c, "k"), "restored filter is byte for byte the same")
    eq(c("BF.MEXISTS", "r", "v0", "v999"), [1, 1])
    # Bad chunks on an existing filter: errors, nothing written.
    last_it, last = chunks[-1]
    fails_untouched(c, "r", ("BF.LOADCHUNK", "r", 1, hdr), "ERR received bad data")
    fails_untouched(c, "r", ("BF.LOADCHUNK", "r", 3, b"abcd"), "ERR received bad data")
    fails_untouched(c, "r", ("BF.LOADCHUNK", "r", 4, b"abcd"), "ERR invalid offset - no link found")
    fails_untouched(c, "r", ("BF.LOADCHUNK", "r", last_it + 1, last), "ERR invalid chunk - Too big for current filter")
    fails_untouched(c, "r", ("BF.LOADCHUNK", "r", 10 ** 15, b"x"), "ERR invalid offset - no link found")
    fails_untouched(c, "r", ("BF.LOADCHUNK", "r", 0, b""), "ERR received bad data")
    fails_untouched(c, "r", ("BF.LOADCHUNK", "r", -3, b""), "ERR received bad data")


@test
def cf_reserve(ctx):
    s = ctx.server()
    c = s.client()
    c("SET", "str", "x")
    err(c("CF.RESERVE", "k"), arity("CF.RESERVE"))
    err(c("CF.RESERVE", "k", "100", "BUCKETSIZE"), arity("CF.RESERVE"))
    err(c("CF.RESERVE", "k", "abc"), "Bad capacity")
    err(c("CF.RESERVE", "k", "100", "BUCKETSIZE", "x"), "Couldn't parse BUCKETSIZE")
    err(c("CF.RESERVE", "k", "100", "BUCKETSIZE", "0"), "BUCKETSIZE: value must be an integer between 1 and 255, inclusive.")
    err(c("CF.RESERVE", "k", "100", "BUCKETSIZE", "256"), "BUCKETSIZE: value must be an integer between 1 and 255, inclusive.")
    err(c("CF.RESERVE", "k", "100", "MAXITERATIONS", "x"), "Couldn't parse MAXITERATIONS")
    err(c("CF.RESERVE", "k", "100", "MAXITERATIONS", "0"), "MAXITERATIONS: value must be an integer between 1 and 65535, inclusive.")
    err(c("CF.RESERVE", "k", "100", "MAXITERATIONS", "65536"), "MAXITERATIONS: value must be an integer between 1 and 65535, inclusive.")
    err(c("CF.RESERVE", "k", "100", "EXPANSION", "x"), "Couldn't parse EXPANSION")
    err(c("CF.RESERVE", "k", "100", "EXPANSION", "-1"), "EXPANSION: value must be an integer between 0 and 32768, inclusive.")
    err(c("CF.RESERVE", "k", "100", "EXPANSION", "32769"), "EXPANSION: value must be an integer between 0 and 32768, inclusive.")
    err(c("CF.RESERVE", "k", "3"), "Capacity must be at least (BucketSize * 2)")
    err(c("CF.RESERVE", "k", "-10"), "Capacity must be at least (BucketSize * 2)")
    err(c("CF.RESERVE", "k", "100", "BUCKETSIZE", "60"), "Capacity must be at least (BucketSize * 2)")
    err(c("CF.RESERVE", "k", "100", "BOGUS", "1"), "Unknown argument received")
    err(c("CF.RESERVE", "k", "100", "ERROR", "1"), "ERR bad error rate")
    eq(c("EXISTS", "k"), 0)
    eq(c("CF.RESERVE", "k", "1000", "BUCKETSIZE", "2", "MAXITERATIONS", "20", "EXPANSION", "2"), b"OK")
    err(c("CF.RESERVE", "k", "1000"), "ERR item exists")
    err(c("CF.RESERVE", "str", "1000"), WRONGTYPE)
    eq(c("TYPE", "k"), b"BLKFLT-CF")
    i = info_map(c("CF.INFO", "k"))
    eq([k for k in i], ["Size", "Number of buckets", "Number of filters", "Number of items inserted",
                         "Number of items deleted", "Bucket size", "Expansion rate", "Max iterations"])
    eq((i["Number of filters"], i["Number of items inserted"], i["Bucket size"], i["Expansion rate"],
        i["Max iterations"]), (1, 0, 2, 2, 20))
    check(i["Number of buckets"] * 2 >= 1000, "buckets hold the capacity: %r" % i)


@test
def cf_add_count_del(ctx):
    s = ctx.server()
    c = s.client()
    c("SET", "str", "x")
    err(c("CF.ADD", "k"), arity("CF.ADD"))
    err(c("CF.ADDNX", "k", "a", "b"), arity("CF.ADDNX"))
    err(c("CF.ADD", "str", "a"), WRONGTYPE)
    eq(c("CF.ADD", "k", "a"), 1)
    eq(c("CF.ADD", "k", "a"), 1, "CF.ADD adds copies")
    eq(c("CF.COUNT", "k", "a"), 2)
    eq(c("CF.ADDNX", "k", "a"), 0)
    eq(c("CF.ADDNX", "k", "b"), 1)
    eq(c("CF.EXISTS", "k", "a"), 1)
    eq(c("CF.EXISTS", "k", "zz"), 0)
    eq(c("CF.EXISTS", "missing", "a"), 0)
    eq(c("CF.COUNT", "missing", "a"), 0)
    eq(c("CF.MEXISTS", "k", "a", "b", "zz"), [1, 1, 0])
    eq(c("CF.MEXISTS", "missing", "a"), [0])
    err(c("CF.EXISTS", "str", "a"), WRONGTYPE)
    err(c("CF.MEXISTS", "str", "a"), WRONGTYPE)
    err(c("CF.COUNT", "str", "a"), WRONGTYPE)
    err(c("CF.EXISTS", "k"), arity("CF.EXISTS"))
    err(c("CF.MEXISTS", "k"), arity("CF.MEXISTS"))
    err(c("CF.COUNT", "k", "a", "b"), arity("CF.COUNT"))
    err(c("CF.DEL", "k"), arity("CF.DEL"))
    err(c("CF.DEL", "missing", "a"), "Not found")
    err(c("CF.DEL", "str", "a"), WRONGTYPE)
    eq(c("CF.DEL", "k", "a"), 1)
    eq(c("CF.COUNT", "k", "a"), 1)
    eq(c("CF.DEL", "k", "a"), 1)
    eq(c("CF.DEL", "k", "a"), 0)
    eq(c("CF.EXISTS", "k", "a"), 0)
    i = info_map(c("CF.INFO", "k"))
    eq((i["Number of items inserted"], i["Number of items deleted"]), (1, 2))
    eq(i["Number of buckets"] * 2 >= 1024, True, "default capacity 1024, buckets of 2")
    err(c("CF.INFO", "missing"), "ERR not found")
    err(c("CF.INFO", "str"), WRONGTYPE)
    err(c("CF.INFO", "k", "bogus"), "Invalid information value")
    a = info_map(c("CF.INFO", "k", "ALL"))
    eq(len(a), 12)
    check(0 < float(a["Estimated FPR"]) < 0.01, "estimated FPR %r" % a)


@test
def cf_insert(ctx):
    s = ctx.server()
    c = s.client()
    c("SET", "str", "x")
    err(c("CF.INSERT", "k", "ITEMS"), arity("CF.INSERT"))
    err(c("CF.INSERT", "k", "CAPACITY"), arity("CF.INSERT"))
    err(c("CF.INSERT", "k", "CAPACITY", "x", "ITEMS", "a"), "Bad capacity")
    err(c("CF.INSERT", "k", "CAPACITY", "3", "ITEMS", "a"), "Capacity must be at least (BucketSize * 2)")
    err(c("CF.INSERT", "k", "BOGUS", "ITEMS", "a"), "Unknown argument received")
    err(c("CF.INSERT", "k", "NOCREATE", "ITEMS", "a"), "ERR not found")
    err(c("CF.INSERTNX", "str", "ITEMS", "a"), WRONGTYPE)
    eq(c("EXISTS", "k"), 0)
    eq(c("CF.INSERT", "k", "CAPACITY", "100", "ITEMS", "a", "b", "a"), [1, 1, 1])
    eq(c("CF.COUNT", "k", "a"), 2)
    eq(c("CF.INSERTNX", "k", "ITEMS", "a", "c", "c"), [0, 1, 0])
    eq(c("CF.INSERTNX", "k", "NOCREATE", "ITEMS", "d"), [1])
    i = info_map(c("CF.INFO", "k"))
    # Sized for the load 20 kick-outs reach in a table this small (about 0.4).
    check(100 <= i["Number of buckets"] * 2 < 300, "capacity 100, buckets of 2: %r" % i)


@test
def cf_expansion_and_limits(ctx):
    s = ctx.server(module_args=["CF_MAX_EXPANSIONS", "3"])
    c = s.client()
    # EXPANSION 0: a full filter refuses.
    eq(c("CF.RESERVE", "f", "8", "EXPANSION", "0"), b"OK")
    items = ["i%d" % i for i in range(200)]
    r = c("CF.INSERT", "f", "ITEMS", *items)
    check(-1 in r, "expansion 0 fills up: %r" % r)
    first_full = r.index(-1)
    d = digest(c, "f")
    err(c("CF.ADD", "f", "another"), "Filter is full")
    eq(digest(c, "f"), d, "full filter unchanged")
    eq(c("CF.MEXISTS", "f", *items[:first_full]), [1] * first_full, "stored items answer")
    # Growth: sub-filters are added; past CF_MAX_EXPANSIONS adds are refused.
    eq(c("CF.RESERVE", "g", "8", "EXPANSION", "1"), b"OK")
    added = []
    reply = None
    for i in range(400):
        reply = c("CF.ADD", "g", "item%d" % i)
        if isinstance(reply, Error):
            break
        added.append("item%d" % i)
    err(reply, "Maximum expansions reached")
    eq(info_map(c("CF.INFO", "g"))["Number of filters"], 3)
    eq(c("CF.MEXISTS", "g", *added), [1] * len(added), "no false negative across sub-filters")
    err(c("CF.INSERT", "g", "ITEMS", "x"), "Maximum expansions reached")
    # Deletes reach every sub-filter, newest first.
    for it in added:
        eq(c("CF.DEL", "g", it), 1, "delete " + it)
    eq(info_map(c("CF.INFO", "g"))["Number of items inserted"], 0)


@test
def cf_scandump_loadchunk(ctx):
    s = ctx.server()
    c = s.client()
    c("SET", "str", "x")
    err(c("CF.SCANDUMP", "k", "x"), "Invalid position")
    err(c("CF.SCANDUMP", "k", "-1"), "Invalid position")
    err(c("CF.SCANDUMP", "missing", "0"), "ERR not found")
    err(c("CF.SCANDUMP", "str", "0"), WRONGTYPE)
    c("CF.RESERVE", "k", "100", "EXPANSION", "2")
    for i in range(300):
        c("CF.ADD", "k", "v%d" % i)
    c("CF.DEL", "k", "v7")
    chunks = []
    it = 0
    while True:
        it, data = c("CF.SCANDUMP", "k", it)
        if it == 0:
            eq(data, None, "CF dump ends with nil")
            break
        chunks.append((it, data))
    check(len(chunks) >= 3, "several sub-filters: %d chunks" % len(chunks))
    err(c("CF.LOADCHUNK", "r", "x", "y"), "Invalid position")
    err(c("CF.LOADCHUNK", "r", "0", "y"), "Invalid position")
    err(c("CF.LOADCHUNK", "r", chunks[1][0], chunks[1][1]), "ERR not found")
    err(c("CF.LOADCHUNK", "r", 1, b"short"), "Invalid header")
    bad = bytearray(chunks[0][1])
    bad[30] ^= 4
    err(c("CF.LOADCHUNK", "r", 1, bytes(bad)), "Couldn't create filter!")
    err(c("CF.LOADCHUNK", "str", 1, chunks[0][1]), WRONGTYPE)
    eq(c("EXISTS", "r"), 0)
    for it, data in chunks:
        eq(c("CF.LOADCHUNK", "r", it, data), b"OK")
    err(c("CF.LOADCHUNK", "r", 1, chunks[0][1]), "ERR item exists")
    eq(digest(c, "r"), digest(c, "k"))
    eq(c("CF.EXISTS", "r", "v7"), c("CF.EXISTS", "k", "v7"))
    eq(c("CF.MEXISTS", "r", "v0", "v299"), [1, 1])
    last_it, last = chunks[-1]
    fails_untouched(c, "r", ("CF.LOADCHUNK", "r", last_it + 1, last), "Couldn't load chunk!")
    fails_untouched(c, "r", ("CF.LOADCHUNK", "r", 3, b"abcd"), "Couldn't load chunk!")
    fails_untouched(c, "r", ("CF.LOADCHUNK", "r", 5, b""), "Couldn't load chunk!")
    fails_untouched(c, "r", ("CF.LOADCHUNK", "r", 10 ** 15, b"x"), "Couldn't load chunk!")
    # A filter without items dumps as (0, nil) at once, as RedisBloom's:
    # reserved and never added to, or emptied by deletes.
    c("CF.RESERVE", "e", "64")
    for pos in (0, 1, 9):
        eq(c("CF.SCANDUMP", "e", pos), [0, None], "empty filter at %d" % pos)
    eq(c("CF.ADD", "e", "a"), 1)
    eq(c("CF.SCANDUMP", "e", 0)[0], 1)
    eq(c("CF.DEL", "e", "a"), 1)
    eq(c("CF.SCANDUMP", "e", 0), [0, None], "emptied by a delete")


@test
def debug_replies(ctx):
    s = ctx.server()
    c = s.client()
    c("SET", "str", "x")
    err(c("BF.DEBUG"), arity("BF.DEBUG"))
    err(c("BF.DEBUG", "missing"), "ERR not found")
    err(c("BF.DEBUG", "str"), WRONGTYPE)
    c("BF.RESERVE", "b", "0.01", "100", "EXPANSION", "2")
    c("BF.MADD", "b", *["i%d" % i for i in range(250)])
    info = info_map(c("BF.INFO", "b", "ALL"))
    lines = [x.decode() for x in c("BF.DEBUG", "b")]
    eq(len(lines), 1 + info["Number of filters"], "size line, then one per layer")
    eq(lines[0], "size:%d" % info["Number of items inserted"])
    total_bytes = total_cap = total_items = 0
    prev_ratio = 1.0
    for line in lines[1:]:
        f = dict(kv.split(":") for kv in line.split(" "))
        eq(list(f), ["bytes", "bits", "hashes", "hashwidth", "capacity", "size", "ratio"], line)
        eq(int(f["bits"]), 8 * int(f["bytes"]))
        eq((f["hashes"], f["hashwidth"]), ("8", "64"))
        check(float(f["ratio"]) < prev_ratio, "each layer tightens its target: %s" % line)
        prev_ratio = float(f["ratio"])
        total_bytes += int(f["bytes"])
        total_cap += int(f["capacity"])
        total_items += int(f["size"])
    eq(total_cap, info["Capacity"])
    eq(total_items, info["Number of items inserted"])
    check(total_bytes < info["Size"] < total_bytes + 4096, "layers' bytes %d, Size %d" % (total_bytes, info["Size"]))

    err(c("CF.DEBUG", "missing"), "ERR not found")
    err(c("CF.DEBUG", "str"), WRONGTYPE)
    c("CF.RESERVE", "c", "64", "EXPANSION", "2", "MAXITERATIONS", "40")
    c("CF.INSERT", "c", "ITEMS", *["v%d" % i for i in range(200)])
    c("CF.DEL", "c", "v3")
    ci = info_map(c("CF.INFO", "c"))
    eq(c("CF.DEBUG", "c"),
       ("bktsize:2 buckets:%d items:%d deletes:1 filters:%d max_iterations:40 expansion:2" % (
           ci["Number of buckets"], ci["Number of items inserted"], ci["Number of filters"])).encode())


@test
def cf_compact(ctx):
    s = ctx.server()
    c = s.client()
    c("SET", "str", "x")
    err(c("CF.COMPACT"), arity("CF.COMPACT"))
    err(c("CF.COMPACT", "missing"), "Cuckoo filter was not found")
    err(c("CF.COMPACT", "str"), WRONGTYPE)
    c("CF.RESERVE", "c", "16", "EXPANSION", "1")
    items = ["v%d" % i for i in range(200)]
    c("CF.INSERT", "c", "ITEMS", *items)
    grown = info_map(c("CF.INFO", "c"))["Number of filters"]
    check(grown >= 4, "grown to %d sub-filters" % grown)
    before = digest(c, "c")
    eq(c("CF.COMPACT", "c"), b"OK")
    eq(digest(c, "c"), before, "nothing to free while every sub-filter holds items")
    # Emptied by deletes: every sub-filter but the first is freed.
    eq(c("CF.MEXISTS", "c", *items), [1] * len(items))
    for it in items:
        eq(c("CF.DEL", "c", it), 1)
    eq(c("CF.COMPACT", "c"), b"OK")
    i = info_map(c("CF.INFO", "c"))
    eq((i["Number of filters"], i["Number of items inserted"]), (1, 0))
    # It grows again as before.
    c("CF.INSERT", "c", "ITEMS", *items)
    eq(info_map(c("CF.INFO", "c"))["Number of filters"], grown)
    eq(c("CF.MEXISTS", "c", *items), [1] * len(items))


@test
def resp3_replies(ctx):
    s = ctx.server()
    c = s.client()
    check(isinstance(c("HELLO", "3"), dict), "HELLO 3")
    eq(c("BF.ADD", "k", "a"), True)
    eq(c("BF.ADD", "k", "a"), False)
    eq(c("BF.EXISTS", "k", "a"), True)
    eq(c("BF.MEXISTS", "k", "a", "b"), [True, False])
    eq(c("BF.MADD", "k", "a", "c"), [False, True])
    i = c("BF.INFO", "k")
    eq(type(i), dict, "RESP3 BF.INFO is a map")
    eq(i[b"Capacity"], 100)
    eq(c("BF.INFO", "k", "ITEMS"), {b"Number of items inserted": 2})
    check(isinstance(c("BF.INFO", "k", "FPR")[b"Estimated FPR"], float), "double")
    eq(c("CF.ADD", "c", "a"), True)
    eq(c("CF.ADDNX", "c", "a"), False)
    eq(c("CF.INSERT", "c", "ITEMS", "b"), [True])
    eq(c("CF.INSERTNX", "c", "ITEMS", "b", "d"), [0, 1], "CF.INSERTNX answers integers")
    eq(c("CF.COUNT", "c", "a"), 1)
    eq(c("CF.EXISTS", "c", "a"), True)
    eq(c("CF.DEL", "c", "a"), True)
    eq(type(c("CF.INFO", "c")), dict)


@test
def redis_py_bloom_commands(ctx):
    """redis-py's own BF/CF command wrappers work unchanged."""
    import redis

    s = ctx.server()
    r = redis.Redis(port=s.port)
    bf = r.bf()
    check(bf.create("b", 0.01, 1000), "bf create")
    eq(bf.add("b", "x"), 1)
    eq(bf.madd("b", "y", "z"), [1, 1])
    eq(bf.exists("b", "x"), 1)
    eq(bf.mexists("b", "x", "q"), [1, 0])
    eq(bf.insert("b2", ["a", "b"], capacity=50, error=0.001, expansion=4), [1, 1])
    info = bf.info("b")
    eq((info.capacity, info.insertedNum, info.filterNum, info.expansionRate), (1000, 3, 1, 2))
    it, chunks = 0, []
    while True:
        it, data = bf.scandump("b", it)
        if it == 0:
            break
        chunks.append((it, data))
    for it, data in chunks:
        bf.loadchunk("b3", it, data)
    eq(bf.mexists("b3", "x", "y", "z"), [1, 1, 1])
    cf = r.cf()
    check(cf.create("c", 1000, expansion=2, bucket_size=4, max_iterations=50), "cf create")
    eq(cf.add("c", "x"), 1)
    eq(cf.addnx("c", "x"), 0)
    eq(cf.insert("c", ["y", "z"]), [1, 1])
    eq(cf.insertnx("c", ["y", "w"]), [0, 1])
    eq(cf.exists("c", "w"), 1)
    eq(cf.count("c", "x"), 1)
    eq(cf.delete("c", "x"), 1)
    ci = cf.info("c")
    eq((ci.insertedNum, ci.deletedNum, ci.bucketSize, ci.expansionRate, ci.maxIteration), (3, 1, 4, 2, 50))
    it, chunks = 0, []
    while True:
        it, data = cf.scandump("c", it)
        if it == 0:
            break
        chunks.append((it, data))
    for it, data in chunks:
        cf.loadchunk("c2", it, data)
    eq(cf.exists("c2", "w"), 1)
    with r.pipeline(transaction=True) as p:
        p.bf().add("t", "1")
        p.cf().add("u", "1")
        eq(p.execute(), [1, 1], "MULTI/EXEC")


@test
def command_flags_and_keys(ctx):
    s = ctx.server()
    c = s.client()
    for name, flags in (("bf.add", {b"write", b"denyoom"}), ("bf.exists", {b"readonly", b"fast"}),
                        ("cf.del", {b"write", b"fast"}), ("cf.count", {b"readonly", b"fast"}),
                        ("bf.loadchunk", {b"write", b"denyoom"}), ("bf.scandump", {b"readonly"})):
        info = c("COMMAND", "INFO", name)[0]
        eq(info[0], name.encode())
        check(flags <= set(info[2]), "%s flags %r" % (name, info[2]))
        eq(info[3:6], [1, 1, 1], name + " first/last/step key")
        spec = info[8][0]
        flag_words = set(spec[1])
        check((b"RO" in flag_words) == (b"readonly" in flags), "%s key spec %r" % (name, spec))
    eq(c("COMMAND", "GETKEYS", "BF.MADD", "key1", "a", "b"), [b"key1"])
    eq(c("COMMAND", "GETKEYS", "CF.INSERT", "key2", "ITEMS", "a"), [b"key2"])
    # ACL: a read-only key pattern allows queries and refuses writes.
    eq(c("ACL", "SETUSER", "ro", "on", "nopass", "+@all", "%R~*"), b"OK")
    c("BF.ADD", "k", "a")
    u = s.client()
    eq(u("AUTH", "ro", "x"), b"OK")
    eq(u("BF.EXISTS", "k", "a"), 1)
    r = u("BF.ADD", "k", "b")
    check(isinstance(r, Error) and str(r).startswith("NOPERM"), "read-only user cannot add: %r" % r)
