"""blockfilter.compat.BloomFilter: pybloomfiltermmap3's constructor, methods
and properties over the SBBF."""
import os
import pickle

import pytest

import blockfilter as bf
from blockfilter.compat import BloomFilter


def test_in_memory():
    f = BloomFilter(1000, 0.01)
    assert f.add("apple") is False and f.add("apple") is True
    for k in ("", b"bytes", 0, 10, True, 1.5, (1, 2), frozenset([3])):
        f.add(k)
        assert k in f
    f.update(["pear", "fig"])
    assert len(f) == 11 and f.approx_len > 0
    assert f.capacity == 1000 and f.error_rate == 0.01 and f.num_hashes == 8
    assert f.num_bits == bf.sbbf_bytes(1000, 0.01) * 8
    assert f.bit_count == bin(f.bit_array).count("1") == f.bit_count
    assert repr(f) == "<BloomFilter capacity: 1000, error: 0.010, num_hashes: 8>" == str(f)
    g = pickle.loads(pickle.dumps(f))
    assert "apple" in g and g.capacity == 1000 and g.data_array == f.data_array
    with pytest.raises(NotImplementedError):
        f.filename
    with pytest.raises(NotImplementedError):
        f.copy("/tmp/never")
    f.clear_all()
    assert "apple" not in f and len(f) == 0 and f.bit_count == 0
    f.close()
    with pytest.raises(ValueError, match="closed"):
        "apple" in f


def test_file_backed(tmp_path):
    p = str(tmp_path / "words.bloom")
    f = BloomFilter(500, 0.001, p, perm=0o640)
    f.update("w%d" % i for i in range(100))
    f.sync()
    assert oct(os.stat(p).st_mode & 0o777) == oct(0o640 & ~_umask())
    assert type(bf.load(p)) is bf.SBBF  # the file is blockfilter's native format
    ro = BloomFilter.open(p, "r")
    assert ro.read_only and "w5" in ro and ro.filename == p and ro.name == p.encode()
    for call in (lambda: ro.add("x"), lambda: ro.update(["x"]), ro.sync, ro.clear_all,
                 lambda: ro.union(f), lambda: ro.intersection(f)):
        with pytest.raises(ValueError, match="read-only"):
            call()
    rw = BloomFilter.open(p)
    rw.add("late")
    rw.close()  # written back
    assert "late" in BloomFilter.open(p, "r")
    c = f.copy(str(tmp_path / "copy.bloom"))
    assert "w7" in c and c.capacity == 500 and c.error_rate == 0.001
    t = f.copy_template(str(tmp_path / "t.bloom"))
    assert t.num_bits == f.num_bits and "w7" not in t
    t.add("only-t")
    t |= f
    assert "w7" in t and "only-t" in t
    t &= f
    assert "w7" in t
    s = f.to_base64()
    back = BloomFilter.from_base64(str(tmp_path / "b64.bloom"), s, perm=0o600)
    assert "w9" in back and back.capacity == 500 and back.error_rate == 0.001
    with pytest.raises(OSError):
        BloomFilter.open(str(tmp_path / "missing.bloom"))
    with pytest.raises(OSError):
        BloomFilter(10, 0.1, str(tmp_path / "no" / "dir.bloom"))
    with pytest.raises(ValueError, match="not the same type"):
        f.union(BloomFilter(10**5, 0.01))


def test_written_when_collected(tmp_path):
    p = str(tmp_path / "gc.bloom")
    f = BloomFilter(100, 0.01, p)
    f.add("kept")
    del f
    assert "kept" in BloomFilter.open(p, "r")


def test_constructor_checks():
    with pytest.raises(ValueError, match="error_rate"):
        BloomFilter(100, 0)
    with pytest.raises(ValueError, match="hash seed"):
        BloomFilter(100, 0.1, hash_seeds=[-1])
    f = BloomFilter(100, 0.1, hash_seeds=[1, 2, 3])
    assert f.hash_seeds.tolist() == [1, 2, 3]
    f.add("x")
    g = BloomFilter(100, 0.1, hash_seeds=[1, 2, 3], data_array=f.data_array)
    assert "x" in g and g.bit_array == f.bit_array
    with pytest.raises(ValueError, match="data_array"):
        BloomFilter(100, 0.1, "f.bloom", data_array=b"\0" * 32)


def _umask():
    m = os.umask(0)
    os.umask(m)
    return m
