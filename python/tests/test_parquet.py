"""blockfilter.parquet against the command-line tool and the fixtures."""
import datetime
import decimal
import json
import math
import subprocess

import numpy as np
import pytest

import blockfilter as bf
import blockfilter.parquet as bpq

PRESENT = ["Hello", "This is", "a", "test", "How", "are you", "doing ", "today", "the quick",
           "brown fox", "jumps", "over", "the lazy", "dog"]
ABSENT = ["b", "c", "d", "NOT_EXISTS", "Hello_Not_Exists", "hello", "doing", "the", "quick",
          "Today", "", "cat", "fox", "HELLO", "This", "is"]


def fixtures(data):
    return sorted((data / "parquet").glob("*.parquet"))


def close(a, b):
    """Equal, floats to the CLI's printed precision (%.6g, %.1f)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(close(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(close(x, y) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        return math.isclose(a, b, rel_tol=2e-5, abs_tol=0.06)
    return a == b


def cli_json(cli, *args):
    r = subprocess.run([cli, "parquet", "--json", *args], capture_output=True, text=True)
    # On an error (exit 2) the output may stop part way.
    out = json.loads(r.stdout) if r.stdout and r.returncode != 2 else None
    return r.returncode, out, r.stderr


def test_listing_is_the_clis(cli, data):
    for p in fixtures(data):
        rc, want, err = cli_json(cli, str(p))
        assert rc == 0, err
        with bpq.open(str(p)) as pf:
            assert close(pf.to_dict(), want), p.name


def candidate_values(pf, col):
    """Texts to probe a column with: every chunk's min and max, and some
    that may not parse for the column's type."""
    vals = []
    for rg in pf.row_groups:
        c = rg.chunks[col.path]
        vals += [v for v in (c.min, c.max) if v is not None]
    return vals + ["0", "1", "-1", "254", "1011", "nan", "-0", "inf", "2020-01-01",
                   "2022-09-28", "Hello", "zzz", "key-00100", "63.5", "true", "0x00"]


def test_prune_is_the_clis(cli, data):
    for p in fixtures(data):
        with bpq.open(p) as pf:
            for col in pf.columns:
                for flags in ([], ["--no-stats"], ["--no-bloom"]):
                    ok, bad = [], []
                    for v in candidate_values(pf, col):
                        try:
                            pf.value(col.path, v)
                            ok.append(v)
                        except ValueError:
                            bad.append(v)
                    kw = {"stats": "--no-stats" not in flags, "bloom": "--no-bloom" not in flags}
                    rc, want, err = cli_json(cli, *flags, str(p), "--column", col.path, "--", *ok)
                    got = pf.prune(col.path, ok, **kw)
                    assert rc == (1 if got.summary["in_no_row_group"] else 0), err
                    assert got.to_dict(str(p)) == want, (p.name, col.path, flags)
                    for v in bad[:3]:
                        rc, _, err = cli_json(cli, str(p), "--column", col.path, "--", v)
                        assert rc == 2 and "not a valid value" in err


def test_known_values(data):
    for name in ("data_index_bloom_encoding_stats.parquet",
                 "data_index_bloom_encoding_with_length.parquet"):
        pf = bpq.open(data / "parquet" / name)
        assert pf.prune("String", PRESENT).row_groups == [0]
        r = pf.prune("String", ABSENT)
        assert all(m == [] for m in r.maybe), name
        f = pf.bloom_filter(0, "String")
        assert all(w in f for w in PRESENT) and not any(w in f for w in ABSENT[:5])
        assert f.readonly and pf.row_groups[0].chunks["String"].filter.bitset_bytes == f.nbytes


def test_duckdb_file_typed_values(data):
    pf = bpq.open(data / "parquet" / "duckdb_bloom.parquet")
    assert [c.path for c in pf.columns] == ["id", "s", "d", "dt"]
    assert pf.prune("id", [1010, 1011]).maybe == [[1], []]
    assert pf.prune("id", np.array([1010, 1011, 0], dtype=np.int64)).maybe == [[1], [], [0]]
    assert pf.prune("id", np.array([1010], dtype=np.int32)).maybe == [[1]]  # converted
    r = pf.prune("dt", [datetime.date(2020, 1, 1), "2021-01-01", "2022-09-28", "2022-09-29"])
    assert r.maybe == [[0], [], [], [1]]
    assert r.row_groups == [0, 1]
    assert r.summary == {"values": 4, "in_no_row_group": 2, "row_group_probes": 12,
                         "skipped": 10, "skipped_stats": 9, "skipped_bloom": 1,
                         "skipped_empty": 0}
    assert pf.prune("d", [63.5, 0.0, -0.0]).maybe[0] == [0]
    assert pf.prune("s", ["key-00000", b"key-00000"]).maybe == [[0], [0]]
    assert pf.hash("id", 5) == bf.hash(5)
    with pytest.raises(ValueError, match="no column 'nope'.*id, s, d, dt"):
        pf.prune("nope", [1])
    with pytest.raises(ValueError, match="not a valid value for column id"):
        pf.prune("id", ["twelve"])
    with pytest.raises(TypeError):
        pf.prune("id", 5 and "5")
    with pytest.raises(TypeError):
        pf.value("id", object())
    assert pf.value("dt", datetime.date(2020, 1, 2)) == (18263).to_bytes(4, "little")
    assert pf.value("id", decimal.Decimal("7")) == (7).to_bytes(8, "little")


def test_open_errors_and_buffers(tmp_path, data):
    enc = data / "parquet" / "encrypt_columns_and_footer_bloom_filter.parquet.encrypted"
    with pytest.raises(ValueError, match="encrypted") as e:
        bpq.open(enc)
    assert e.value.status == bf.statuses["EENCRYPTED"]
    junk = tmp_path / "x.parquet"
    junk.write_bytes(b"not a Parquet file, not at all")
    with pytest.raises(ValueError, match="not a Parquet file"):
        bpq.open(junk)
    with pytest.raises(FileNotFoundError):
        bpq.open(tmp_path / "missing.parquet")
    raw = (data / "parquet" / "duckdb_bloom.parquet").read_bytes()
    with pytest.raises(ValueError, match="truncated|not a Parquet"):
        bpq.open(raw[:-20] + raw[-4:])
    pf = bpq.open(raw)
    assert pf.path is None and pf.num_rows == 6144
    v = pf.bloom_filter(0, "id")
    pf.close()
    assert pf.closed and 0 in v  # the view keeps the buffer
    with pytest.raises(ValueError, match="closed"):
        pf.prune("id", [1])
