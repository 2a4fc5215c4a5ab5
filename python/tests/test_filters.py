"""The filter classes: construction, keys, single calls, statistics, errors."""
import math
import pickle
import copy

import numpy as np
import pytest

import blockfilter as bf

FAMILIES = [bf.SBBF, bf.Bloom, bf.Counting, bf.Cuckoo, bf.Scalable, bf.Blocked]


@pytest.mark.parametrize("cls", FAMILIES)
def test_add_in_update_len(cls):
    f = cls(1000, 0.01)
    keys = ["apple", b"pear", 42, -7, 2.5, "", b"", 0, "пингвин", 2**64 - 1]
    for k in keys:
        f.add(k)
    for k in keys:
        assert k in f, k
    f.update(range(100, 400))
    assert all(i in f for i in range(100, 400))
    absent = sum(("absent-%d" % i) in f for i in range(10000))
    assert absent < 300  # 1 % target, plenty of margin
    n = len(f)
    assert 250 <= n <= 360, n
    s = f.stats
    assert s.family == f.family == cls.__name__.lower()
    assert 0 < s.fill < 1 and 0 < s.est_fpp < 0.05
    assert s.num_bytes == f.nbytes > 0


def test_len_exact_where_the_family_counts():
    c = bf.Cuckoo(1000, 0.01)
    c.update(range(500))
    assert len(c) == 500
    s = bf.Scalable(100, 0.01)
    s.update(range(1000))
    assert len(s) <= 1000 and len(s) >= 990  # keys the chain already answered for are not written
    assert len(s.layers) > 1
    assert sum(layer["count"] for layer in s.layers) == len(s)


def test_key_types_hash_like_parquet():
    # An int is Parquet INT64 (its 8 little-endian bytes), a float DOUBLE,
    # a str its UTF-8: the same hash as those bytes.
    assert bf.hash(5) == bf.hash((5).to_bytes(8, "little"))
    assert bf.hash(-1) == bf.hash(b"\xff" * 8) == bf.hash(2**64 - 1)
    assert bf.hash(1.5) == bf.hash(np.float64(1.5).tobytes())
    assert bf.hash("é") == bf.hash("é".encode())
    assert bf.hash(np.int32(7)) == bf.hash((7).to_bytes(4, "little"))
    assert bf.hash(np.float32(0.5)) == bf.hash(np.float32(0.5).tobytes())
    assert bf.hash(True) == bf.hash(1)
    assert bf.hash(memoryview(b"abc")) == bf.hash(b"abc") == bf.hash(bytearray(b"abc"))
    assert bf.hash(b"abc", seed=7) != bf.hash(b"abc")
    # Known answer: XXH64 of the empty string with seed 0.
    assert bf.hash(b"") == 0xEF46DB3751D8E999
    f = bf.SBBF(100, 0.01)
    f.add(np.int64(9))
    assert 9 in f and np.uint64(9) in f
    f.add(np.int16(-3))  # INT(16) lives in INT32, sign-extended
    assert np.int32(-3) in f


def test_single_and_batch_agree():
    rng = np.random.default_rng(1)
    keys = rng.integers(-2**63, 2**63 - 1, 5000, dtype=np.int64)
    for cls in FAMILIES:
        a, b = cls(10000, 0.01, seed=99), cls(10000, 0.01, seed=99)
        for k in keys.tolist():
            a.add(k)
        b.add_many(keys)
        assert a.to_bytes()[64:] == b.to_bytes()[64:], cls
        probe = rng.integers(-2**63, 2**63 - 1, 20000, dtype=np.int64)
        single = np.array([k in a for k in probe.tolist()])
        assert (a.contains_many(probe) == single).all()


def test_bad_keys_and_arguments():
    f = bf.SBBF(100, 0.01)
    with pytest.raises(TypeError, match="keys are str, bytes-like, int or float"):
        f.add(object())
    with pytest.raises(TypeError):
        f.add([1, 2])
    with pytest.raises(ValueError, match="64 bits"):
        f.add(2**64)
    with pytest.raises(ValueError, match="64 bits"):
        f.add(-2**63 - 1)
    with pytest.raises(TypeError, match="many keys"):
        f.add(np.arange(3))
    with pytest.raises(UnicodeEncodeError):
        f.add("\ud800")
    with pytest.raises(ValueError, match="error_rate"):
        bf.SBBF(100, 1.5)
    with pytest.raises(ValueError, match="capacity"):
        bf.Bloom(0, 0.01)
    with pytest.raises(TypeError):
        bf.Bloom("many", 0.01)
    with pytest.raises(ValueError, match="seed"):
        bf.SBBF(10, 0.01, seed=-1)
    with pytest.raises(ValueError, match="kernel"):
        bf.SBBF(10, 0.01, kernel="sse9")
    with pytest.raises(TypeError):
        bf.Filter(10, 0.01)
    with pytest.raises(ValueError) as e:
        bf.SBBF(10**12, 1e-9)
    assert e.value.status in (bf.statuses["ETOOBIG"], bf.statuses["ENOMEM"])


def test_remove():
    for cls in (bf.Counting, bf.Cuckoo):
        f = cls(1000, 0.001)
        f.update(["a", "b", "c"])
        f.remove("a")
        assert "a" not in f and "b" in f
        with pytest.raises(KeyError):
            f.remove("zzz-never")
        f.discard("zzz-never")
        f.remove_many(["b", "c"])
        assert "b" not in f and "c" not in f
        f.add_many(np.arange(100, dtype=np.int64))
        f.remove_many(np.arange(50, dtype=np.int64))
        assert not f.contains_many(np.arange(50)).any()
        assert f.contains_many(np.arange(50, 100)).all()
        with pytest.raises(KeyError, match="key 0 of 2"):
            f.remove_many(np.array([10**9, 60], dtype=np.int64))
    assert not hasattr(bf.SBBF(10, 0.1), "remove")
    assert not hasattr(bf.Bloom(10, 0.1), "remove")


def test_cuckoo_full():
    f = bf.Cuckoo(100, 0.01)
    with pytest.raises(ValueError, match="filter full") as e:
        f.add_many(np.arange(10**5, dtype=np.int64))
    assert e.value.status == bf.statuses["EFULL"]
    assert 100 <= len(f) < 10**5
    assert f.contains_many(np.arange(len(f))).all()  # every key before the failure is in


def test_cuckoo_merge():
    """Cuckoo filters of one shape and seed merge as a multiset union; a union
    that does not fit raises EFULL and leaves the filter as it was; other
    shapes or seeds are refused."""
    a, b = bf.Cuckoo(1000, 0.01), bf.Cuckoo(1000, 0.01)
    a.update(range(300))
    b.update(range(300, 500))
    b.add(7)  # in both: held twice in the union
    c = a | b
    assert type(c) is bf.Cuckoo
    assert all(i in c for i in range(500))
    assert len(c) == len(a) + len(b) == 501
    assert c.stats.inserted == a.stats.inserted + b.stats.inserted == 501
    assert len(a) == 300 and len(b) == 201  # | leaves both as they were
    a |= b
    assert len(a) == 501 and all(i in a for i in range(500))
    a.remove(7)
    a.remove(7)  # both copies: no KeyError
    assert len(a) == 499

    # A destination without room: the union needs 1.2 times its slots.
    full, other = bf.Cuckoo(1000, 0.01), bf.Cuckoo(1000, 0.01)
    half = int(0.6 * full.stats.cells)
    full.update(range(half))
    other.update(range(10**6, 10**6 + half))
    before = full.to_bytes()
    with pytest.raises(ValueError, match="do not all fit") as e:
        full |= other
    assert e.value.status == bf.statuses["EFULL"]
    assert full.to_bytes() == before and len(full) == half
    with pytest.raises(ValueError, match="do not all fit") as e:
        full | other
    assert e.value.status == bf.statuses["EFULL"]
    assert full.to_bytes() == before

    # Other shapes (buckets, fingerprint bits) and seeds: refused, unchanged.
    for x, y in ((bf.Cuckoo(1000, 0.01), bf.Cuckoo(100000, 0.01)),
                 (bf.Cuckoo(1000, 0.01), bf.Cuckoo(1000, 0.0001)),
                 (bf.Cuckoo(1000, 0.01, seed=1), bf.Cuckoo(1000, 0.01, seed=2))):
        x.add("k")
        y.add("j")
        before = x.to_bytes()
        for op in (lambda: x | y, lambda: x.__ior__(y)):
            with pytest.raises(ValueError, match="differ in shape or seed") as e:
                op()
            assert e.value.status == bf.statuses["EMISMATCH"]
            assert x.to_bytes() == before
    with pytest.raises(ValueError, match="cannot merge a bloom"):
        bf.Cuckoo(1000, 0.01) | bf.Bloom(1000, 0.01)


def test_merge_copy_pickle():
    for cls in (bf.SBBF, bf.Bloom, bf.Counting):
        a, b = cls(1000, 0.01), cls(1000, 0.01)
        a.update(range(100))
        b.update(range(100, 200))
        c = a | b
        assert all(i in c for i in range(200))
        assert 150 not in a or True  # a unchanged (maybe a false positive)
        a |= b
        assert a.to_bytes()[64:] == c.to_bytes()[64:]
        d = a.copy()
        d.add("only-in-d")
        assert "only-in-d" in d
        for e in (copy.copy(a), copy.deepcopy(a), pickle.loads(pickle.dumps(a))):
            assert type(e) is cls and e.to_bytes()[64:] == a.to_bytes()[64:]
            assert e.capacity == 1000 and e.error_rate == 0.01
    with pytest.raises(ValueError, match="differ"):
        bf.SBBF(1000, 0.01) | bf.SBBF(2000, 0.01)
    with pytest.raises(ValueError, match="cannot merge a bloom"):
        bf.SBBF(1000, 0.01) | bf.Bloom(1000, 0.01)
    with pytest.raises(TypeError, match="cannot be merged"):
        bf.Scalable(100, 0.01) | bf.Scalable(100, 0.01)
    with pytest.raises(TypeError):
        bf.SBBF(10, 0.1) | 3
    s = bf.Scalable(100, 0.01, ratio=0.8)
    s.update(range(1000))
    t = pickle.loads(pickle.dumps(s))
    assert t.layers == s.layers and t.params["ratio"] == 0.8


def test_repr_and_attributes():
    f = bf.SBBF(1000, 0.01, seed=5)
    r = repr(f)
    assert r.startswith("<blockfilter.SBBF nbytes=") and "capacity=1000" in r and "keyed" in r
    assert f.seed == 5 and f.kernel in bf.kernels() and f.num_blocks * 32 == f.nbytes
    assert "k=7" in repr(bf.Bloom(1000, 0.01))
    assert "count=0" in repr(bf.Cuckoo(1000, 0.01))
    assert "layers=1" in repr(bf.Scalable(1000, 0.01))
    f.close()
    assert repr(f) == "<blockfilter.SBBF closed>" and f.closed
    with pytest.raises(ValueError, match="closed"):
        f.add(1)
    with pytest.raises(ValueError, match="closed"):
        1 in f
    with pytest.raises(ValueError, match="closed"):
        len(f)


def test_sizing():
    assert bf.SBBF(10**6, 0.01).nbytes == bf.sbbf_bytes(10**6, 0.01) == 1316160
    assert bf.SBBF(10**6, 0.01, sizing="parquet").nbytes == bf.sbbf_bytes(10**6, 0.01, "parquet")
    assert bf.size_for("bloom", 10**6, 0.01)["k"] == 7
    assert math.isclose(bf.sbbf_model_fpp(1316160, 10**6), 0.01, rel_tol=0.01)
    for cls, fam in ((bf.SBBF, "sbbf"), (bf.Bloom, "bloom"), (bf.Counting, "counting"),
                     (bf.Cuckoo, "cuckoo")):
        f = cls.from_bytes_budget(200_000, 100_000)
        assert f.nbytes <= 200_000, cls
        assert f.nbytes >= 150_000 or fam == "cuckoo", (cls, f.nbytes)
    with pytest.raises(ValueError, match="capacity"):
        bf.Bloom.from_bytes_budget(1000)
    assert bf.SBBF.from_bytes_budget(100).nbytes == 96
    assert not hasattr(bf.Scalable, "from_bytes_budget")


def test_kernels_give_the_same_bits():
    keys = np.arange(10000, dtype=np.int64)
    images = set()
    for k in bf.kernels():
        f = bf.SBBF(10000, 0.01, kernel=k)
        assert f.kernel == k
        f.add_many(keys)
        for i in range(100):
            f.add("s%d" % i)
        images.add(bytes(f.bitset))
    assert len(images) == 1


def test_bitset_is_a_readonly_view():
    f = bf.SBBF(100, 0.01)
    m = memoryview(f)
    assert m.readonly and len(m) == f.nbytes and not any(m)
    f.add(1)
    assert any(m)  # a live view
    with pytest.raises(BufferError):
        f.close()
    del m
    w = np.frombuffer(f, dtype="<u4")
    assert w.sum() > 0
    del w
    f.close()


def test_blocked_shapes():
    """Any blocked shape: keys, merge of equal shapes, the shape back from
    bytes, the rule a broken shape breaks."""
    for shape in ((32, 1, 1, 4), (64, 1, 1, 6), (256, 8, 8, 8), (512, 1, 1, 8), (512, 16, 2, 8)):
        b, s, z, k = shape
        f = bf.Blocked(5000, 0.01, block_bits=b, sectors=s, groups=z, k=k)
        assert f.shape == shape and ("shape=%d/%d/%d/%d" % shape) in repr(f)
        f.update(range(2000))
        assert all(i in f for i in range(2000))
        assert f.stats.k == k and f.family == "blocked"
        g = bf.Blocked(5000, 0.01, block_bits=b, sectors=s, groups=z, k=k)
        g.update(range(2000, 3000))
        h = f | g
        assert all(i in h for i in range(3000))
        back = bf.from_bytes(f.to_bytes())
        assert type(back) is bf.Blocked and back.shape == shape
        assert back.to_bytes() == f.to_bytes()
    assert bf.Blocked(1000, 0.01).shape[:3] == (512, 8, 2)
    with pytest.raises(ValueError, match="sectors of 32 or 64 bits"):
        bf.Blocked(1000, 0.01, block_bits=512, sectors=4, groups=1, k=4)
    with pytest.raises(ValueError, match="differ"):
        bf.Blocked(1000, 0.01, block_bits=64, sectors=1, groups=1, k=4) | \
            bf.Blocked(1000, 0.01, block_bits=64, sectors=2, groups=2, k=4)
    assert bf.statuses["ESHAPE"] == -20
