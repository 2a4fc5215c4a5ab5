"""Batch calls: typed arrays in place, Arrow binary, sequences, answers."""
import array

import numpy as np
import pytest

import blockfilter as bf


def single(f, keys):
    return np.array([k in f for k in keys], dtype=bool)


@pytest.mark.parametrize("dtype", ["int32", "int64", "uint32", "uint64", "float32", "float64",
                                   "int8", "uint8", "int16", "uint16", "bool"])
@pytest.mark.parametrize("cls", [bf.SBBF, bf.Bloom, bf.Scalable])
def test_typed_arrays_match_single_keys(cls, dtype):
    rng = np.random.default_rng(3)
    a = (rng.integers(0, 100, 3000) if dtype == "bool" else
         rng.integers(-1000, 1000, 3000) if dtype.startswith("int") else
         rng.integers(0, 2000, 3000) if dtype.startswith("uint") else
         rng.normal(size=3000)).astype(dtype)
    f = cls(5000, 0.01)
    f.add_many(a)
    g = cls(5000, 0.01)
    for x in a:          # NumPy scalars: hashed as their dtype, as in the array
        g.add(x)
    assert f.to_bytes()[64:] == g.to_bytes()[64:]
    probe = np.concatenate([a, (a + 1).astype(dtype)])
    got = f.contains_many(probe)
    assert got.dtype == np.bool_ and got.shape == probe.shape
    assert got[:len(a)].all()
    assert (got == single(f, probe)).all()


def test_ints_as_python_values():
    # A NumPy int64 array and a list of the same Python ints give one filter.
    a = np.arange(-500, 500, dtype=np.int64)
    f, g = bf.SBBF(1000, 0.01), bf.SBBF(1000, 0.01)
    f.add_many(a)
    g.add_many(a.tolist())
    assert bytes(f.bitset) == bytes(g.bitset)
    # int32 arrays are Parquet INT32: other hashes than the same ints as INT64.
    h = bf.SBBF(1000, 0.01)
    h.add_many(a.astype(np.int32))
    assert bytes(h.bitset) != bytes(f.bitset)


def test_no_copy_and_strided_and_shaped():
    a = np.arange(20000, dtype=np.int64)
    f = bf.SBBF(20000, 0.01)
    f.add_many(a[::2])                       # strided: copied once
    got = f.contains_many(a.reshape(100, 200))
    assert got.shape == (100, 200)
    assert got.reshape(-1)[::2].all()
    fortran = np.asfortranarray(a.reshape(100, 200))
    assert (f.contains_many(fortran) == f.contains_many(np.ascontiguousarray(fortran))).all()
    out = np.zeros(20000, dtype=bool)
    r = f.contains_many(a, out=out)
    assert r is out and out[::2].all()
    with pytest.raises(ValueError, match="out must be"):
        f.contains_many(a, out=np.zeros(5, dtype=bool))
    with pytest.raises(ValueError, match="out must be"):
        f.contains_many(a, out=np.zeros(20000, dtype=np.int32))
    # array.array and memoryview work as NumPy arrays do
    g = bf.SBBF(100, 0.01)
    g.add_many(array.array("q", [1, 2, 3]))
    assert g.contains_many(memoryview(array.array("q", [1, 2, 4]))).tolist() == [True, True, False]


def test_arrow_binary():
    words = [b"apple", b"", b"pear", "пингвин".encode(), b"x" * 300]
    data = b"".join(words)
    offs = np.cumsum([0] + [len(w) for w in words])
    for odt in (np.int32, np.int64):
        for cls in (bf.SBBF, bf.Bloom, bf.Counting):
            f = cls(100, 0.001)
            f.add_many(data, offsets=offs.astype(odt))
            assert all(w in f for w in words)
            got = f.contains_many(np.frombuffer(data, np.uint8), offs.astype(odt))
            assert got.all()
            other = f.contains_many(b"zzzzz", np.array([0, 1, 5], dtype=odt))
            assert other.shape == (2,)
    f = bf.SBBF(100, 0.01)
    with pytest.raises(ValueError, match="past the end"):
        f.add_many(b"abc", offsets=np.array([0, 4], dtype=np.int32))
    with pytest.raises(ValueError, match="never decrease"):
        f.add_many(b"abc", offsets=np.array([0, 2, 1, 3], dtype=np.int64))
    with pytest.raises(ValueError, match="never decrease"):
        f.contains_many(b"abc", offsets=np.array([-1, 3], dtype=np.int32))
    with pytest.raises(TypeError, match="int32 or int64"):
        f.add_many(b"abc", offsets=np.array([0, 3], dtype=np.float64))
    with pytest.raises(ValueError, match="n \\+ 1"):
        f.add_many(b"abc", offsets=np.array([], dtype=np.int32))
    assert f.contains_many(b"", np.array([0], dtype=np.int32)).shape == (0,)


def test_sequences_and_iterables():
    f = bf.SBBF(1000, 0.01)
    f.add_many(["a", b"b", 3, 4.5, np.int32(6)])
    assert f.contains_many(("a", b"b", 3, 4.5, np.int32(6))).all()
    f.update((str(i) for i in range(100)), [b"x", b"y"])
    assert f.contains_many([str(i) for i in range(100)]).all()
    assert f.contains_many(np.array(["a", "0", "99"])).all()          # NumPy str array
    assert f.contains_many(np.array([b"x", b"y"], dtype="S1")).all()   # NumPy bytes array
    assert f.contains_many([]).shape == (0,)
    f.add_many(np.array([], dtype=np.int64))
    for bad in ("abc", b"abc", bytearray(b"abc")):
        with pytest.raises(TypeError, match="one key"):
            f.add_many(bad)
    with pytest.raises(TypeError):
        f.add_many([object()])
    with pytest.raises(TypeError):
        f.add_many(5)
    with pytest.raises(TypeError, match="byte order"):
        f.add_many(np.arange(3, dtype=">i8"))


def test_hash_many_matches_hash():
    a = np.arange(100, dtype=np.int64)
    h = bf.hash_many(a, seed=11)
    assert h.dtype == np.uint64
    assert h.tolist() == [bf.hash(int(x), seed=11) for x in a]
    words = ["a", "bb", "ccc"]
    data = "".join(words).encode()
    offs = np.array([0, 1, 3, 6], dtype=np.int32)
    assert bf.hash_many(data, offs).tolist() == [bf.hash(w) for w in words]


def test_large_batch_releases_gil_and_agrees():
    # Large enough for the batch to run without the GIL.
    a = np.arange(200_000, dtype=np.int64)
    f = bf.SBBF(200_000, 0.01)
    f.add_many(a)
    assert f.contains_many(a).all()
    fp = f.contains_many(a + 10**12).mean()
    assert 0.005 < fp < 0.02
