"""Parquet files: their footer, their Bloom filters, and row-group pruning.

    import blockfilter.parquet
    with blockfilter.parquet.open("events.parquet") as pf:
        for rg in pf.row_groups:
            print(rg.index, rg.num_rows, rg.chunks["id"].filter)
        hit = pf.prune("id", [1010, 1011])
        hit.row_groups          # the row groups that may hold any of the values
        hit.maybe               # per value, the row groups that may hold it

The file is mapped read-only and its footer parsed once; Bloom filters are
read-only SBBF views into the mapping (no copy). Values are typed by the
column as ``blockfilter parquet FILE --column C VALUE...`` types them, and
``prune`` answers exactly as that command does (``to_dict()`` is its
``--json`` output). See docs/parquet.md for what is read and how a row
group is judged.
"""

import datetime
import decimal
import json
import numbers
import os
import uuid
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

import numpy as np

from blockfilter import _core

STRICT = _core.PARQUET_STRICT
NO_STATS = _core.PARQUET_NO_STATS
NO_BLOOM = _core.PARQUET_NO_BLOOM

#: Verdict codes (bf_parquet_verdict) and the names the CLI prints.
MAYBE, SKIP_STATS, SKIP_BLOOM, SKIP_EMPTY = 0, 1, 2, 3
VERDICT_NAMES = ("maybe", "skip-stats", "skip-bloom", "skip-empty")

__all__ = ["open", "ParquetFile", "Column", "RowGroup", "Chunk", "FilterInfo", "Pruned",
           "MAYBE", "SKIP_STATS", "SKIP_BLOOM", "SKIP_EMPTY", "VERDICT_NAMES"]


def open(source) -> "ParquetFile":  # noqa: A001 (the module's verb, as io.open)
    """Open a Parquet file (a path, or its bytes in any buffer) read-only."""
    return ParquetFile(source)


@dataclass(frozen=True)
class Column:
    """A leaf column of the schema."""
    index: int
    path: str
    name: str
    physical_type: str
    type_length: int
    logical_type: str
    repetition: str
    order: str
    max_definition_level: int
    max_repetition_level: int
    converted_type: int
    bit_width: int
    signed: bool
    precision: int
    scale: int
    unit: Optional[str]
    utc: bool


@dataclass(frozen=True)
class FilterInfo:
    """A column chunk's Bloom filter: where it is and what its bits say."""
    offset: int
    length: int
    bitset_bytes: int
    fpp_at_distinct: Optional[float]
    bits_set: int
    fill_ratio: float
    est_distinct: float
    est_fpp: float


@dataclass(frozen=True)
class Chunk:
    """One column chunk's metadata. min and max are typed text (as the CLI
    prints them), min_raw and max_raw their PLAIN bytes."""
    column: str
    codec: str
    num_values: int
    compressed_bytes: int
    uncompressed_bytes: int
    null_count: Optional[int]
    distinct_count: Optional[int]
    min: Optional[str]
    max: Optional[str]
    min_raw: Optional[bytes] = field(repr=False)
    max_raw: Optional[bytes] = field(repr=False)
    stats_usable: bool
    filter: Optional[FilterInfo]
    filter_status: Optional[str]
    _min_json: Optional[str] = field(repr=False)
    _max_json: Optional[str] = field(repr=False)


@dataclass(frozen=True)
class RowGroup:
    index: int
    num_rows: int
    total_byte_size: int
    chunks: Dict[str, Chunk]


@dataclass
class Pruned:
    """The answer of ParquetFile.prune: which row groups may hold rows where
    the column equals each value."""
    column: str
    physical_type: str
    logical_type: str
    inputs: List[str]
    values: List[Optional[str]]
    verdicts: np.ndarray  # uint8, shape (len(values), number of row groups)

    @property
    def maybe(self) -> List[List[int]]:
        """Per value, the row groups that may hold it."""
        return [np.flatnonzero(v == MAYBE).tolist() for v in self.verdicts]

    @property
    def row_groups(self) -> List[int]:
        """The row groups to read for `column IN values`: those that may
        hold any of the values."""
        if self.verdicts.size == 0:
            return []
        return np.flatnonzero((self.verdicts == MAYBE).any(axis=0)).tolist()

    @property
    def summary(self) -> Dict[str, int]:
        """What the CLI's summary line says, as its --json does."""
        v = self.verdicts
        counts = [int((v == code).sum()) for code in range(4)]
        return {
            "values": int(v.shape[0]),
            "in_no_row_group": int((~(v == MAYBE).any(axis=1)).sum()),
            "row_group_probes": int(v.size),
            "skipped": counts[1] + counts[2] + counts[3],
            "skipped_stats": counts[1],
            "skipped_bloom": counts[2],
            "skipped_empty": counts[3],
        }

    def to_dict(self, file: Optional[str] = None) -> Dict[str, Any]:
        """The answer as `blockfilter parquet --json FILE --column C ...` prints it."""
        return {
            "file": file,
            "column": self.column,
            "physical_type": self.physical_type,
            "logical_type": self.logical_type,
            "row_groups": int(self.verdicts.shape[1]),
            "values": [
                {"input": text,
                 "value": None if value is None else json.loads(value),
                 "row_groups": rgs,
                 "verdicts": [VERDICT_NAMES[c] for c in row]}
                for text, value, rgs, row in zip(self.inputs, self.values, self.maybe,
                                                 self.verdicts.tolist())
            ],
            "summary": self.summary,
        }

    def __repr__(self) -> str:
        s = self.summary
        return (f"<Pruned {self.column}: {s['values']} values, row groups to read "
                f"{self.row_groups}, {s['skipped']} of {s['row_group_probes']} probes skipped "
                f"({s['skipped_stats']} statistics, {s['skipped_bloom']} Bloom, "
                f"{s['skipped_empty']} empty)>")


_FIXED = {"INT32": ("<i4", np.int32), "INT64": ("<i8", np.int64),
          "FLOAT": ("<f4", np.float32), "DOUBLE": ("<f8", np.float64)}


class ParquetFile:
    """A Parquet file opened read-only (blockfilter.parquet.open)."""

    def __init__(self, source):
        self._f = _core.ParquetFile(source)
        self.path = os.fspath(source) if isinstance(source, (str, os.PathLike)) else None
        info = self._f.info()
        self.created_by: Optional[str] = info["created_by"]
        self.version: int = info["version"]
        self.num_rows: int = info["num_rows"]
        self.file_bytes: int = info["file_bytes"]
        self.footer_bytes: int = info["footer_bytes"]
        self.metadata: Dict[bytes, Optional[bytes]] = dict(info["metadata"])
        self.num_row_groups: int = info["num_row_groups"]
        self.columns: List[Column] = [Column(**self._f.column(i))
                                      for i in range(info["num_columns"])]
        self._row_groups: Optional[List[RowGroup]] = None

    # -- the footer -------------------------------------------------------
    def column(self, column) -> Column:
        """A column by dotted path or index; ValueError naming the columns
        when there is no such column."""
        if isinstance(column, numbers.Integral) and not isinstance(column, bool):
            if 0 <= column < len(self.columns):
                return self.columns[column]
        elif isinstance(column, str):
            i = self._f.find_column(column)
            if i is not None:
                return self.columns[i]
        names = ", ".join(c.path for c in self.columns)
        raise ValueError(f"no column {column!r} (the columns are: {names})")

    @property
    def row_groups(self) -> List[RowGroup]:
        """Every row group with its column chunks (read on first use)."""
        if self._row_groups is None:
            self._row_groups = [self._row_group(rg) for rg in range(self.num_row_groups)]
        return self._row_groups

    def _row_group(self, rg: int) -> RowGroup:
        info = self._f.row_group(rg)
        chunks = {}
        for col in self.columns:
            c = self._f.chunk(rg, col.index)
            fi = self._f.filter_info(rg, col.index)
            filt, status = None, fi["status"]
            if status is None:
                nd = c["distinct_count"]
                filt = FilterInfo(
                    offset=fi["offset"], length=fi["length"], bitset_bytes=fi["bitset_bytes"],
                    fpp_at_distinct=(_core.sbbf_model_fpp(fi["bitset_bytes"], nd)
                                     if nd is not None and nd >= 0 else None),
                    bits_set=fi.get("bits_set", 0), fill_ratio=fi.get("fill_ratio", 0.0),
                    est_distinct=fi.get("est_distinct", 0.0), est_fpp=fi.get("est_fpp", 0.0))
            chunks[col.path] = Chunk(
                column=col.path, codec=c["codec"], num_values=c["num_values"],
                compressed_bytes=c["compressed_bytes"], uncompressed_bytes=c["uncompressed_bytes"],
                null_count=c["null_count"], distinct_count=c["distinct_count"],
                min=c["min"], max=c["max"], min_raw=c["min_raw"], max_raw=c["max_raw"],
                stats_usable=c["stats_usable"], filter=filt, filter_status=status,
                _min_json=c["min_json"], _max_json=c["max_json"])
        return RowGroup(index=rg, num_rows=info["num_rows"],
                        total_byte_size=info["total_byte_size"], chunks=chunks)

    def bloom_filter(self, row_group: int, column):
        """The chunk's Bloom filter as a read-only SBBF view into the file,
        or None when it has none. The file stays mapped while views live."""
        return self._f.bloom_filter(row_group, self.column(column).index)

    def to_dict(self) -> Dict[str, Any]:
        """The listing as `blockfilter parquet --json FILE` prints it."""
        cols = []
        for c in self.columns:
            d = {"index": c.index, "path": c.path, "physical_type": c.physical_type,
                 "type_length": c.type_length, "logical_type": c.logical_type,
                 "repetition": c.repetition, "order": c.order}
            if c.logical_type == "INTEGER":
                d.update(bit_width=c.bit_width, signed=c.signed)
            if c.logical_type == "DECIMAL":
                d.update(precision=c.precision, scale=c.scale)
            if c.logical_type in ("TIMESTAMP", "TIME"):
                d.update(unit=c.unit, utc=c.utc)
            cols.append(d)
        rgs = []
        for rg in self.row_groups:
            chunks = []
            for c in rg.chunks.values():
                d = {"column": c.column, "codec": c.codec, "num_values": c.num_values,
                     "compressed_bytes": c.compressed_bytes, "null_count": c.null_count,
                     "distinct_count": c.distinct_count,
                     "min": None if c._min_json is None else json.loads(c._min_json),
                     "max": None if c._max_json is None else json.loads(c._max_json),
                     "stats_usable": c.stats_usable}
                if c.filter is not None:
                    f = c.filter
                    d["filter"] = {"offset": f.offset, "length": f.length,
                                   "bitset_bytes": f.bitset_bytes,
                                   "fpp_at_distinct": f.fpp_at_distinct,
                                   "bits_set": f.bits_set, "fill_ratio": f.fill_ratio,
                                   "est_distinct": f.est_distinct, "est_fpp": f.est_fpp}
                else:
                    d["filter"] = None
                    d["filter_status"] = c.filter_status
                chunks.append(d)
            rgs.append({"index": rg.index, "num_rows": rg.num_rows,
                        "total_byte_size": rg.total_byte_size, "chunks": chunks})
        return {"file": self.path, "created_by": self.created_by, "version": self.version,
                "num_rows": self.num_rows, "file_bytes": self.file_bytes,
                "footer_bytes": self.footer_bytes, "columns": cols, "row_groups": rgs}

    # -- values and pruning -----------------------------------------------
    def value(self, column, value, *, hex: bool = False) -> bytes:
        """A value's PLAIN bytes for the column, typed as the CLI types text:
        str is parsed by the column's logical type ('2024-03-01' for a DATE,
        '-12.50' for a DECIMAL, the string itself for STRING; hex=True reads
        byte arrays as 0x hex); int, float, bool, date, datetime, time,
        Decimal and UUID become that text; bytes are taken as PLAIN bytes."""
        col = self.column(column)
        return self._plain(col, value, hex)

    def _plain(self, col: Column, v, hex: bool) -> bytes:
        if isinstance(v, (bytes, bytearray, memoryview)):
            return bytes(v)
        text = _text_of(v)
        try:
            return self._f.value_from_text(col.index, text, hex)
        except ValueError as e:
            if getattr(e, "status", None) != _core.statuses["EINVAL"]:
                raise
            lt = "" if col.logical_type == "NONE" else " " + col.logical_type
            shown = text if len(text) <= 80 else text[:80] + "..."
            err = ValueError(f"{shown!r} is not a valid value for column {col.path} "
                             f"({col.physical_type}{lt})")
            err.status = e.status
            raise err from None

    def prune(self, column, values, *, stats: bool = True, bloom: bool = True,
              strict: bool = False, hex: bool = False) -> Pruned:
        """Which row groups may hold rows where `column` equals each value
        (see value() for how values are typed). A row group is skipped only
        by min/max statistics valid for the column's order or by its Bloom
        filter; stats=False or bloom=False turn either off; strict=True
        raises for a filter that cannot be read instead of answering maybe.
        A NumPy array of the column's own width (int32 for INT32, int64 for
        INT64, float32, float64) is probed in place."""
        col = self.column(column)
        flags = ((0 if stats else NO_STATS) | (0 if bloom else NO_BLOOM)
                 | (STRICT if strict else 0))
        nrg = self.num_row_groups
        fixed = _FIXED.get(col.physical_type)
        if (isinstance(values, np.ndarray) and fixed is not None and values.ndim == 1
                and values.dtype.kind in "iuf" and values.dtype.itemsize == np.dtype(fixed[0]).itemsize
                and (values.dtype.kind == "f") == (fixed[0][1] == "f")):
            packed = np.ascontiguousarray(values, dtype=fixed[0])
            n = len(packed)
            raw = self._f.probe_packed(col.index, packed, n, flags)
            inputs = [_text_of(x) for x in values.tolist()]
            plains = [p.tobytes() for p in packed]
        else:
            if isinstance(values, (str, bytes)):
                raise TypeError("values must be a list (or array) of values, not one "
                                + type(values).__name__)
            seq = list(values)
            plains = [self._plain(col, v, hex) for v in seq]
            inputs = [v if isinstance(v, str) else
                      ("0x" + bytes(v).hex() if isinstance(v, (bytes, bytearray, memoryview))
                       else _text_of(v)) for v in seq]
            n = len(plains)
            raw = self._f.probe(col.index, plains, flags)
        verdicts = np.frombuffer(raw, dtype=np.uint8).reshape(nrg, n).T.copy()
        texts = [self._f.value_to_text(col.index, p, True) for p in plains]
        return Pruned(column=col.path, physical_type=col.physical_type,
                      logical_type=col.logical_type, inputs=inputs, values=texts,
                      verdicts=verdicts)

    def hash(self, column, value, *, hex: bool = False) -> int:
        """Parquet's Bloom filter hash of a value of the column."""
        col = self.column(column)
        return self._f.hash_value(col.index, self._plain(col, value, hex))

    # -- life --------------------------------------------------------------
    def close(self) -> None:
        """Unmaps the file (once no Bloom filter view of it is alive)."""
        self._f.close()

    @property
    def closed(self) -> bool:
        return self._f.closed

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self) -> str:
        where = repr(self.path) if self.path else "(buffer)"
        state = " closed" if self.closed else ""
        return (f"<blockfilter.parquet.ParquetFile {where}: {self.num_rows} rows, "
                f"{self.num_row_groups} row groups, {len(self.columns)} columns{state}>")


def _text_of(v) -> str:
    """A Python value as the text the library parses for a column."""
    if isinstance(v, str):
        return v
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    if isinstance(v, numbers.Integral):
        return str(int(v))
    if isinstance(v, decimal.Decimal):
        return format(v, "f")
    if isinstance(v, numbers.Real):
        return repr(float(v))
    if isinstance(v, datetime.datetime):
        if v.tzinfo is not None:
            v = v.astimezone(datetime.timezone.utc).replace(tzinfo=None)
            return v.isoformat() + "Z"
        return v.isoformat()
    if isinstance(v, (datetime.date, datetime.time)):
        return v.isoformat()
    if isinstance(v, uuid.UUID):
        return str(v)
    raise TypeError(f"cannot use a {type(v).__name__} as a Parquet value "
                    "(str, bytes, int, float, bool, Decimal, date, datetime, time, UUID)")

