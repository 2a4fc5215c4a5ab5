"""The package as installed: version, contents, what it exports."""
import re

import blockfilter as bf

from conftest import ROOT


def project_version(path):
    return re.search(r"version: '([^']+)'", path.read_text()).group(1)


def test_versions_agree():
    # The package is versioned as the library it is built from: both meson
    # projects say the same, and the linked library reports it.
    lib = project_version(ROOT / "meson.build")
    assert project_version(ROOT / "python" / "meson.build") == lib
    assert bf.__version__ == bf.library_version == lib


def test_exports_and_kernels():
    for name in ["SBBF", "Bloom", "Counting", "Cuckoo", "Scalable", "Blocked", "Filter", "Stats", "hash",
                 "hash_many", "load", "open", "from_bytes", "size_for", "fpp_for",
                 "sbbf_model_fpp", "sbbf_bytes", "kernels", "default_kernel", "random_seed"]:
        assert hasattr(bf, name), name
    assert bf.default_kernel() in bf.kernels()
    assert bf._core.single_key_isa in ("scalar", "avx2", "neon")
    assert isinstance(bf.random_seed(), int)
    assert bf.strerror(bf.statuses["ECORRUPT"]).startswith("input corrupt")
