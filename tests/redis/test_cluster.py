"""A 3-master, 3-replica Redis Cluster with the module loaded in every node.

Filters on every one of the 16384 slots go in through redis-py's
RedisCluster (it routes BF.* and CF.* by their first key, from COMMAND);
replicas must hold byte-identical data (DEBUG DIGEST); resharding slots
with redis-cli --cluster reshard moves their filters (MIGRATE, through the
type's RDB callbacks) byte for byte; killing a master promotes its replica,
and every filter still answers every item it was given (no false
negative). The figures (keys, slots moved, failover time, false negatives)
go to the run's summary."""

import subprocess
import time

from harness import REDIS_CLI, Server, check, eq, test

N_SLOTS = 16384


def crc16(data):
    crc = 0
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def key_per_slot(prefix):
    """One key name for each hash slot."""
    keys = [None] * N_SLOTS
    left = N_SLOTS
    i = 0
    while left:
        k = "%s%d" % (prefix, i)
        s = crc16(k.encode()) % N_SLOTS
        if keys[s] is None:
            keys[s] = k
            left -= 1
        i += 1
    return keys


def cli(*args, timeout=120):
    p = subprocess.run([REDIS_CLI] + list(args), capture_output=True, text=True, timeout=timeout,
                       stdin=subprocess.DEVNULL)
    if p.returncode != 0:
        raise AssertionError("redis-cli %s failed:\n%s%s" % (" ".join(args), p.stdout[-3000:], p.stderr[-3000:]))
    return p.stdout


def nodes_view(client):
    """{node id: (port, flags, master id, [slot ranges])} from CLUSTER NODES."""
    out = {}
    for line in client("CLUSTER", "NODES").decode().splitlines():
        f = line.split()
        port = int(f[1].split(":")[1].split("@")[0])
        out[f[0]] = (port, f[2].split(","), f[3], f[8:])
    return out


def wait_cluster_ok(servers, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        ok = True
        for s in servers:
            c = s.client(timeout=5)
            info = c("CLUSTER", "INFO").decode()
            c.close()
            if "cluster_state:ok" not in info or "cluster_slots_ok:16384" not in info:
                ok = False
                break
        if ok:
            return
        time.sleep(0.1)
    raise AssertionError("cluster not ok: " + info)


def slot_owner(view):
    owner = {}
    for nid, (port, flags, master, slots) in view.items():
        if "master" not in flags or "fail" in flags:
            continue
        for r in slots:
            if r.startswith("["):
                continue
            a, _, b = r.partition("-")
            for s in range(int(a), int(b or a) + 1):
                owner[s] = port
    return owner


@test
def cluster_three_masters(ctx):
    import redis
    from redis.cluster import ClusterNode, RedisCluster

    servers = [Server(ctx.module, name="node%d" % i, cluster=True).start() for i in range(6)]
    by_port = {s.port: s for s in servers}
    cli("--cluster", "create", *["127.0.0.1:%d" % s.port for s in servers], "--cluster-replicas", "1",
        "--cluster-yes")
    wait_cluster_ok(servers)
    admin = servers[0].client()
    deadline = time.time() + 60
    while True:  # until every node's view has the replicas attached
        views = [nodes_view(s.client(timeout=5)) for s in servers]
        if all(sum("slave" in v[1] for v in vw.values()) == 3 for vw in views):
            break
        check(time.time() < deadline, "replicas attached: %r" % views[0])
        time.sleep(0.1)
    view = nodes_view(admin)
    masters = [nid for nid, v in view.items() if "master" in v[1]]
    eq(len(masters), 3, "three masters")
    eq(sum("slave" in v[1] for v in view.values()), 3, "three replicas")

    rc = RedisCluster(startup_nodes=[ClusterNode("127.0.0.1", servers[0].port)])
    bf_keys = key_per_slot("bf:")
    cf_keys = key_per_slot("cf:")[::8]
    n_items = 20 if not ctx.large else 200
    items = {k: ["%s/%d" % (k, j) for j in range(n_items)] for k in bf_keys}
    items.update({k: ["%s/%d" % (k, j) for j in range(10)] for k in cf_keys})
    t0 = time.time()
    pipe = rc.pipeline()
    for k in bf_keys:
        pipe.execute_command("BF.MADD", k, *items[k])
    for k in cf_keys:
        pipe.execute_command("CF.INSERT", k, "ITEMS", *items[k])
    res = pipe.execute()
    check(all(isinstance(r, list) and len(r) > 0 for r in res), "every add answered")
    t_fill = time.time() - t0

    def false_negatives(client):
        p = client.pipeline()
        keys = list(items)
        for k in keys:
            p.execute_command("BF.MEXISTS" if k.startswith("bf:") else "CF.MEXISTS", k, *items[k])
        out = p.execute()
        return sum(r.count(0) for r in out), sum(len(r) for r in out)

    fn, total = false_negatives(rc)
    eq(fn, 0, "false negatives right after filling")
    # Every slot of every master holds filters.
    counts = {}
    clients = {s.port: s.client() for s in servers}
    for nid in masters:
        port = view[nid][0]
        counts[port] = clients[port]("DBSIZE")
    eq(sum(counts.values()), len(items), "every filter on exactly one master")
    check(all(v > 0 for v in counts.values()), "filters on every master: %r" % counts)

    def digests(owner_of_slot, keys):
        by_port_keys = {}
        for k in keys:
            by_port_keys.setdefault(owner_of_slot[crc16(k.encode()) % N_SLOTS], []).append(k)
        out = {}
        for port, ks in by_port_keys.items():
            for i in range(0, len(ks), 1000):
                part = ks[i : i + 1000]
                out.update(zip(part, clients[port]("DEBUG", "DIGEST-VALUE", *part)))
        return out

    owner = slot_owner(view)
    before = digests(owner, items)

    def replicas_identical():
        v = nodes_view(admin)
        for nid, (port, flags, master, _) in v.items():
            if "slave" in flags and "fail" not in flags and master in v:
                mport = v[master][0]
                eq(clients[mport]("WAIT", 1, 10000), 1, "replica of %d acknowledged" % mport)
                eq(clients[port]("DEBUG", "DIGEST"), clients[mport]("DEBUG", "DIGEST"),
                   "replica %d of master %d byte-identical" % (port, mport))

    replicas_identical()

    # Resharding: move 200 slots from the master of slot 0 to another one.
    src = [nid for nid in masters if view[nid][0] == owner[0]][0]
    dst = [nid for nid in masters if nid != src][0]
    n_move = 200
    moved_slots_before = {s for s, p in owner.items() if p == view[src][0]}
    t0 = time.time()
    cli("--cluster", "reshard", "127.0.0.1:%d" % view[src][0], "--cluster-from", src, "--cluster-to", dst,
        "--cluster-slots", str(n_move), "--cluster-yes", timeout=300)
    t_reshard = time.time() - t0
    wait_cluster_ok(servers)
    view2 = nodes_view(admin)
    owner2 = slot_owner(view2)
    moved = sorted(s for s in moved_slots_before if owner2[s] == view[dst][0])
    eq(len(moved), n_move, "slots moved")
    moved_keys = [k for k in items if crc16(k.encode()) % N_SLOTS in set(moved)]
    after = digests(owner2, moved_keys)
    eq({k: after[k] for k in moved_keys}, {k: before[k] for k in moved_keys},
       "moved filters are byte for byte the same")
    per_slot = {}
    for k in moved_keys:
        per_slot[crc16(k.encode()) % N_SLOTS] = per_slot.get(crc16(k.encode()) % N_SLOTS, 0) + 1
    for slot in moved:
        eq(clients[view[src][0]]("CLUSTER", "COUNTKEYSINSLOT", slot), 0, "slot %d left the source" % slot)
        eq(clients[view[dst][0]]("CLUSTER", "COUNTKEYSINSLOT", slot), per_slot.get(slot, 0),
           "slot %d on the destination" % slot)
    rc.close()
    rc = RedisCluster(startup_nodes=[ClusterNode("127.0.0.1", servers[0].port)])
    fn, _ = false_negatives(rc)
    eq(fn, 0, "false negatives after resharding")
    replicas_identical()

    # Failover: kill the master that received the slots.
    victim_port = view2[dst][0]
    replica_id = [nid for nid, v in view2.items() if "slave" in v[1] and v[2] == dst][0]
    replica_port = view2[replica_id][0]
    survivor = [s for s in servers if s.port not in (victim_port,)][0]
    sc = survivor.client()
    t0 = time.time()
    by_port[victim_port].kill()
    promoted = None
    while time.time() - t0 < 60:
        v = nodes_view(sc)
        if "master" in v[replica_id][1] and b"cluster_state:ok" in sc("CLUSTER", "INFO"):
            promoted = time.time() - t0
            break
        time.sleep(0.02)
    check(promoted is not None, "replica promoted:\n" + by_port[replica_port].log_tail())
    rc.close()
    live = [s for s in servers if s.alive()]
    wait_cluster_ok(live)
    rc = RedisCluster(startup_nodes=[ClusterNode("127.0.0.1", live[0].port)])
    fn, total = false_negatives(rc)
    eq(fn, 0, "false negatives after failover")
    owner3 = slot_owner(nodes_view(sc))
    after_failover = digests(owner3, items)
    eq(after_failover, before, "every filter byte for byte the same after resharding and failover")
    eq(rc.execute_command("BF.ADD", bf_keys[moved[0]], "after-failover"), 1, "writes on the promoted replica")
    rc.close()
    ctx.figures["cluster"] = (
        "%d filters (%d BF + %d CF) over all 16384 slots, %d items, filled in %.1f s; "
        "resharding moved %d slots / %d filters in %.1f s, byte-identical; killing master :%d "
        "promoted its replica :%d in %.2f s (cluster-node-timeout 2000 ms); false negatives: %d of %d"
        % (len(items), len(bf_keys), len(cf_keys), total, t_fill, len(moved), len(moved_keys), t_reshard,
           victim_port, replica_port, promoted, fn, total))
