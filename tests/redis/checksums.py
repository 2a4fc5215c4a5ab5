"""Checksums the tests need to craft payloads the server must refuse for
their content, not their checksum: Redis's CRC-64 (DUMP payloads) and XXH64
(the module's dump headers). Pure Python, self-checked against published
check values."""

import struct

M64 = (1 << 64) - 1

# ---- CRC-64/Jones as Redis uses it (reflected, init 0, no final xor).

_CRC_POLY_REFLECTED = 0x95AC9329AC4BC9B5
_crc_table = []
for _b in range(256):
    _c = _b
    for _ in range(8):
        _c = (_c >> 1) ^ _CRC_POLY_REFLECTED if _c & 1 else _c >> 1
    _crc_table.append(_c)


def crc64(data, crc=0):
    for b in data:
        crc = _crc_table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc


assert crc64(b"123456789") == 0xE9C6D914C4B8D9CA


def dump_fix_crc(payload):
    """A DUMP payload with its trailing CRC-64 recomputed."""
    body = payload[:-8]
    return body + struct.pack("<Q", crc64(body))


# ---- XXH64

P1, P2, P3, P4, P5 = (0x9E3779B185EBCA87, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9,
                      0x85EBCA77C2B2AE63, 0x27D4EB2F165667C5)


def _rotl(x, r):
    return ((x << r) | (x >> (64 - r))) & M64


def _round(acc, lane):
    acc = (acc + lane * P2) & M64
    return (_rotl(acc, 31) * P1) & M64


def _merge(acc, v):
    acc ^= _round(0, v)
    return (acc * P1 + P4) & M64


def xxh64(data, seed=0):
    n = len(data)
    i = 0
    if n >= 32:
        v1 = (seed + P1 + P2) & M64
        v2 = (seed + P2) & M64
        v3 = seed
        v4 = (seed - P1) & M64
        while i + 32 <= n:
            a, b, c, d = struct.unpack_from("<4Q", data, i)
            v1, v2, v3, v4 = _round(v1, a), _round(v2, b), _round(v3, c), _round(v4, d)
            i += 32
        h = (_rotl(v1, 1) + _rotl(v2, 7) + _rotl(v3, 12) + _rotl(v4, 18)) & M64
        for v in (v1, v2, v3, v4):
            h = _merge(h, v)
    else:
        h = (seed + P5) & M64
    h = (h + n) & M64
    while i + 8 <= n:
        (k,) = struct.unpack_from("<Q", data, i)
        h ^= _round(0, k)
        h = (_rotl(h, 27) * P1 + P4) & M64
        i += 8
    if i + 4 <= n:
        (k,) = struct.unpack_from("<I", data, i)
        h ^= (k * P1) & M64
        h = (_rotl(h, 23) * P2 + P3) & M64
        i += 4
    while i < n:
        h ^= (data[i] * P5) & M64
        h = (_rotl(h, 11) * P1) & M64
        i += 1
    h ^= h >> 33
    h = (h * P2) & M64
    h ^= h >> 29
    h = (h * P3) & M64
    h ^= h >> 32
    return h


assert xxh64(b"") == 0xEF46DB3751D8E999
assert xxh64(b"a") == 0xD24EC4F1A98C6E5B


def with_checksum(header_without):
    """A module dump header: the bytes, then their XXH64 (little-endian)."""
    return header_without + struct.pack("<Q", xxh64(header_without))
