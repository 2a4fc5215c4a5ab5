// Loops of single-key calls made through the public header, as a program
// that includes <blockfilter.h> writes them: compiled once with the
// harness's flags and once with -mavx2 (bench/meson.build), so the second
// gets the header's inline AVX2 path. BFB_LOOPS names the namespace of
// this copy. Nothing here runs unless the harness has checked the CPU.
#include <blockfilter.h>

#include "header_loops.h"

namespace bfb {
namespace BFB_LOOPS {

bool inline_ok(const bf_sbbf *f) { return bf_sbbf_inline_ok(f); }

size_t contains_hashes(const bf_sbbf *f, const uint64_t *h, size_t n) {
    size_t found = 0;
    for (size_t i = 0; i < n; i++) found += bf_sbbf_contains_hash(f, h[i]);
    return found;
}

size_t contains_int64(const bf_sbbf *f, const uint64_t *keys, size_t n) {
    size_t found = 0;
    for (size_t i = 0; i < n; i++) found += bf_sbbf_contains_int64(f, (int64_t)keys[i]);
    return found;
}

int insert_hashes(bf_sbbf *f, const uint64_t *h, size_t n) {
    int rc = 0;
    for (size_t i = 0; i < n; i++) rc |= bf_sbbf_insert_hash(f, h[i]);
    return rc;
}

int insert_int64(bf_sbbf *f, const uint64_t *keys, size_t n) {
    int rc = 0;
    for (size_t i = 0; i < n; i++) rc |= bf_sbbf_insert_int64(f, (int64_t)keys[i]);
    return rc;
}

}  // namespace BFB_LOOPS
}  // namespace bfb
