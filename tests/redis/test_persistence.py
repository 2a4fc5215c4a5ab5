"""The data type: RDB (DEBUG RELOAD, restart), AOF (incremental and
rewritten, with and without the RDB preamble), DUMP/RESTORE (and payloads
with a valid checksum but bad content), key-space commands, replication
(a replica holds byte-identical filters, across a full resync and another
SBBF kernel), and a SCANDUMP/LOADCHUNK round trip of a 100 MB filter."""

import os
import struct
import time

import checksums
from harness import Error, Server, check, eq, err, test


def populate(c, n=1):
    """Filters of every shape; returns {key: items added}."""
    items = {}

    def add(key, cmd, its, prefix=()):
        for i in range(0, len(its), 500):
            r = c(cmd, key, *prefix, *its[i : i + 500])
            check(not isinstance(r, Error), "%s %s: %r" % (cmd, key, r))
        items.setdefault(key, []).extend(its)

    c("BF.RESERVE", "bf:small", "0.01", "1000")
    add("bf:small", "BF.MADD", ["s%d" % i for i in range(50 * n)])
    c("BF.RESERVE", "bf:grown", "0.01", "100")
    add("bf:grown", "BF.MADD", ["g%d" % i for i in range(5000 * n)])
    c("BF.RESERVE", "bf:ns", "0.001", "2000", "NONSCALING")
    add("bf:ns", "BF.MADD", ["n%d" % i for i in range(700)])
    c("BF.RESERVE", "bf:seeded", "0.02", "300", "EXPANSION", "3", "RATIO", "0.5", "SEED", "987654321")
    add("bf:seeded", "BF.MADD", ["e%d" % i for i in range(2000 * n)])
    r = c("BF.INSERT", "bf:ins", "CAPACITY", "50", "ERROR", "0.1", "EXPANSION", "4", "RATIO", "0.9", "ITEMS",
          *["i%d" % i for i in range(400)])
    check(isinstance(r, list), "BF.INSERT: %r" % r)
    items["bf:ins"] = ["i%d" % i for i in range(400)]
    c("BF.ADD", "bf:auto", "one")
    items["bf:auto"] = ["one"]
    c("CF.RESERVE", "cf:grown", "64", "EXPANSION", "2", "MAXITERATIONS", "30")
    add("cf:grown", "CF.INSERT", ["c%d" % i for i in range(3000 * n)], ("ITEMS",))
    for i in range(0, 3000 * n, 7):
        c("CF.DEL", "cf:grown", "c%d" % i)
    items["cf:grown"] = ["c%d" % i for i in range(3000 * n) if i % 7]
    # A full table with its victim slot taken.
    c("CF.RESERVE", "cf:full", "16", "EXPANSION", "0", "MAXITERATIONS", "3")
    r = c("CF.INSERT", "cf:full", "ITEMS", *["f%d" % i for i in range(100)])
    items["cf:full"] = ["f%d" % i for i, x in enumerate(r) if x == 1]
    c("CF.ADD", "cf:auto", "x")
    c("CF.ADD", "cf:auto", "x")
    items["cf:auto"] = ["x"]
    c("CF.RESERVE", "cf:seeded", "500", "SEED", "42", "ERROR", "0.0001")
    add("cf:seeded", "CF.INSERT", ["d%d" % i for i in range(400)], ("ITEMS",))
    return items


def scandump(c, key):
    kind = c("TYPE", key)
    cmd = "BF.SCANDUMP" if kind == b"BLKFLT-BF" else "CF.SCANDUMP"
    out, it = [], 0
    while True:
        it, data = c(cmd, key, it)
        if it == 0:
            return out
        out.append((it, data))


def snapshot(c, keys):
    return {k: (c("DEBUG", "DIGEST-VALUE", k), scandump(c, k)) for k in keys}


def same(c, snap, what):
    now = snapshot(c, snap.keys())
    for k in snap:
        check(now[k][0] == snap[k][0] and now[k][1] == snap[k][1], "%s: %s differs" % (what, k))


def no_false_negative(c, items, what):
    for k, its in items.items():
        cmd = "BF.MEXISTS" if c("TYPE", k) == b"BLKFLT-BF" else "CF.MEXISTS"
        for i in range(0, len(its), 1000):
            r = c(cmd, k, *its[i : i + 1000])
            check(r == [1] * len(r), "%s: false negative in %s" % (what, k))


@test
def rdb_reload_and_restart(ctx):
    s = ctx.server()
    c = s.client()
    items = populate(c)
    snap = snapshot(c, items)
    eq(c("DEBUG", "RELOAD"), b"OK")
    same(c, snap, "DEBUG RELOAD")
    no_false_negative(c, items, "DEBUG RELOAD")
    c.close()
    s.restart(save=True)
    c = s.client()
    same(c, snap, "RDB restart")
    no_false_negative(c, items, "RDB restart")


def wait_rewrite(c):
    deadline = time.time() + 60
    while time.time() < deadline:
        info = c("INFO", "persistence").decode()
        if "aof_rewrite_in_progress:0" in info and "aof_rewrite_scheduled:0" in info:
            return
        time.sleep(0.05)
    raise AssertionError("AOF rewrite did not finish")


def aof_text(s):
    d = os.path.join(s.dir, "appendonlydir")
    data = b""
    for f in sorted(os.listdir(d)):
        with open(os.path.join(d, f), "rb") as fh:
            data += fh.read()
    return data


@test
def aof_restart_and_rewrite(ctx):
    for preamble in ("no", "yes"):
        s = ctx.server("aof-" + preamble, config={"appendonly": "yes", "appendfsync": "always",
                                                  "aof-use-rdb-preamble": preamble})
        c = s.client()
        items = populate(c)
        snap = snapshot(c, items)
        c.close()
        s.restart()
        c = s.client()
        same(c, snap, "AOF replay (preamble %s)" % preamble)
        eq(c("BGREWRITEAOF")[:10], b"Background", "rewrite started")
        wait_rewrite(c)
        if preamble == "no":
            text = aof_text(s)
            check(b"BF.LOADCHUNK" in text and b"CF.LOADCHUNK" in text,
                  "the rewritten AOF rebuilds filters with LOADCHUNK")
        c.close()
        s.restart()
        c = s.client()
        same(c, snap, "rewritten AOF (preamble %s)" % preamble)
        no_false_negative(c, items, "rewritten AOF")
        # Writes after the rewrite are appended and replayed too.
        c("BF.ADD", "bf:grown", "after-rewrite")
        c("CF.ADD", "cf:grown", "after-rewrite")
        snap2 = snapshot(c, items)
        c.close()
        s.restart()
        c = s.client()
        same(c, snap2, "AOF tail after a rewrite")
        s.stop()


def module_payload_parts(payload):
    """The header string of a module value in a DUMP payload: (offset, len)."""
    i = payload.find(b"BFSC")
    if i < 0:
        i = payload.find(b"CFCH")
    check(i > 0, "header in the payload")
    return i


@test
def dump_restore(ctx):
    s = ctx.server()
    c = s.client()
    items = populate(c)
    other = ctx.server("other")
    o = other.client()
    for k in items:
        payload = c("DUMP", k)
        eq(c("RESTORE", k + ":copy", 0, payload), b"OK")
        eq(c("DEBUG", "DIGEST-VALUE", k + ":copy"), c("DEBUG", "DIGEST-VALUE", k), "RESTORE " + k)
        eq(o("RESTORE", k, 0, payload), b"OK")
        eq(o("DEBUG", "DIGEST-VALUE", k), c("DEBUG", "DIGEST-VALUE", k), "RESTORE on another server " + k)
    no_false_negative(o, items, "RESTORE on another server")

    for k in ("bf:grown", "cf:grown"):
        payload = c("DUMP", k)
        # A bad checksum: Redis itself refuses.
        bad = bytearray(payload)
        bad[-1] ^= 1
        err(c("RESTORE", "x", 0, bytes(bad)), "ERR DUMP payload version or checksum are wrong")
        # A future encoding version of the type (the low 10 bits of the
        # module id after the type byte and the 0x81 length prefix).
        eq(payload[0], 7, "RDB_TYPE_MODULE_2")
        eq(payload[1], 0x81, "64-bit module id")
        (mid,) = struct.unpack(">Q", payload[2:10])
        encver = 1 if k.startswith("bf") else 2  # CF: 2 since the bucket size is stored
        eq(mid & 1023, encver, "encoding version %d" % encver)
        future = payload[:2] + struct.pack(">Q", mid + 1) + payload[10:]
        err(c("RESTORE", "x", 0, checksums.dump_fix_crc(future)), "ERR Bad data format")
        # A header whose own checksum fails, a truncated value.
        h = module_payload_parts(payload)
        bad = bytearray(payload)
        bad[h + 9] ^= 0x10
        err(c("RESTORE", "x", 0, checksums.dump_fix_crc(bytes(bad))), "ERR Bad data format")
        short = payload[: len(payload) // 2] + payload[-10:]
        r = c("RESTORE", "x", 0, checksums.dump_fix_crc(short))
        check(isinstance(r, Error), "truncated payload refused: %r" % r)
        eq(c("EXISTS", "x"), 0)
    eq(c("PING"), b"PONG")
    log = open(s.log, "rb").read()
    check(b"BF value of encoding version 2" in log and b"CF value of encoding version 3" in log,
          "the refusals are logged")


@test
def keyspace_commands(ctx):
    s = ctx.server()
    c = s.client()
    items = populate(c)
    eq(c("TYPE", "bf:grown"), b"BLKFLT-BF")
    eq(c("TYPE", "cf:grown"), b"BLKFLT-CF")
    eq(sorted(c("SCAN", 0, "COUNT", 1000, "TYPE", "BLKFLT-CF")[1]),
       sorted(k.encode() for k in items if k.startswith("cf:")))
    d = c("DEBUG", "DIGEST-VALUE", "bf:grown")
    eq(c("RENAME", "bf:grown", "bf:renamed"), b"OK")
    eq(c("DEBUG", "DIGEST-VALUE", "bf:renamed"), d)
    eq(c("BF.EXISTS", "bf:renamed", "g17"), 1)
    eq(c("BF.EXISTS", "bf:grown", "g17"), 0)
    # COPY: an independent copy.
    eq(c("COPY", "cf:grown", "cf:copy"), 1)
    eq(c("DEBUG", "DIGEST-VALUE", "cf:copy"), c("DEBUG", "DIGEST-VALUE", "cf:grown"))
    c("CF.ADD", "cf:grown", "only-in-source")
    check(c("DEBUG", "DIGEST-VALUE", "cf:copy") != c("DEBUG", "DIGEST-VALUE", "cf:grown"), "copy is independent")
    eq(c("CF.COUNT", "cf:copy", "only-in-source"), 0)
    eq(c("COPY", "bf:small", "bf:copy"), 1)
    eq(c("BF.MEXISTS", "bf:copy", "s1", "s2"), [1, 1])
    # Expiry.
    eq(c("PEXPIRE", "bf:small", 150), 1)
    check(0 < c("PTTL", "bf:small") <= 150, "TTL set")
    eq(c("PERSIST", "bf:copy"), 0)
    time.sleep(0.4)
    eq(c("EXISTS", "bf:small"), 0, "expired")
    eq(c("BF.EXISTS", "bf:small", "s1"), 0)
    eq(c("EXPIRE", "cf:auto", 100), 1)
    eq(c("DEBUG", "RELOAD"), b"OK")
    check(c("TTL", "cf:auto") > 90, "TTL survives a reload")
    # DEL, UNLINK, MOVE, SWAPDB.
    eq(c("DEL", "bf:renamed", "cf:copy"), 2)
    eq(c("UNLINK", "bf:copy"), 1)
    eq(c("MOVE", "cf:seeded", 1), 1)
    eq(c("SELECT", 1), b"OK")
    eq(c("CF.EXISTS", "cf:seeded", "d5"), 1)
    eq(c("SELECT", 0), b"OK")
    # MEMORY USAGE follows the bitset bytes.
    c("BF.RESERVE", "mem", "0.01", "1000000", "NONSCALING")
    mu = c("MEMORY", "USAGE", "mem")
    size = c("BF.INFO", "mem", "SIZE")[0]
    check(size <= mu < size + 256, "MEMORY USAGE %r vs BF.INFO SIZE %r" % (mu, size))
    check(1000000 * 10.0 / 8 < size < 1000000 * 11.0 / 8, "1e6 keys at 1%%: %r bytes" % size)
    eq(c("FLUSHALL"), b"OK")
    eq(c("DBSIZE"), 0)


def wait_link(replica, timeout=30):
    c = replica.client()
    deadline = time.time() + timeout
    while time.time() < deadline:
        if b"master_link_status:up" in c("INFO", "replication"):
            c.close()
            return
        time.sleep(0.05)
    raise AssertionError("replica did not sync:\n" + replica.log_tail())


def compare_replica(m, r, keys, what):
    eq(m("WAIT", 1, 10000), 1, "%s: replica acknowledged" % what)
    eq(r("DEBUG", "DIGEST"), m("DEBUG", "DIGEST"), "%s: dataset digest" % what)
    for k in keys:
        eq(scandump(r, k), scandump(m, k), "%s: SCANDUMP of %s" % (what, k))


@test
def replication_byte_identical(ctx):
    """Master and replica load the module with SEED RANDOM (their own random
    seeds) and the replica forces the scalar SBBF kernel: the filters must
    still be byte for byte the same, because creations replicate with their
    seed and every kernel writes the same bits."""
    master = ctx.server("master", module_args=["SEED", "RANDOM"])
    replica = Server(ctx.module, name="replica",
                     module_args=["SEED", "RANDOM", "ERROR_RATE", "0.2", "CF_BUCKET_SIZE", "4",
                                  "CF_MAX_ITERATIONS", "100"],
                     config={"replicaof": "127.0.0.1 %d" % master.port},
                     env={"BLOCKFILTER_KERNEL": "scalar"}).start()
    wait_link(replica)
    m, r = master.client(), replica.client()
    items = populate(m)
    # Transactions and scripts replicate too.
    m("MULTI")
    m("BF.ADD", "bf:tx", "a")
    m("CF.ADD", "cf:tx", "a")
    m("BF.MADD", "bf:tx", "b", "c")
    eq(m("EXEC"), [1, 1, [1, 1]])
    eq(m("EVAL", "return redis.call('BF.ADD', KEYS[1], ARGV[1])", 1, "bf:lua", "x"), 1)
    eq(m("EVAL", "return redis.call('CF.INSERT', KEYS[1], 'ITEMS', ARGV[1])", 1, "cf:lua", "y"), [1])
    keys = list(items) + ["bf:tx", "cf:tx", "bf:lua", "cf:lua"]
    eq(m("BF.INFO", "bf:auto", "KEYED"), [1], "random seed in use")
    compare_replica(m, r, keys, "streamed")
    err(r("BF.ADD", "bf:auto", "x"), "READONLY You can't write against a read only replica.")
    eq(r("BF.EXISTS", "bf:grown", "g10"), 1, "reads on the replica")
    # A full resync (RDB), then more writes that kick cuckoo entries around:
    # the replica must make the same choices as its master.
    r.close()
    replica.restart()
    wait_link(replica)
    r = replica.client()
    compare_replica(m, r, keys, "after full resync")
    m("CF.INSERT", "cf:grown", "ITEMS", *["z%d" % i for i in range(3000)])
    for i in range(0, 3000, 3):
        m("CF.DEL", "cf:grown", "z%d" % i)
    m("BF.MADD", "bf:grown", *["z%d" % i for i in range(3000)])
    m("CF.INSERT", "cf:full", "ITEMS", "p", "q")
    compare_replica(m, r, keys, "writes after the resync")
    ctx.figures["replication"] = "%d keys byte-identical on master and replica (scalar kernel)" % len(keys)


@test
def scandump_100mb(ctx):
    s = ctx.server()
    c = s.client(timeout=300)
    cap = 55_000_000  # 1 %, default ratio 0.8: about 100 MB of bitset
    eq(c("BF.RESERVE", "big", "0.01", cap), b"OK")
    size = c("BF.INFO", "big", "SIZE")[0]
    check(size >= 100_000_000, "a 100 MB filter: %d bytes" % size)
    items = ["big%d" % i for i in range(200_000)]
    c.pipeline([["BF.MADD", "big"] + items[i : i + 1000] for i in range(0, len(items), 1000)])
    t0 = time.time()
    chunks = scandump(c, "big")
    t_dump = time.time() - t0
    check(size - 1024 < sum(len(d) for _, d in chunks[1:]) <= size, "the chunks carry the bitset")
    check(len(chunks) >= 7, "16 MiB chunks: %d" % len(chunks))
    t0 = time.time()
    for it, data in chunks:
        eq(c("BF.LOADCHUNK", "copy", it, data), b"OK")
    t_load = time.time() - t0
    eq(c("DEBUG", "DIGEST-VALUE", "copy"), c("DEBUG", "DIGEST-VALUE", "big"), "100 MB round trip")
    r = c.pipeline([["BF.MEXISTS", "copy"] + items[i : i + 1000] for i in range(0, len(items), 1000)])
    check(all(x == [1] * 1000 for x in r), "no false negative after the round trip")
    ctx.figures["scandump_100mb"] = "%d bytes in %d chunks: SCANDUMP %.2f s, LOADCHUNK %.2f s" % (
        size, len(chunks), t_dump, t_load)
    if ctx.large:
        eq(c("CF.RESERVE", "cbig", 60_000_000), b"OK")
        c.pipeline([["CF.INSERT", "cbig", "ITEMS"] + items[i : i + 1000] for i in range(0, len(items), 1000)])
        for it, data in scandump(c, "cbig"):
            eq(c("CF.LOADCHUNK", "ccopy", it, data), b"OK")
        eq(c("DEBUG", "DIGEST-VALUE", "ccopy"), c("DEBUG", "DIGEST-VALUE", "cbig"), "large CF round trip")
