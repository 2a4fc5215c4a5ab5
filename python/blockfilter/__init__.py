"""blockfilter: approximate-membership filters for Python and NumPy."""
from blockfilter._core import (  # noqa: F401
    Blocked, Bloom, Counting, Cuckoo, Filter, SBBF, Scalable, Stats,
    bloom_model_fpp, default_kernel, fpp_for, hash, hash_many, kernels,
    library_version, random_seed, sbbf_bytes, sbbf_model_fpp, size_for, statuses, strerror,
)

__version__ = library_version
load = Filter.load
open = Filter.open
from_bytes = Filter.from_bytes
