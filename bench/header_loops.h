// Single-key loops through the public header (header_loops.cc), in two
// copies: `plain` (the harness's flags: the header's plain-C inline path,
// or the library call) and `avx2` (-mavx2: the inline AVX2 path).
#ifndef BF_BENCH_HEADER_LOOPS_H
#define BF_BENCH_HEADER_LOOPS_H

#include <blockfilter.h>

namespace bfb {
#define BFB_DECLARE_LOOPS(ns)                                                   \
    namespace ns {                                                              \
    bool inline_ok(const bf_sbbf *f);                                           \
    size_t contains_hashes(const bf_sbbf *f, const uint64_t *h, size_t n);      \
    size_t contains_int64(const bf_sbbf *f, const uint64_t *keys, size_t n);    \
    int insert_hashes(bf_sbbf *f, const uint64_t *h, size_t n);                 \
    int insert_int64(bf_sbbf *f, const uint64_t *keys, size_t n);               \
    }
BFB_DECLARE_LOOPS(plain)
BFB_DECLARE_LOOPS(avx2)
#undef BFB_DECLARE_LOOPS
}  // namespace bfb

#endif
