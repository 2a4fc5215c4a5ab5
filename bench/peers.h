// Peer libraries as contenders of the design-space series (design_peers.cc).
// Each adapter (peers/*.cc) is compiled only when the build is given a
// folder of the peer's sources (-Dbench_peers=DIR, scripts/bench.sh
// --peers), with the peer's own flags; this header is all the harness and
// the adapters share, so it holds no type of either side's libraries.
#ifndef BF_BENCH_PEERS_H
#define BF_BENCH_PEERS_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace bfb {

// One filter of a peer. Keys are the 64-bit values the design series'
// filters get (XXH64 of the key), or their low 32 bits for a peer that
// takes 32-bit keys (PeerSpec::key_bits): const uint64_t * or uint32_t *.
struct PeerFilter {
    virtual ~PeerFilter() = default;
    // Untimed, before each build: what the build may not pay for. For a
    // filter the peer allocates apart from its insertions (libfilter,
    // fastfilter_cpp), the zeroed filter; for a static filter whose
    // construction reorders its input (xor, binary fuse), its copy of the keys.
    virtual void prepare(const void *keys, size_t n) = 0;
    // Timed: every key in, through the peer's own batch call where it has
    // one (partitioned-filters' construct sizes and allocates its filter
    // inside it, as its authors' benchmark times it). False: it failed.
    virtual bool build(const void *keys, size_t n) = 0;
    // Timed: how many of the keys may be present, through the peer's own
    // batch call (partitioned-filters' count) or a loop of its single-key
    // lookups, inlined.
    virtual size_t count(const void *keys, size_t n) const = 0;
    // Untimed: out[i] = 1 if keys[i] may be present, one single-key lookup each.
    virtual void answers(const void *keys, size_t n, uint8_t *out) const = 0;
    // Bytes of the filter as allocated (its bits; for partitioned-filters
    // with partitions, their bits together).
    virtual uint64_t bytes() const = 0;
};

struct PeerSpec {
    const char *peer;     // its folder: partitioned-filters, libfilter, fastfilter_cpp
    std::string name;     // its row: Sectorized256-k8, Blocked64-k5-part1024, block, xor8, ...
    const char *layout;   // the design layout (design.cc) it matches, or "" (a static filter)
    unsigned k;           // bits set per key in that layout (0: a static filter)
    unsigned key_bits;    // 64, or 32 (it takes the low 32 bits of each key)
    unsigned partitions;  // 1, or its radix partitions by the key's low bits
    bool sbbf_bits;       // given the SBBF's bytes it holds exactly the SBBF's bits
    unsigned fp_bits;     // a static filter's fingerprint bits (its model FPR 2^-fp_bits), else 0
    const char *how;      // its configuration, for the row's label
    // A filter for n keys at bits_per_key. sbbf_bytes: the bytes of the
    // design series' SBBF at this point (the size an sbbf_bits peer takes);
    // a static filter sizes itself for n and ignores both.
    std::unique_ptr<PeerFilter> (*make)(uint64_t n, double bits_per_key, uint64_t sbbf_bytes);
};

// Each adapter's contenders (defined only where its sources were given).
void peers_partitioned_filters_plain(std::vector<PeerSpec> &out);
void peers_partitioned_filters_partitioned(std::vector<PeerSpec> &out);
void peers_libfilter(std::vector<PeerSpec> &out);
void peers_fastfilter(std::vector<PeerSpec> &out);

} // namespace bfb

#endif
