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

  scripts/redis_bench.py --module M --lib libblockfilter.so --out PREFIX
                         [--reps 5] [--quick]
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


def throughput(server, reps, quick):
    c = server.client()
    c("FLUSHALL")
    # Sized so that no run makes them grow: the measured path is the steady one.
    c("BF.RESERVE", "bf", "0.01", "2000000")
    c("CF.RESERVE", "cf", "16000000")
    runs, cpu = {}, {}
    plan = []
    for name, cmd, base in SINGLE:
        for p in (1, 64):
            plan.append((name, cmd, base, p, 1, (20000 if quick else 50000) * (16 if p > 1 else 1)))
    for name, cmd, base in BATCH:
        for p in (1, 64):
            plan.append((name, cmd, base, p, 100, (2000 if quick else 5000) * (4 if p > 1 else 1)))
    for rep in range(reps):
        for name, cmd, base, p, items, n in plan:
            rps, us = benchmark(server, cmd, p, n)
            runs.setdefault((name, p), []).append(rps)
            cpu.setdefault((name, p), []).append(us)
            print("  rep %d  %-16s P%-3d %12.0f calls/s %8.2f server CPU us/call" % (rep + 1, name, p, rps, us),
                  flush=True)
    rows = []
    med = {k: statistics.median(v) for k, v in runs.items()}
    med_cpu = {k: statistics.median(v) for k, v in cpu.items()}
    for name, cmd, base, p, items, n in plan:
        m, u = med[(name, p)], med_cpu[(name, p)]
        rows.append({
            "test": name, "pipeline": p, "items_per_call": items, "requests_per_run": n,
            "runs_calls_per_s": runs[(name, p)], "median_calls_per_s": m, "median_items_per_s": m * items,
            "runs_server_cpu_us_per_call": cpu[(name, p)], "median_server_cpu_us_per_call": u,
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


def fill(c, key, cmd, batches):
    head = b"$%d\r\n%s\r\n$%d\r\n%s\r\n" % (len(cmd), cmd, len(key), key)
    for i in range(0, len(batches), 200):
        group = batches[i : i + 200]
        c.sock.sendall(b"".join(b"*%d\r\n" % (k + 2) + head + body for k, body in group))
        for _ in group:
            r = c.read()
            if isinstance(r, harness.Error):
                raise RuntimeError("%s: %s" % (cmd, r))


def measured_fpr(c, key, probes=200000):
    hits = 0
    for i in range(0, probes, 1000):
        hits += sum(c("BF.MEXISTS", key, *["absent:%d" % j for j in range(i, i + 1000)]))
    return hits / probes


def memory(server, lib, quick):
    c = server.client(timeout=600)
    rows = []
    sizes = (10 ** 5, 10 ** 6) if quick else (10 ** 6, 10 ** 7)
    for n in sizes:
        batches = encode_batches(n)
        for eps in (0.01, 0.001):
            for mode, reserve in (("reserved", [str(n)]), ("reserved nonscaling", [str(n), "NONSCALING"]),
                                  ("scaled from 100", ["100"]),
                                  ("scaled from 100, ratio 0.5", ["100", "RATIO", "0.5"])):
                c("FLUSHALL")
                c("BF.RESERVE", "m", str(eps), *reserve)
                t0 = time.time()
                fill(c, b"m", b"BF.MADD", batches)
                t_fill = time.time() - t0
                mu = c("MEMORY", "USAGE", "m")
                items = c("BF.CARD", "m")
                layers = c("BF.INFO", "m", "FILTERS")[0]
                fpr = measured_fpr(c, "m")
                cap = n if mode.startswith("reserved") else 100
                ratio = 0.5 if mode.endswith("0.5") else 0.8
                lib_bytes, lib_layers = lib.scalable_bytes(cap, eps, n, ratio, nonscaling=mode.endswith("nonscaling"))
                sbbf_bits = lib.sbbf_bits_per_key(n, eps)
                row = {
                    "error_rate": eps, "items_added": n, "items_counted": items, "mode": mode,
                    "memory_usage_bytes": mu, "bytes_per_item": mu / n, "bits_per_item": mu * 8.0 / n,
                    "layers": layers, "fill_seconds": t_fill, "measured_fpr": fpr,
                    "library_sbbf_bits_per_key": sbbf_bits,
                    "library_scalable_bytes": lib_bytes, "library_scalable_layers": lib_layers,
                    "ratio_to_library_sbbf": (mu * 8.0 / n) / sbbf_bits,
                    "ratio_to_library_scalable": mu / lib_bytes,
                }
                rows.append(row)
                print("  %-20s eps %-6g n %-9d %8.3f bytes/item (%5.2f bits; library SBBF %5.2f bits, "
                      "scalable %5.2f bits) %2d layers, FPR %.5f"
                      % (mode, eps, n, mu / n, mu * 8.0 / n, sbbf_bits, lib_bytes * 8.0 / n, layers, fpr), flush=True)
    return rows


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
    out = ["# Redis module benchmark, %s" % doc["date"], "",
           "Machine: %s, %d cores (%s); %s; module at %s. Shared, noisy machine: medians of %d interleaved "
           "runs of redis-benchmark (50 clients, 10^6 random keys)."
           % (doc["machine"]["cpu"], doc["machine"]["cores"], doc["machine"]["cpu_flags"], doc["machine"]["redis"],
              doc["commit"], doc["reps"]), "",
           "Throughput as the clients saw it, and the server's own CPU time per call (from /proc; "
           "'items per CPU-second' is what one core running only redis-server would sustain). Ratios "
           "are against the plain-Redis command in the last column: > 1 means the module's command is faster.",
           "",
           "| command | pipeline | items/call | calls/s | items/s | ratio | server CPU us/call "
           "| items per CPU-second | CPU ratio | vs | ratio / CPU ratio vs EXISTS 1 key |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"]
    for r in doc["throughput"]:
        base = r["baseline"]
        one = ""
        if r.get("ratio_to_exists_1_key"):
            one = "%.2f / %.2f" % (r["ratio_to_exists_1_key"], r["cpu_ratio_to_exists_1_key"])
        out.append("| %s | %d | %d | %.0f | %.0f | %s | %.2f | %.0f | %s | %s | %s |" % (
            r["test"], r["pipeline"], r["items_per_call"], r["median_calls_per_s"], r["median_items_per_s"],
            "%.2f" % r["ratio_to_baseline"] if base else "", r["median_server_cpu_us_per_call"],
            r["server_items_per_cpu_second"] or 0, "%.2f" % r["cpu_ratio_to_baseline"] if base else "",
            base or "(baseline)", one))
    out += ["", "| filter | error rate | items | MEMORY USAGE bytes/item | bits/item | library SBBF bits/key "
                "| library chain bits/item | vs SBBF | vs chain | layers | measured FPR |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in doc["memory"]:
        out.append("| %s | %g | %d | %.3f | %.2f | %.2f | %.2f | %.3f | %.4f | %d | %.5f |" % (
            r["mode"], r["error_rate"], r["items_added"], r["bytes_per_item"], r["bits_per_item"],
            r["library_sbbf_bits_per_key"], r["library_scalable_bytes"] * 8.0 / r["items_added"],
            r["ratio_to_library_sbbf"], r["ratio_to_library_scalable"], r["layers"], r["measured_fpr"]))
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
    args = ap.parse_args()
    ctx = harness.Context(os.path.abspath(args.module))
    try:
        server = ctx.server("bench")
        doc = {"date": time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime()), "commit": args.commit,
               "machine": machine_info(args.machine), "reps": args.reps, "quick": args.quick,
               "load_before": os.getloadavg()}
        print("throughput (%d interleaved repetitions)" % args.reps, flush=True)
        doc["throughput"] = throughput(server, args.reps, args.quick)
        print("memory", flush=True)
        doc["memory"] = memory(server, Lib(os.path.abspath(args.lib)), args.quick)
        doc["load_after"] = os.getloadavg()
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
