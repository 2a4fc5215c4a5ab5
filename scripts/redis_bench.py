#!/usr/bin/python3
"""Measures the Redis module on one redis-server (run by scripts/redis-bench.sh).

Throughput: redis-benchmark (50 clients, random items over a 10^6 keyspace)
runs every command at pipeline 1 and 64, beside plain SET/EXISTS (MSET and
EXISTS of 100 keys for the 100-item calls) on the same server; the runs are
interleaved, repeated, and reported as medians and as ratios to their
plain-Redis counterpart.

Memory: MEMORY USAGE per item after 10^6 and 10^7 items at 1 % and 0.1 %,
for a filter reserved at that capacity (scaling, and NONSCALING), and one
grown from capacity 100; beside the library's own figures for the same
parameters (an SBBF sized for n at that rate, and the scalable chain after
the same adds, through ctypes), and the FPR measured on 200000 absent items.
Cuckoo filters the same way at the module's defaults (CF.RESERVE n, and
capacity 1024 grown with EXPANSION 2).

With --peer M2 (RedisBloom's module, built elsewhere) a second server runs
every throughput command and the memory rows its syntax allows, in the same
interleaved repetitions, so the two modules are compared in one run.

  scripts/redis_bench.py --module M --lib libblockfilter.so --out PREFIX
                         [--reps 5] [--quick] [--sizes N,...]
                         [--peer M2 --peer-name NAME]
writes PREFIX.json and PREFIX.md."""

import argparse
import array
import ctypes
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "redis"))
import harness  # noqa: E402

R = "key:__rand_int__"
SINGLE = [  # (name, command, plain-Redis baseline)
    ("SET", ["SET", R, "v"], None),
    ("EXISTS", ["EXISTS", R], None),
    # EXISTS of one key: the bare cost of a command that looks up a key (the
    # module commands too look up one key, then work in its value).
    ("EXISTS 1 key", ["EXISTS", "bf"], None),
    ("BF.ADD", ["BF.ADD", "bf", R], "SET"),
    ("BF.EXISTS", ["BF.EXISTS", "bf", R], "EXISTS"),
    ("CF.ADD", ["CF.ADD", "cf", R], "SET"),
    ("CF.EXISTS", ["CF.EXISTS", "cf", R], "EXISTS"),
]
BATCH = [  # 100 items per call
    ("MSET x100", ["MSET"] + [R, "v"] * 100, None),
    ("EXISTS x100", ["EXISTS"] + [R] * 100, None),
    ("BF.MADD x100", ["BF.MADD", "bf"] + [R] * 100, "MSET x100"),
    ("BF.MEXISTS x100", ["BF.MEXISTS", "bf"] + [R] * 100, "EXISTS x100"),
    ("CF.INSERT x100", ["CF.INSERT", "cf", "ITEMS"] + [R] * 100, "MSET x100"),
    ("CF.MEXISTS x100", ["CF.MEXISTS", "cf"] + [R] * 100, "EXISTS x100"),
]


def server_cpu_seconds(pid):
    """User + system CPU time the server has used (from /proc)."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def benchmark(server, cmd, pipeline, n):
    """(calls/s as the client saw them, server CPU microseconds per call)."""
    port = server.port
    cpu0 = server_cpu_seconds(server.proc.pid)
    out = subprocess.run(["redis-benchmark", "-p", str(port), "-c", "50", "-n", str(n), "-P", str(pipeline),
                          "-r", "1000000", "--csv"] + cmd, capture_output=True, text=True, timeout=600,
                         stdin=subprocess.DEVNULL)
    line = [x for x in out.stdout.splitlines() if x.startswith('"') and not x.startswith('"test"')]
    if out.returncode != 0 or not line:
        raise RuntimeError("redis-benchmark failed: %s %s" % (out.stdout[-500:], out.stderr[-500:]))
    cpu = server_cpu_seconds(server.proc.pid) - cpu0
    return float(line[-1].split(",")[1].strip('"')), cpu / n * 1e6


def throughput(servers, reps, quick):
    """servers: [(label, server)], ours first; each runs the whole plan, the
    runs interleaved (server by server within each command)."""
    for label, server in servers:
        c = server.client()
        c("FLUSHALL")
        # Sized so that no run makes them grow: the measured path is the steady one.
        c("BF.RESERVE", "bf", "0.01", "2000000")
        c("CF.RESERVE", "cf", "16000000")
    runs, cpu, subs = {}, {}, {}
    plan = []
    for name, cmd, base in SINGLE:
        for p in (1, 64):
            plan.append((name, cmd, base, p, 1, (20000 if quick else 50000) * (16 if p > 1 else 1)))
    for name, cmd, base in BATCH:
        for p in (1, 64):
            plan.append((name, cmd, base, p, 100, (2000 if quick else 5000) * (4 if p > 1 else 1)))
    for rep in range(reps):
        for name, cmd, base, p, items, n in plan:
            for label, server in servers:
                if cmd[0] in ("CF.ADD", "CF.INSERT"):
                    # Every add run starts from the same empty filter: CF.ADD
                    # stores a copy per call, and the runs' repeats (random
                    # items of 10^6, millions of adds) would otherwise pile
                    # copies up until the chain reaches its sub-filter limit.
                    c = server.client()
                    c("DEL", "cf")
                    c("CF.RESERVE", "cf", "16000000")
                rps, us = benchmark(server, cmd, p, n)
                if cmd[0].startswith("CF."):
                    filters = server.client()("CF.INFO", "cf")[5]
                    subs.setdefault((label, name, p), []).append(filters)
                runs.setdefault((label, name, p), []).append(rps)
                cpu.setdefault((label, name, p), []).append(us)
                print("  rep %d  %-10s %-16s P%-3d %12.0f calls/s %8.2f server CPU us/call"
                      % (rep + 1, label, name, p, rps, us), flush=True)
    rows = []
    for label, _ in servers:
        rows += throughput_rows(label, servers[0][0], plan, runs, cpu)
    for r in rows:
        r["cf_sub_filters_after_each_run"] = subs.get((r["server"], r["test"], r["pipeline"]))
    return rows


def throughput_rows(label, ours, plan, runs, cpu):
    med = {k[1:]: statistics.median(v) for k, v in runs.items() if k[0] == label}
    med_cpu = {k[1:]: statistics.median(v) for k, v in cpu.items() if k[0] == label}
    rows = []
    for name, cmd, base, p, items, n in plan:
        m, u = med[(name, p)], med_cpu[(name, p)]
        ours_m = statistics.median(runs[(ours, name, p)])
        rows.append({
            "server": label, "ratio_to_ours": m / ours_m if label != ours else None,
            "test": name, "pipeline": p, "items_per_call": items, "requests_per_run": n,
            "runs_calls_per_s": runs[(label, name, p)], "median_calls_per_s": m, "median_items_per_s": m * items,
            "runs_server_cpu_us_per_call": cpu[(label, name, p)], "median_server_cpu_us_per_call": u,
            "server_items_per_cpu_second": items * 1e6 / u if u > 0 else None,
            "baseline": base, "ratio_to_baseline": (m / med[(base, p)]) if base else None,
            "cpu_ratio_to_baseline": (med_cpu[(base, p)] / u) if base and u > 0 else None,
            "ratio_to_exists_1_key": (m / med[("EXISTS 1 key", p)]) if items == 1 and base else None,
            "cpu_ratio_to_exists_1_key": (med_cpu[("EXISTS 1 key", p)] / u) if items == 1 and base and u > 0 else None,
            "command": " ".join(cmd[:4]) + (" ..." if len(cmd) > 4 else ""),
        })
    return rows


class Lib:
    """The library's own sizes, for comparison (ctypes on the shared library)."""

    def __init__(self, path):
        self.l = ctypes.CDLL(path)
        self.l.bf_sbbf_compact_bytes.argtypes = [ctypes.c_uint64, ctypes.c_double, ctypes.POINTER(ctypes.c_size_t)]

        class Params(ctypes.Structure):
            _fields_ = [("capacity", ctypes.c_uint64), ("fpp", ctypes.c_double), ("expansion", ctypes.c_uint),
                        ("ratio", ctypes.c_double), ("flags", ctypes.c_uint)]

        class Info(ctypes.Structure):
            _fields_ = [("capacity", ctypes.c_uint64), ("count", ctypes.c_uint64), ("num_bytes", ctypes.c_uint64),
                        ("num_layers", ctypes.c_size_t), ("expansion", ctypes.c_uint), ("fpp", ctypes.c_double),
                        ("ratio", ctypes.c_double), ("flags", ctypes.c_uint), ("fill_ratio", ctypes.c_double),
                        ("est_fpp", ctypes.c_double), ("bound_fpp", ctypes.c_double)]

        self.Params, self.Info = Params, Info
        self.l.bf_scalable_new.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(Params)]
        self.l.bf_scalable_insert_hashes.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p,
                                                  ctypes.c_void_p]
        self.l.bf_scalable_get_stats.argtypes = [ctypes.c_void_p, ctypes.POINTER(Info)]
        self.l.bf_scalable_free.argtypes = [ctypes.c_void_p]

    def sbbf_bits_per_key(self, n, fpp):
        out = ctypes.c_size_t()
        rc = self.l.bf_sbbf_compact_bytes(n, fpp, ctypes.byref(out))
        assert rc == 0
        return out.value * 8.0 / n

    def scalable_bytes(self, capacity, fpp, n, ratio, nonscaling=False):
        """Bitset bytes of the library's chain after n distinct random adds."""
        f = ctypes.c_void_p()
        p = self.Params(capacity, fpp, 0, ratio, 1 if nonscaling else 0)
        assert self.l.bf_scalable_new(ctypes.byref(f), ctypes.byref(p)) == 0
        rnd = random.Random(capacity ^ n)
        left = n
        while left:
            k = min(left, 1 << 20)
            hs = array.array("Q", (rnd.getrandbits(64) for _ in range(k)))
            addr, _ = hs.buffer_info()
            self.l.bf_scalable_insert_hashes(f, addr, k, None, None)
            left -= k
        info = self.Info()
        self.l.bf_scalable_get_stats(f, ctypes.byref(info))
        self.l.bf_scalable_free(f)
        return info.num_bytes, info.num_layers


def encode_batches(n, batch=1000):
    """The RESP bytes of every item, in batches (reused for every filter)."""
    out = []
    for i in range(0, n, batch):
        parts = []
        for j in range(i, min(n, i + batch)):
            s = b"i%d" % j
            parts.append(b"$%d\r\n%s\r\n" % (len(s), s))
        out.append((min(n, i + batch) - i, b"".join(parts)))
    return out


def fill(c, head_args, batches):
    """Sends head_args + each batch's items; returns how many items were
    refused (-1 in a CF.INSERT reply)."""
    head = b"".join(b"$%d\r\n%s\r\n" % (len(a), a) for a in head_args)
    refused = 0
    for i in range(0, len(batches), 200):
        group = batches[i : i + 200]
        c.sock.sendall(b"".join(b"*%d\r\n" % (k + len(head_args)) + head + body for k, body in group))
        for _ in group:
            r = c.read()
            if isinstance(r, harness.Error):
                raise RuntimeError("%s: %s" % (head_args[0], r))
            refused += r.count(-1)
    return refused


def measured_fpr(c, key, cmd="BF.MEXISTS", probes=200000):
    hits = 0
    for i in range(0, probes, 1000):
        hits += sum(c(cmd, key, *["absent:%d" % j for j in range(i, i + 1000)]))
    return hits / probes


BF_MODES = (("reserved", lambda n: [str(n)]), ("reserved nonscaling", lambda n: [str(n), "NONSCALING"]),
            ("scaled from 100", lambda n: ["100"]), ("scaled from 100, ratio 0.5", lambda n: ["100", "RATIO", "0.5"]))
CF_MODES = (("cf reserved", lambda n: [str(n)]), ("cf scaled from 1024, expansion 2", lambda n: ["1024", "EXPANSION", "2"]))


def memory(servers, lib, sizes):
    """servers: [(label, server)], ours first (the library's figures are
    for ours); the peer gets the rows its syntax has (no RATIO)."""
    rows = []
    for n in sizes:
        batches = encode_batches(n)
        for kind, modes, rates in (("bf", BF_MODES, (0.01, 0.001)), ("cf", CF_MODES, (None,))):
            for eps in rates:
                for mode, args in modes:
                    for label, server in servers:
                        if label != servers[0][0] and "ratio" in mode:
                            continue
                        rows.append(memory_row(server.client(timeout=600), label, label == servers[0][0] and lib,
                                               kind, mode, eps, args(n), n, batches))
    return rows


def memory_row(c, label, lib, kind, mode, eps, reserve, n, batches):
    c("FLUSHALL")
    if kind == "bf":
        c("BF.RESERVE", "m", str(eps), *reserve)
        head = [b"BF.MADD", b"m"]
    else:
        c("CF.RESERVE", "m", *reserve)
        head = [b"CF.INSERT", b"m", b"ITEMS"]
    t0 = time.time()
    refused = fill(c, head, batches)
    t_fill = time.time() - t0
    mu = c("MEMORY", "USAGE", "m")
    row = {"server": label, "kind": kind, "error_rate": eps, "items_added": n, "items_refused": refused,
           "mode": mode, "memory_usage_bytes": mu, "bytes_per_item": mu / n, "bits_per_item": mu * 8.0 / n,
           "fill_seconds": t_fill}
    if kind == "bf":
        row["items_counted"] = c("BF.CARD", "m")
        row["layers"] = c("BF.INFO", "m", "FILTERS")[0]
        row["measured_fpr"] = measured_fpr(c, "m")
    else:
        info = c("CF.INFO", "m")
        info = {info[i].decode(): info[i + 1] for i in range(0, len(info), 2)}
        row["items_counted"] = info["Number of items inserted"]
        row["layers"] = info["Number of filters"]
        row["bucket_size"] = info["Bucket size"]
        row["measured_fpr"] = measured_fpr(c, "m", "CF.MEXISTS")
    if lib and kind == "bf":
        cap = n if mode.startswith("reserved") else 100
        ratio = 0.5 if mode.endswith("0.5") else 0.8
        lib_bytes, lib_layers = lib.scalable_bytes(cap, eps, n, ratio, nonscaling=mode.endswith("nonscaling"))
        sbbf_bits = lib.sbbf_bits_per_key(n, eps)
        row.update({"library_sbbf_bits_per_key": sbbf_bits, "library_scalable_bytes": lib_bytes,
                    "library_scalable_layers": lib_layers, "ratio_to_library_sbbf": (mu * 8.0 / n) / sbbf_bits,
                    "ratio_to_library_scalable": mu / lib_bytes})
    print("  %-10s %-32s eps %-6s n %-9d %8.3f bytes/item (%5.2f bits) %3d layers, %d refused, FPR %.5f"
          % (label, mode, eps, n, mu / n, mu * 8.0 / n, row["layers"], refused, row["measured_fpr"]), flush=True)
    return row


def machine_info(name):
    model = ""
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    ver = subprocess.run(["redis-server", "--version"], capture_output=True, text=True).stdout.strip()
    flags = ""
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("flags"):
                f = line.split()
                flags = " ".join(x for x in ("avx2", "avx512f", "avx512bw") if x in f)
                break
    except OSError:
        pass
    return {"name": name, "cpu": model or platform.machine(), "cores": os.cpu_count(), "cpu_flags": flags,
            "kernel": platform.release(), "redis": ver, "python": platform.python_version()}


def markdown(doc):
    peer = doc.get("peer")
    out = ["# Redis module benchmark, %s" % doc["date"], "",
           "Machine: %s, %d cores (%s); %s; module at %s%s. Shared, noisy machine (load average %.1f before, "
           "%.1f after): medians of %d interleaved runs of redis-benchmark (50 clients, 10^6 random keys)."
           % (doc["machine"]["cpu"], doc["machine"]["cores"], doc["machine"]["cpu_flags"], doc["machine"]["redis"],
              doc["commit"], (", beside %s on a second server" % peer) if peer else "", doc["load_before"][0],
              doc["load_after"][0], doc["reps"]), "",
           "Throughput as the clients saw it, and the server's own CPU time per call (from /proc; "
           "'items per CPU-second' is what one core running only redis-server would sustain). Ratios "
           "are against the plain-Redis command in the 'vs' column on the same server: > 1 means the module's "
           "command is faster." + (" 'vs ours': the peer's calls/s over this module's." if peer else ""),
           "",
           "| server | command | pipeline | items/call | calls/s | items/s | ratio | server CPU us/call "
           "| items per CPU-second | CPU ratio | vs | ratio / CPU ratio vs EXISTS 1 key | vs ours |",
           "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---:|"]
    for r in doc["throughput"]:
        base = r["baseline"]
        one = ""
        if r.get("ratio_to_exists_1_key"):
            one = "%.2f / %.2f" % (r["ratio_to_exists_1_key"], r["cpu_ratio_to_exists_1_key"])
        out.append("| %s | %s | %d | %d | %.0f | %.0f | %s | %.2f | %.0f | %s | %s | %s | %s |" % (
            r.get("server", "ours"), r["test"], r["pipeline"], r["items_per_call"], r["median_calls_per_s"],
            r["median_items_per_s"], "%.2f" % r["ratio_to_baseline"] if base else "",
            r["median_server_cpu_us_per_call"], r["server_items_per_cpu_second"] or 0,
            "%.2f" % r["cpu_ratio_to_baseline"] if base else "", base or "(baseline)", one,
            "%.2f" % r["ratio_to_ours"] if r.get("ratio_to_ours") else ""))
    out += ["", "| server | filter | error rate | items | refused | MEMORY USAGE bytes/item | bits/item "
                "| library SBBF bits/key | library chain bits/item | vs SBBF | vs chain | layers | bucket size "
                "| measured FPR |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in doc["memory"]:
        lib = "library_sbbf_bits_per_key" in r
        out.append("| %s | %s | %s | %d | %d | %.3f | %.2f | %s | %s | %s | %s | %d | %s | %.5f |" % (
            r.get("server", "ours"), r["mode"], "%g" % r["error_rate"] if r.get("error_rate") else "default",
            r["items_added"], r.get("items_refused", 0), r["bytes_per_item"], r["bits_per_item"],
            "%.2f" % r["library_sbbf_bits_per_key"] if lib else "",
            "%.2f" % (r["library_scalable_bytes"] * 8.0 / r["items_added"]) if lib else "",
            "%.3f" % r["ratio_to_library_sbbf"] if lib else "", "%.4f" % r["ratio_to_library_scalable"] if lib else "",
            r["layers"], r.get("bucket_size", ""), r["measured_fpr"]))
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--module", required=True)
    ap.add_argument("--lib", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--machine", required=True)
    ap.add_argument("--commit", default="unknown")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--sizes", help="items for the memory rows, comma-separated (default 10^6,10^7; --quick "
                                    "10^5,10^6)")
    ap.add_argument("--peer", help="another module with RedisBloom's commands (RedisBloom's own .so)")
    ap.add_argument("--peer-name", default="RedisBloom")
    ap.add_argument("--module-args", default="", help="load-time arguments of this module")
    args = ap.parse_args()
    sizes = [int(float(x)) for x in args.sizes.split(",")] if args.sizes else \
        ([10 ** 5, 10 ** 6] if args.quick else [10 ** 6, 10 ** 7])
    ctx = harness.Context(os.path.abspath(args.module))
    try:
        servers = [("ours", ctx.server("bench", module_args=args.module_args.split()))]
        if args.peer:
            servers.append((args.peer_name, harness.Server(os.path.abspath(args.peer), name="peer").start()))
        doc = {"date": time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime()), "commit": args.commit,
               "machine": machine_info(args.machine), "reps": args.reps, "quick": args.quick,
               "module_args": args.module_args, "peer": args.peer_name if args.peer else None,
               "load_before": os.getloadavg()}
        print("throughput (%d interleaved repetitions)" % args.reps, flush=True)
        doc["throughput"] = throughput(servers, args.reps, args.quick)
        print("memory", flush=True)
        doc["memory"] = memory(servers, Lib(os.path.abspath(args.lib)), sizes)
        doc["load_after"] = os.getloadavg()
        for _, server in servers:
            server.stop()
    finally:
        harness.cleanup()
    with open(args.out + ".json", "w") as f:
        json.dump(doc, f, indent=1)
    md = markdown(doc)
    with open(args.out + ".md", "w") as f:
        f.write(md)
    print()
    print(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
