"""A drop-in for pybloomfiltermmap3's BloomFilter.

    from blockfilter.compat import BloomFilter      # was: from pybloomfilter import BloomFilter

    bf = BloomFilter(1_000_000, 0.01, "words.bloom")
    bf.add("apple")            # False: it was not there before
    "apple" in bf              # True
    bf.update(["pear", "fig"])
    len(bf)                    # 3
    bf.close()
    bf = BloomFilter.open("words.bloom", "r")   # read-only, mapped

The constructor, methods and properties are pybloomfiltermmap3's (0.6), so
scripts written for it run unchanged; underneath is blockfilter's SBBF.

What differs (docs/python.md, "The pybloomfiltermmap3 drop-in"):
  - The files are blockfilter's native format, not pybloomfiltermmap3's:
    neither library reads the other's files.
  - A file-backed filter is held in memory and written to its file (whole,
    atomically) by sync(), close(), when the object is collected and at
    interpreter exit, not through a shared mapping: other processes see
    changes after those calls, and a crash loses changes since the last.
  - open() restores the bits, not capacity, error_rate or the exact count:
    capacity and error_rate are None and len() is the estimate.
  - Hashing is XXH64 with seed 0 (Parquet's hash); hash_seeds are kept and
    reported but not used, so any two filters of the same size can be
    unioned. Keys other than str, bytes, int and float are hashed as
    hash(key), as pybloomfiltermmap3 does.
  - num_hashes is 8: the SBBF sets one bit in each of eight 32-bit words.
"""

import array
import base64
import os
import shutil
import weakref
import zlib

import numpy as np

from blockfilter import _core

__all__ = ["BloomFilter"]

_KEY_TYPES = (str, bytes, int, float)
_B64_HEAD = b"blockfilter-compat-1"


def _key(item):
    return item if isinstance(item, _KEY_TYPES) else hash(item)


def _flush(holder):
    """Writes a file-backed filter to its file (finalizer; holder is
    [filter, path, writable])."""
    f, path, writable = holder
    if f is not None and path and writable and not f.closed:
        f.save(path)


class BloomFilter:
    """BloomFilter(capacity, error_rate, filename=None, perm=0o755,
    hash_seeds=None, data_array=None): pybloomfiltermmap3's constructor."""

    ReadOnlyError = ValueError

    def __init__(self, capacity, error_rate, filename=None, perm=0o755, hash_seeds=None,
                 data_array=None):
        if data_array is not None and filename:
            raise ValueError("data_array cannot be used for an mmapped filter.")
        if not (0 < error_rate < 1):
            raise ValueError("error_rate allowable range (0.0, 1.0) %f" % (error_rate,))
        if hash_seeds:
            for seed in hash_seeds:
                if not isinstance(seed, int) or seed < 0 or seed.bit_length() > 32:
                    raise ValueError("invalid hash seed '%s', must be >= 0 "
                                     "and up to 32 bits in size" % seed)
        if data_array is not None:
            f = _core.SBBF.from_bitset(bytes(data_array))
        else:
            f = _core.SBBF(max(int(capacity), 1), float(error_rate))
        self._setup(f, capacity, error_rate, filename, hash_seeds, writable=True, perm=perm)
        self._count = 0
        self._count_correct = data_array is None
        if filename:
            if os.path.exists(filename):
                os.unlink(filename)
            try:
                self.sync()
            except BaseException:
                self._finalizer.detach()
                raise

    def _setup(self, f, capacity, error_rate, filename, hash_seeds, writable, perm=None):
        self._f = f
        self._capacity = capacity
        self._error_rate = error_rate
        self._filename = os.fspath(filename) if filename else None
        self._hash_seeds = list(hash_seeds or [])
        self._writable = writable
        self._perm = perm
        self._closed = False
        self._holder = [f, self._filename, writable]
        self._finalizer = weakref.finalize(self, _flush, self._holder)

    # -- pybloomfiltermmap3's class methods -------------------------------
    @classmethod
    def open(cls, filename, mode="rw"):
        """A filter saved by this class (or by blockfilter's save()):
        mode 'r' maps it read-only; 'rw' loads it, written back by sync()
        and close()."""
        mode = mode.replace("+", "")
        if not os.path.exists(filename):
            raise OSError(2, "%s: %s" % (os.strerror(2), filename))
        writable = "w" in mode
        if not os.access(filename, os.R_OK | (os.W_OK if writable else 0)):
            raise OSError("Insufficient permissions for file %s" % filename)
        try:
            f = _core.SBBF.load(filename) if writable else _core.SBBF.open(filename)
        except ValueError as e:
            raise ValueError("Invalid %s file: %s (%s)" % (cls.__name__, filename, e)) from None
        self = cls.__new__(cls)
        perm = os.stat(filename).st_mode & 0o7777
        self._setup(f, f.capacity, f.error_rate, filename, None, writable, perm if writable else None)
        self._count = 0
        self._count_correct = False
        return self

    @classmethod
    def from_base64(cls, filename, string, perm=0o755):
        """Unpacks to_base64()'s string into filename and opens it."""
        data = zlib.decompress(base64.b64decode(zlib.decompress(base64.b64decode(string))))
        capacity = error_rate = None
        if data.startswith(_B64_HEAD):
            line, data = data.split(b"\n", 1)
            fields = line.split(b" ")
            capacity = None if fields[1] == b"-" else int(fields[1])
            error_rate = None if fields[2] == b"-" else float(fields[2])
        fd = os.open(filename, os.O_RDWR | os.O_CREAT | os.O_TRUNC, perm)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)
        self = cls.open(filename)
        self._capacity, self._error_rate = capacity, error_rate
        return self

    # -- keys ---------------------------------------------------------------
    def add(self, item):
        """Adds item; returns whether it was (maybe) present before."""
        self._assert_open()
        self._assert_writable()
        k = _key(item)
        f = self._f
        present = k in f
        if not present:
            f.add(k)
            self._count += 1
        return present

    def __contains__(self, item):
        self._assert_open()
        return _key(item) in self._f

    def update(self, iterable):
        """Calls add() on every item."""
        for item in iterable:
            self.add(item)

    def __len__(self):
        """The number of distinct items added (an estimate after union,
        intersection, open or data_array)."""
        self._assert_open()
        if not self._count_correct:
            return self.approx_len
        return self._count

    # -- set operations ----------------------------------------------------
    def union(self, other):
        """In place: self |= other (same size required)."""
        self._assert_open()
        self._assert_writable()
        other._assert_open()
        self._assert_comparable(other)
        self._f |= other._f
        self._count_correct = False
        return self

    __ior__ = union

    def intersection(self, other):
        """In place: self &= other (the AND of the bitsets)."""
        self._assert_open()
        self._assert_writable()
        other._assert_open()
        self._assert_comparable(other)
        bits = np.frombuffer(self._f, dtype=np.uint8) & np.frombuffer(other._f, dtype=np.uint8)
        self._replace(_core.SBBF.from_bitset(bits))
        self._count_correct = False
        return self

    __iand__ = intersection

    def _replace(self, f):
        self._f.close()
        self._f = f
        self._holder[0] = f

    def _assert_comparable(self, other):
        if not isinstance(other, BloomFilter) or self._f.nbytes != other._f.nbytes:
            raise ValueError("The two %s objects are not the same type (hint: "
                             "use copy_template)" % self.__class__.__name__)

    # -- copies and files ----------------------------------------------------
    def copy_template(self, filename, perm=0o755):
        """An empty filter of the same size (so the two can be combined)."""
        self._assert_open()
        new = BloomFilter.__new__(BloomFilter)
        f = _core.SBBF.from_bytes_budget(self._f.nbytes)
        new._setup(f, self._capacity, self._error_rate, filename, self._hash_seeds, True,
                   perm)
        new._count = 0
        new._count_correct = True
        if os.path.exists(filename):
            os.unlink(filename)
        new.sync()
        return new

    def copy(self, filename):
        """Copies a file-backed filter to filename and opens the copy."""
        self._assert_open()
        if not self._filename:
            raise NotImplementedError("Cannot call .copy on an in-memory %s"
                                      % self.__class__.__name__)
        if self._writable:
            self.sync()
        shutil.copy(self._filename, filename)
        new = self.open(filename)
        new._capacity, new._error_rate = self._capacity, self._error_rate
        new._hash_seeds = list(self._hash_seeds)
        return new

    def sync(self):
        """Writes the filter to its file (atomically)."""
        self._assert_open()
        self._assert_writable()
        if self._filename:
            self._f.save(self._filename)
            if self._perm is not None:  # as open(2) applies perm to a new file
                umask = os.umask(0)
                os.umask(umask)
                os.chmod(self._filename, self._perm & ~umask)

    def clear_all(self):
        """Removes every item."""
        self._assert_open()
        self._assert_writable()
        self._f.clear()
        self._count = 0
        self._count_correct = True

    def close(self):
        """Writes a file-backed filter and releases the filter; later calls
        raise ValueError."""
        if not self._closed:
            self._finalizer()  # writes it, once
            self._closed = True
            self._f.close()

    def to_base64(self):
        """The filter, compressed and base64-encoded as pybloomfiltermmap3
        does: a line with the capacity and error rate, then blockfilter's
        native bytes (what from_base64 writes to the file)."""
        self._assert_open()
        head = b"%s %s %s\n" % (_B64_HEAD, b"-" if self._capacity is None else b"%d" % self._capacity,
                                b"-" if self._error_rate is None else repr(self._error_rate).encode())
        data = head + self._f.to_bytes()
        return base64.b64encode(zlib.compress(base64.b64encode(zlib.compress(data, 9))))

    def __reduce__(self):
        return (BloomFilter, (self._capacity, self._error_rate, None, None, self._hash_seeds,
                              self.data_array))

    # -- properties ------------------------------------------------------------
    @property
    def capacity(self):
        return self._capacity

    @property
    def error_rate(self):
        return self._error_rate

    @property
    def num_hashes(self):
        return 8

    @property
    def num_bits(self):
        self._assert_open()
        return self._f.nbytes * 8

    @property
    def bit_count(self):
        self._assert_open()
        return self._f.stats.cells_set

    @property
    def approx_len(self):
        self._assert_open()
        return len(self._f)

    @property
    def hash_seeds(self):
        return array.array("I", self._hash_seeds)

    @property
    def data_array(self):
        self._assert_open()
        return bytes(self._f.bitset)

    @property
    def bit_array(self):
        self._assert_open()
        return int.from_bytes(self._f.bitset, byteorder="big", signed=False)

    @property
    def filename(self):
        if self._filename is None:
            raise NotImplementedError("Cannot access .name on an in-memory %s"
                                      % self.__class__.__name__)
        return self._filename

    @property
    def name(self):
        return self.filename.encode()

    @property
    def read_only(self):
        return not self._writable

    def fileno(self):
        import io
        raise io.UnsupportedOperation("blockfilter.compat filters hold no open file")

    def _assert_open(self):
        if self._closed:
            raise ValueError("I/O operation on closed file")

    def _assert_writable(self):
        if not self._writable:
            raise ValueError("Write operation on read-only file")

    def __repr__(self):
        self._assert_open()
        cap = "?" if self._capacity is None else "%d" % self._capacity
        err = "?" if self._error_rate is None else "%0.3f" % self._error_rate
        return "<%s capacity: %s, error: %s, num_hashes: %d>" % (
            self.__class__.__name__, cap, err, self.num_hashes)

    __str__ = __repr__
