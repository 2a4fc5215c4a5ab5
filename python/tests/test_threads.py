"""Threads: batch calls release the GIL; a write never overlaps another
call on the same filter, so no insert is lost and nothing crashes."""
import threading

import numpy as np
import pytest

import blockfilter as bf


def run_threads(targets):
    errors = []

    def wrap(fn):
        def go():
            try:
                fn()
            except Exception as e:  # pragma: no cover - reported below
                errors.append(e)
        return go

    ts = [threading.Thread(target=wrap(t)) for t in targets]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors, errors


@pytest.mark.parametrize("cls", [bf.SBBF, bf.Bloom, bf.Counting, bf.Scalable])
def test_readers_and_writers_lose_nothing(cls):
    f = cls(50_000 if cls is not bf.Scalable else 1000, 0.01)
    base = np.arange(20_000, dtype=np.int64)
    f.add_many(base)
    stop = threading.Event()

    def reader():
        while not stop.is_set():
            assert f.contains_many(base).all()

    def batch_writer():
        for i in range(10):
            f.add_many(np.arange(10**6 + i * 3000, 10**6 + (i + 1) * 3000, dtype=np.int64))

    def single_writer():
        for i in range(3000):
            f.add("s%d" % i)

    readers = [reader] * 3
    ws = threading.Thread(target=lambda: (batch_writer(), single_writer(), stop.set()))
    ws.start()
    run_threads(readers)
    ws.join()
    assert f.contains_many(np.arange(10**6, 10**6 + 30_000, dtype=np.int64)).all()
    assert f.contains_many(["s%d" % i for i in range(3000)]).all()


def test_concurrent_batch_writers_lose_nothing():
    f = bf.SBBF(400_000, 0.01)
    parts = [np.arange(i * 100_000, (i + 1) * 100_000, dtype=np.int64) for i in range(4)]
    run_threads([lambda p=p: f.add_many(p) for p in parts])
    g = bf.SBBF(400_000, 0.01)
    g.add_many(np.concatenate(parts))
    assert bytes(f.bitset) == bytes(g.bitset)


def test_merge_both_ways_does_not_deadlock():
    a, b = bf.SBBF(2_000_000, 0.01), bf.SBBF(2_000_000, 0.01)  # large: merges drop the GIL
    a.add_many(np.arange(1000, dtype=np.int64))
    b.add_many(np.arange(1000, 2000, dtype=np.int64))

    def ab():
        for _ in range(20):
            a.__ior__(b)

    def ba():
        for _ in range(20):
            b.__ior__(a)

    run_threads([ab, ba])
    assert a.contains_many(np.arange(2000)).all()


def test_close_while_others_query():
    f = bf.SBBF(1_000_000, 0.01)
    keys = np.arange(1_000_000, dtype=np.int64)
    f.add_many(keys)
    outcomes = []

    def reader():
        try:
            while True:
                f.contains_many(keys)
        except ValueError as e:
            outcomes.append(str(e))

    ts = [threading.Thread(target=reader) for _ in range(2)]
    for t in ts:
        t.start()
    f.close()
    for t in ts:
        t.join()
    assert outcomes == ["operation on a closed filter"] * 2
