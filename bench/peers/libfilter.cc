// libfilter's block filter (C; Apache Impala's split-block filter) as a
// contender of the design series. Built only with -Dbench_peers
// (bench/meson.build), -O3 -march=native, from the peer's header and its
// block.c, util.c and memory.c in the sources folder.
//
// It is the SBBF's geometry and hashing: the block from the hash's high 32
// bits ((h >> 32) * blocks >> 32), one bit in each 32-bit word of the
// 256-bit block from the low 32 bits and the same eight odd salts. Given
// the SBBF's bytes it holds exactly the SBBF's bits, so its answers must be
// the design series' SBBF's, key for key (design_peers.cc checks them).
#include <immintrin.h>
extern "C" {
#include <filter/block.h>
}

#include "peers.h"

namespace bfb {
namespace {

#ifdef LIBFILTER_BLOCK_SIMD
#define BFB_LF_HOW "libfilter_block_add_hash / find_hash loops, inlined, its SIMD path"
#else
#define BFB_LF_HOW "libfilter_block_add_hash / find_hash loops, inlined, its scalar path"
#endif

class LibfilterBlock final : public PeerFilter {
public:
    explicit LibfilterBlock(uint64_t bytes) : want_(bytes) {}
    ~LibfilterBlock() override { release(); }
    void prepare(const void *, size_t) override {
        release();
        // The allocation can report success with no memory (see meson.build).
        live_ = libfilter_block_init(want_, &b_) == 0 && b_.block_.block != nullptr;
    }
    bool build(const void *keys, size_t n) override {
        if (!live_) return false;
        const uint64_t *h = static_cast<const uint64_t *>(keys);
        for (size_t i = 0; i < n; i++) libfilter_block_add_hash(h[i], &b_);
        return true;
    }
    size_t count(const void *keys, size_t n) const override {
        const uint64_t *h = static_cast<const uint64_t *>(keys);
        size_t found = 0;
        for (size_t i = 0; i < n; i++) found += libfilter_block_find_hash(h[i], &b_);
        return found;
    }
    void answers(const void *keys, size_t n, uint8_t *out) const override {
        const uint64_t *h = static_cast<const uint64_t *>(keys);
        for (size_t i = 0; i < n; i++) out[i] = libfilter_block_find_hash(h[i], &b_) ? 1 : 0;
    }
    uint64_t bytes() const override { return live_ ? libfilter_block_size_in_bytes(&b_) : 0; }

private:
    void release() {
        if (live_) libfilter_block_destruct(&b_);
        live_ = false;
    }
    uint64_t want_;
    libfilter_block b_{};
    bool live_ = false;
};

std::unique_ptr<PeerFilter> make(uint64_t, double, uint64_t sbbf_bytes) {
    return std::make_unique<LibfilterBlock>(sbbf_bytes);
}

} // namespace

void peers_libfilter(std::vector<PeerSpec> &out) {
    out.push_back({"libfilter", "block", "sbbf", 8, 64, 1, true, 0, BFB_LF_HOW, &make});
}

} // namespace bfb
