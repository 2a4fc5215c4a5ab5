/*
 * blockfilter for C++: RAII handles over the C API, header-only.
 *
 *   bf::sbbf          a split-block Bloom filter (bf_sbbf)
 *   bf::filter        the generic filter of every family (bf_filter)
 *   bf::parquet_file  a Parquet file opened for its footer and Bloom filters
 *
 * C++17 or later. Every call is an inline call of the C function it names,
 * so a single-key query costs what the C call costs (the header's inline
 * SBBF paths included); no handle has a virtual function, and a handle is
 * one pointer. Batches take a pointer and a count, and under C++20 also a
 * std::span (a std::vector or array converts to it).
 *
 * Errors are exceptions: bf::error, a std::system_error whose code() holds
 * the BF_* status in bf::category() and whose message is bf_strerror()'s.
 * Batch inserts that stop part-way throw bf::batch_error, which also says
 * how many keys went in. Queries (contains) never throw.
 *
 * Keys: a signed integer hashes as Parquet's INT32 (up to 32 bits) or
 * INT64, float and double as FLOAT and DOUBLE, a std::string_view as its
 * bytes. Unsigned integers are refused at compile time, so that a
 * precomputed hash is not hashed again by mistake: use insert_hash() for
 * hashes, and cast UINT_* values to the signed type of their width (Parquet
 * hashes their bit pattern). A moved-from handle may only be destroyed or
 * assigned to.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef BLOCKFILTER_HPP
#define BLOCKFILTER_HPP

#if !defined(__cplusplus) || (__cplusplus < 201703L && !(defined(_MSVC_LANG) && _MSVC_LANG >= 201703L))
#error "blockfilter.hpp needs C++17 or later"
#endif

#include "blockfilter.h"
#include "blockfilter_advanced.h" /* bf_filter, kernels by name, files */
#include "blockfilter_parquet.h"  /* bf_parquet_* */

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>
#if __has_include(<version>)
#include <version>
#endif
#if defined(__cpp_lib_span) && __cpp_lib_span >= 202002L
#include <span>
#define BF_HPP_SPAN 1
#endif

namespace bf {

/* ---- errors ----------------------------------------------------------------- */

/** The error category of BF_* statuses: message() is bf_strerror(). */
class error_category final : public std::error_category {
public:
    const char *name() const noexcept override { return "blockfilter"; }
    std::string message(int status) const override { return bf_strerror(status); }
};

inline const std::error_category &category() noexcept {
    static const error_category instance;
    return instance;
}

inline std::error_code make_error_code(int status) noexcept { return {status, category()}; }

/** A failed call: code().value() is the BF_* status; what() is "call:
 *  bf_strerror(status)". */
class error : public std::system_error {
public:
    error(int status, const char *call) : std::system_error(make_error_code(status), call) {}
    int status() const noexcept { return code().value(); }
};

/** A batch insert or remove that stopped at a key: done() keys went in. */
class batch_error : public error {
public:
    batch_error(int status, const char *call, std::size_t done) : error(status, call), done_(done) {}
    std::size_t done() const noexcept { return done_; }

private:
    std::size_t done_;
};

namespace detail {

#if defined(__GNUC__)
#define BF_HPP_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define BF_HPP_UNLIKELY(x) (x)
#endif

[[noreturn]] inline void fail(int status, const char *call) { throw error(status, call); }

inline void check(int status, const char *call) {
    if (BF_HPP_UNLIKELY(status != BF_OK)) fail(status, call);
}

/* done by reference: read after the call that wrote it. */
inline void check_batch(int status, const char *call, const std::size_t &done) {
    if (BF_HPP_UNLIKELY(status != BF_OK)) throw batch_error(status, call, done);
}

/* Signed integers of up to 64 bits (not bool, not char types other than
 * signed char): the widths Parquet stores as INT32 and INT64. */
template <class T>
inline constexpr bool is_key_int = std::is_integral_v<T> && std::is_signed_v<T> &&
                                   !std::is_same_v<T, char> && !std::is_same_v<T, wchar_t> &&
                                   sizeof(T) <= 8;

template <class T>
using key_int = std::enable_if_t<is_key_int<T>, int>;
/* ... and the two floating-point types Parquet has. */
template <class T>
using key = std::enable_if_t<is_key_int<T> || std::is_same_v<T, float> || std::is_same_v<T, double>, int>;

}  // namespace detail

/** XXH64 of bytes with a seed (0: Parquet's hash). */
inline std::uint64_t hash(std::string_view bytes, std::uint64_t seed = 0) noexcept {
    return bf_hash_xxh64_seeded(bytes.data(), bytes.size(), seed);
}
/** Parquet's hash of a typed value (INT32, INT64, FLOAT, DOUBLE). */
template <class T, detail::key_int<T> = 0>
inline std::uint64_t hash(T v) noexcept {
    if constexpr (sizeof(T) <= 4) return bf_hash_int32(static_cast<std::int32_t>(v));
    else return bf_hash_int64(static_cast<std::int64_t>(v));
}
inline std::uint64_t hash(float v) noexcept { return bf_hash_float(v); }
inline std::uint64_t hash(double v) noexcept { return bf_hash_double(v); }

/** The linked library's version ("0.3.0"). */
inline const char *version() noexcept { return bf_version_string(); }

/* ---- std::span batches (C++20) ---------------------------------------------- */

namespace detail {
#if defined(BF_HPP_SPAN)
inline std::uint8_t *out_for(std::span<std::uint8_t> out, std::size_t n) {
    if (out.empty()) return nullptr;
    if (out.size() < n) fail(BF_EBUFSIZE, "answers span shorter than the keys");
    return out.data();
}

/* The span forms of a handle's batch calls, over its pointer forms (D is
 * the handle: no virtual call, no data). */
template <class D>
class span_batches {
public:
    void insert_hashes(std::span<const std::uint64_t> h) { self().insert_hashes(h.data(), h.size()); }
    std::size_t contains_hashes(std::span<const std::uint64_t> h, std::span<std::uint8_t> out = {}) const {
        return self().contains_hashes(h.data(), h.size(), out_for(out, h.size()));
    }
    void insert(std::span<const std::int32_t> v) { self().insert(v.data(), v.size()); }
    void insert(std::span<const std::int64_t> v) { self().insert(v.data(), v.size()); }
    void insert(std::span<const float> v) { self().insert(v.data(), v.size()); }
    void insert(std::span<const double> v) { self().insert(v.data(), v.size()); }
    std::size_t contains(std::span<const std::int32_t> v, std::span<std::uint8_t> out = {}) const {
        return self().contains(v.data(), v.size(), out_for(out, v.size()));
    }
    std::size_t contains(std::span<const std::int64_t> v, std::span<std::uint8_t> out = {}) const {
        return self().contains(v.data(), v.size(), out_for(out, v.size()));
    }
    std::size_t contains(std::span<const float> v, std::span<std::uint8_t> out = {}) const {
        return self().contains(v.data(), v.size(), out_for(out, v.size()));
    }
    std::size_t contains(std::span<const double> v, std::span<std::uint8_t> out = {}) const {
        return self().contains(v.data(), v.size(), out_for(out, v.size()));
    }
    /** Arrow byte strings: offsets.size() - 1 values. */
    template <class Off>
    void insert_binary(const void *data, std::span<const Off> offsets) {
        self().insert_binary(data, offsets.data(), offsets.empty() ? 0 : offsets.size() - 1);
    }
    template <class Off>
    std::size_t contains_binary(const void *data, std::span<const Off> offsets,
                                std::span<std::uint8_t> out = {}) const {
        std::size_t n = offsets.empty() ? 0 : offsets.size() - 1;
        return self().contains_binary(data, offsets.data(), n, out_for(out, n));
    }

private:
    D &self() noexcept { return static_cast<D &>(*this); }
    const D &self() const noexcept { return static_cast<const D &>(*this); }
};
/* In a handle: its pointer forms and the span forms side by side. */
#define BF_HPP_SPAN_BATCHES                                  \
    using detail::span_batches<this_type>::insert_hashes;   \
    using detail::span_batches<this_type>::contains_hashes; \
    using detail::span_batches<this_type>::insert;          \
    using detail::span_batches<this_type>::contains;        \
    using detail::span_batches<this_type>::insert_binary;   \
    using detail::span_batches<this_type>::contains_binary;
#else
template <class D>
class span_batches {};
#endif
}  // namespace detail

/* ---- the SBBF ---------------------------------------------------------------- */

class sbbf : public detail::span_batches<sbbf> {
    using this_type = sbbf;

public:
    /** A filter for ndv distinct keys at false-positive rate fpp (compact
     *  sizing: the fewest blocks whose exact model FPR is <= fpp). */
    sbbf(std::uint64_t ndv, double fpp) { detail::check(bf_sbbf_new(&f_, ndv, fpp), "bf_sbbf_new"); }
    sbbf(sbbf &&o) noexcept : f_(std::exchange(o.f_, nullptr)) {}
    sbbf &operator=(sbbf &&o) noexcept {
        if (this != &o) {
            bf_sbbf_free(f_);
            f_ = std::exchange(o.f_, nullptr);
        }
        return *this;
    }
    sbbf(const sbbf &) = delete;
    sbbf &operator=(const sbbf &) = delete;
    ~sbbf() { bf_sbbf_free(f_); }

    /** num_bytes (a multiple of 32), with a named kernel or the default. */
    static sbbf with_bytes(std::size_t num_bytes, const char *kernel = nullptr) {
        bf_sbbf *f = nullptr;
        detail::check(bf_sbbf_new_bytes_kernel(&f, num_bytes, kernel), "bf_sbbf_new_bytes_kernel");
        return sbbf(f);
    }
    /** Sized as Parquet writers size a filter (a power of two). */
    static sbbf parquet_sized(std::uint64_t ndv, double fpp) {
        bf_sbbf *f = nullptr;
        detail::check(bf_sbbf_new_parquet(&f, ndv, fpp), "bf_sbbf_new_parquet");
        return sbbf(f);
    }
    /** A copy of a Parquet Bloom filter (Thrift header + bitset). */
    static sbbf from_parquet(const void *buf, std::size_t len, std::size_t *consumed = nullptr) {
        bf_sbbf *f = nullptr;
        detail::check(bf_sbbf_from_parquet(&f, buf, len, consumed), "bf_sbbf_from_parquet");
        return sbbf(f);
    }
    /** A read-only view of a Parquet Bloom filter: buf must outlive it. */
    static sbbf view_parquet(const void *buf, std::size_t len, std::size_t *consumed = nullptr) {
        bf_sbbf *f = nullptr;
        detail::check(bf_sbbf_view_parquet(&f, buf, len, consumed), "bf_sbbf_view_parquet");
        return sbbf(f);
    }
    /** A read-only view of a bitset: bitset must outlive it. */
    static sbbf view(const void *bitset, std::size_t num_bytes, const char *kernel = nullptr) {
        bf_sbbf *f = nullptr;
        detail::check(bf_sbbf_view_kernel(&f, bitset, num_bytes, kernel), "bf_sbbf_view_kernel");
        return sbbf(f);
    }
    /** Takes ownership of a filter from the C API. */
    static sbbf adopt(bf_sbbf *f) noexcept { return sbbf(f); }

    bf_sbbf *get() const noexcept { return f_; }
    /** Gives the filter back to the C API (free it with bf_sbbf_free). */
    bf_sbbf *release() noexcept { return std::exchange(f_, nullptr); }
    explicit operator bool() const noexcept { return f_ != nullptr; }

    /* Single keys. */
    void insert_hash(std::uint64_t hash) { detail::check(bf_sbbf_insert_hash(f_, hash), "bf_sbbf_insert_hash"); }
    bool contains_hash(std::uint64_t hash) const noexcept { return bf_sbbf_contains_hash(f_, hash); }
    void insert(std::string_view key) { detail::check(bf_sbbf_insert(f_, key.data(), key.size()), "bf_sbbf_insert"); }
    bool contains(std::string_view key) const noexcept { return bf_sbbf_contains(f_, key.data(), key.size()); }
    template <class T, detail::key_int<T> = 0>
    void insert(T v) {
        if constexpr (sizeof(T) <= 4)
            detail::check(bf_sbbf_insert_int32(f_, static_cast<std::int32_t>(v)), "bf_sbbf_insert_int32");
        else
            detail::check(bf_sbbf_insert_int64(f_, static_cast<std::int64_t>(v)), "bf_sbbf_insert_int64");
    }
    template <class T, detail::key_int<T> = 0>
    bool contains(T v) const noexcept {
        if constexpr (sizeof(T) <= 4) return bf_sbbf_contains_int32(f_, static_cast<std::int32_t>(v));
        else return bf_sbbf_contains_int64(f_, static_cast<std::int64_t>(v));
    }
    void insert(float v) { detail::check(bf_sbbf_insert_float(f_, v), "bf_sbbf_insert_float"); }
    void insert(double v) { detail::check(bf_sbbf_insert_double(f_, v), "bf_sbbf_insert_double"); }
    bool contains(float v) const noexcept { return bf_sbbf_contains_float(f_, v); }
    bool contains(double v) const noexcept { return bf_sbbf_contains_double(f_, v); }

    /* Batches: out[i] = 1 if key i may be present (out may be null to only
     * count); contains returns the number of 1s. */
    void insert_hashes(const std::uint64_t *hashes, std::size_t n) {
        detail::check(bf_sbbf_insert_hashes(f_, hashes, n), "bf_sbbf_insert_hashes");
    }
    std::size_t contains_hashes(const std::uint64_t *hashes, std::size_t n,
                                std::uint8_t *out = nullptr) const noexcept {
        return bf_sbbf_contains_hashes(f_, hashes, n, out);
    }
    void insert(const std::int32_t *v, std::size_t n) { detail::check(bf_sbbf_insert_int32s(f_, v, n), "bf_sbbf_insert_int32s"); }
    void insert(const std::int64_t *v, std::size_t n) { detail::check(bf_sbbf_insert_int64s(f_, v, n), "bf_sbbf_insert_int64s"); }
    void insert(const float *v, std::size_t n) { detail::check(bf_sbbf_insert_floats(f_, v, n), "bf_sbbf_insert_floats"); }
    void insert(const double *v, std::size_t n) { detail::check(bf_sbbf_insert_doubles(f_, v, n), "bf_sbbf_insert_doubles"); }
    std::size_t contains(const std::int32_t *v, std::size_t n, std::uint8_t *out = nullptr) const noexcept {
        return bf_sbbf_contains_int32s(f_, v, n, out);
    }
    std::size_t contains(const std::int64_t *v, std::size_t n, std::uint8_t *out = nullptr) const noexcept {
        return bf_sbbf_contains_int64s(f_, v, n, out);
    }
    std::size_t contains(const float *v, std::size_t n, std::uint8_t *out = nullptr) const noexcept {
        return bf_sbbf_contains_floats(f_, v, n, out);
    }
    std::size_t contains(const double *v, std::size_t n, std::uint8_t *out = nullptr) const noexcept {
        return bf_sbbf_contains_doubles(f_, v, n, out);
    }
    /** Arrow byte strings: n values, n + 1 offsets (32- or 64-bit). */
    void insert_binary(const void *data, const std::int32_t *offsets, std::size_t n) {
        detail::check(bf_sbbf_insert_binary(f_, data, offsets, n), "bf_sbbf_insert_binary");
    }
    void insert_binary(const void *data, const std::int64_t *offsets, std::size_t n) {
        detail::check(bf_sbbf_insert_large_binary(f_, data, offsets, n), "bf_sbbf_insert_large_binary");
    }
    std::size_t contains_binary(const void *data, const std::int32_t *offsets, std::size_t n,
                                std::uint8_t *out = nullptr) const {
        std::size_t found = 0;
        detail::check(bf_sbbf_contains_binary(f_, data, offsets, n, out, &found), "bf_sbbf_contains_binary");
        return found;
    }
    std::size_t contains_binary(const void *data, const std::int64_t *offsets, std::size_t n,
                                std::uint8_t *out = nullptr) const {
        std::size_t found = 0;
        detail::check(bf_sbbf_contains_large_binary(f_, data, offsets, n, out, &found),
                      "bf_sbbf_contains_large_binary");
        return found;
    }
#if defined(BF_HPP_SPAN)
    BF_HPP_SPAN_BATCHES
#endif

    /** dst |= src (same size and seed). */
    void merge(const sbbf &src) { detail::check(bf_sbbf_merge(f_, src.f_), "bf_sbbf_merge"); }
    void clear() { detail::check(bf_sbbf_clear(f_), "bf_sbbf_clear"); }
    /** Keyed hashing of byte strings and typed keys; only on an empty filter. */
    void set_seed(std::uint64_t seed) { detail::check(bf_sbbf_set_seed(f_, seed), "bf_sbbf_set_seed"); }
    std::uint64_t seed() const noexcept { return bf_sbbf_seed(f_); }
    std::size_t num_bytes() const noexcept { return bf_sbbf_num_bytes(f_); }
    /** The bitset in Parquet's byte layout (num_bytes() bytes). */
    const void *bitset() const noexcept { return bf_sbbf_bitset(f_); }
    bool is_readonly() const noexcept { return bf_sbbf_is_readonly(f_); }
    /** "scalar", "avx2", "avx512" or "neon". */
    const char *kernel() const noexcept { return bf_sbbf_kernel(f_); }
    bf_sbbf_stats stats() const {
        bf_sbbf_stats s{};
        detail::check(bf_sbbf_get_stats(f_, &s), "bf_sbbf_get_stats");
        return s;
    }
    /** Parquet's bytes: Thrift-compact BloomFilterHeader + bitset. */
    std::size_t parquet_size() const noexcept { return bf_sbbf_parquet_size(f_); }
    std::size_t to_parquet(void *buf, std::size_t cap) const {
        std::size_t written = 0;
        detail::check(bf_sbbf_to_parquet(f_, buf, cap, &written), "bf_sbbf_to_parquet");
        return written;
    }
    std::vector<std::uint8_t> to_parquet() const {
        std::vector<std::uint8_t> out(parquet_size());
        out.resize(to_parquet(out.data(), out.size()));
        return out;
    }

private:
    explicit sbbf(bf_sbbf *f) noexcept : f_(f) {}
    bf_sbbf *f_ = nullptr;
};

/* ---- the generic filter -------------------------------------------------------- */

class filter : public detail::span_batches<filter> {
    using this_type = filter;

public:
    /** A filter of a family for n keys at false-positive rate fpp. */
    filter(bf_family family, std::uint64_t n, double fpp) {
        detail::check(bf_filter_new(&f_, family, n, fpp), "bf_filter_new");
    }
    filter(filter &&o) noexcept : f_(std::exchange(o.f_, nullptr)) {}
    filter &operator=(filter &&o) noexcept {
        if (this != &o) {
            bf_filter_free(f_);
            f_ = std::exchange(o.f_, nullptr);
        }
        return *this;
    }
    filter(const filter &) = delete;
    filter &operator=(const filter &) = delete;
    ~filter() { bf_filter_free(f_); }

    /** A copy of a native image (bf_filter_save). */
    static filter load(const void *buf, std::size_t len) {
        bf_filter *f = nullptr;
        detail::check(bf_filter_load(&f, buf, len), "bf_filter_load");
        return filter(f);
    }
    /** A read-only view of a native image: buf must outlive it. */
    static filter view(const void *buf, std::size_t len, unsigned flags = 0) {
        bf_filter *f = nullptr;
        detail::check(bf_filter_view(&f, buf, len, flags), "bf_filter_view");
        return filter(f);
    }
    static filter load_file(const std::string &path) {
        bf_filter *f = nullptr;
        detail::check(bf_filter_load_file(&f, path.c_str()), "bf_filter_load_file");
        return filter(f);
    }
    /** The file mapped read-only (BF_VIEW_VERIFY_PAYLOAD, BF_MAP_PREFAULT). */
    static filter map_file(const std::string &path, unsigned flags = 0) {
        bf_filter *f = nullptr;
        detail::check(bf_filter_map_file(&f, path.c_str(), flags), "bf_filter_map_file");
        return filter(f);
    }
    /** Wraps an SBBF, which the filter then owns (s is left empty). */
    static filter from_sbbf(sbbf &&s) {
        bf_filter *f = nullptr;
        detail::check(bf_filter_from_sbbf(&f, s.get()), "bf_filter_from_sbbf");
        s.release();
        return filter(f);
    }
    static filter adopt(bf_filter *f) noexcept { return filter(f); }

    bf_filter *get() const noexcept { return f_; }
    bf_filter *release() noexcept { return std::exchange(f_, nullptr); }
    explicit operator bool() const noexcept { return f_ != nullptr; }
    bf_family family() const noexcept { return bf_filter_family(f_); }
    /** The SBBF inside an SBBF-family filter (owned by the filter), or null. */
    bf_sbbf *sbbf_handle() noexcept { return bf_filter_sbbf(f_); }

    /* Single keys. remove: counting and cuckoo filters. */
    void insert_hash(std::uint64_t h) { detail::check(bf_filter_insert_hash(f_, h), "bf_filter_insert_hash"); }
    bool contains_hash(std::uint64_t h) const noexcept { return bf_filter_contains_hash(f_, h); }
    void remove_hash(std::uint64_t h) { detail::check(bf_filter_remove_hash(f_, h), "bf_filter_remove_hash"); }
    void insert(std::string_view key) { detail::check(bf_filter_insert(f_, key.data(), key.size()), "bf_filter_insert"); }
    bool contains(std::string_view key) const noexcept { return bf_filter_contains(f_, key.data(), key.size()); }
    void remove(std::string_view key) { detail::check(bf_filter_remove(f_, key.data(), key.size()), "bf_filter_remove"); }
    /** The hash the filter gives a byte string (its seed). */
    std::uint64_t hash(std::string_view key) const noexcept { return bf_filter_hash(f_, key.data(), key.size()); }
    /** Typed keys, hashed as the typed batches hash them (XXH64 of the
     *  value's little-endian bytes with the filter's seed). */
    template <class T, detail::key<T> = 0>
    std::uint64_t hash(T v) const noexcept {
        if constexpr (std::is_same_v<T, float>) return bf_xxh64_u32(bf_inl_bits_of_float(v), seed());
        else if constexpr (std::is_same_v<T, double>) return bf_xxh64_u64(bf_inl_bits_of_double(v), seed());
        else if constexpr (sizeof(T) <= 4)
            return bf_xxh64_u32(static_cast<std::uint32_t>(static_cast<std::int32_t>(v)), seed());
        else return bf_xxh64_u64(static_cast<std::uint64_t>(static_cast<std::int64_t>(v)), seed());
    }
    template <class T, detail::key<T> = 0>
    void insert(T v) { insert_hash(hash(v)); }
    template <class T, detail::key<T> = 0>
    bool contains(T v) const noexcept { return contains_hash(hash(v)); }
    template <class T, detail::key<T> = 0>
    void remove(T v) { remove_hash(hash(v)); }

    /* Batches; inserts and removes stop at the first failure and throw
     * batch_error with the number done. */
    void insert_hashes(const std::uint64_t *h, std::size_t n) {
        std::size_t done = 0;
        detail::check_batch(bf_filter_insert_hashes(f_, h, n, &done), "bf_filter_insert_hashes", done);
    }
    std::size_t contains_hashes(const std::uint64_t *h, std::size_t n, std::uint8_t *out = nullptr) const noexcept {
        return bf_filter_contains_hashes(f_, h, n, out);
    }
    void remove_hashes(const std::uint64_t *h, std::size_t n) {
        std::size_t done = 0;
        detail::check_batch(bf_filter_remove_hashes(f_, h, n, &done), "bf_filter_remove_hashes", done);
    }
    void insert(const std::int32_t *v, std::size_t n) {
        std::size_t done = 0;
        detail::check_batch(bf_filter_insert_int32s(f_, v, n, &done), "bf_filter_insert_int32s", done);
    }
    void insert(const std::int64_t *v, std::size_t n) {
        std::size_t done = 0;
        detail::check_batch(bf_filter_insert_int64s(f_, v, n, &done), "bf_filter_insert_int64s", done);
    }
    void insert(const float *v, std::size_t n) {
        std::size_t done = 0;
        detail::check_batch(bf_filter_insert_floats(f_, v, n, &done), "bf_filter_insert_floats", done);
    }
    void insert(const double *v, std::size_t n) {
        std::size_t done = 0;
        detail::check_batch(bf_filter_insert_doubles(f_, v, n, &done), "bf_filter_insert_doubles", done);
    }
    std::size_t contains(const std::int32_t *v, std::size_t n, std::uint8_t *out = nullptr) const noexcept {
        return bf_filter_contains_int32s(f_, v, n, out);
    }
    std::size_t contains(const std::int64_t *v, std::size_t n, std::uint8_t *out = nullptr) const noexcept {
        return bf_filter_contains_int64s(f_, v, n, out);
    }
    std::size_t contains(const float *v, std::size_t n, std::uint8_t *out = nullptr) const noexcept {
        return bf_filter_contains_floats(f_, v, n, out);
    }
    std::size_t contains(const double *v, std::size_t n, std::uint8_t *out = nullptr) const noexcept {
        return bf_filter_contains_doubles(f_, v, n, out);
    }
    void insert_binary(const void *data, const std::int32_t *offsets, std::size_t n) {
        std::size_t done = 0;
        detail::check_batch(bf_filter_insert_binary(f_, data, offsets, n, &done), "bf_filter_insert_binary", done);
    }
    void insert_binary(const void *data, const std::int64_t *offsets, std::size_t n) {
        std::size_t done = 0;
        detail::check_batch(bf_filter_insert_large_binary(f_, data, offsets, n, &done), "bf_filter_insert_large_binary", done);
    }
    std::size_t contains_binary(const void *data, const std::int32_t *offsets, std::size_t n,
                                std::uint8_t *out = nullptr) const {
        std::size_t found = 0;
        detail::check(bf_filter_contains_binary(f_, data, offsets, n, out, &found), "bf_filter_contains_binary");
        return found;
    }
    std::size_t contains_binary(const void *data, const std::int64_t *offsets, std::size_t n,
                                std::uint8_t *out = nullptr) const {
        std::size_t found = 0;
        detail::check(bf_filter_contains_large_binary(f_, data, offsets, n, out, &found),
                      "bf_filter_contains_large_binary");
        return found;
    }
#if defined(BF_HPP_SPAN)
    BF_HPP_SPAN_BATCHES
    void remove_hashes(std::span<const std::uint64_t> h) { remove_hashes(h.data(), h.size()); }
#endif

    void merge(const filter &src) { detail::check(bf_filter_merge(f_, src.f_), "bf_filter_merge"); }
    void clear() { detail::check(bf_filter_clear(f_), "bf_filter_clear"); }
    void set_seed(std::uint64_t seed) { detail::check(bf_filter_set_seed(f_, seed), "bf_filter_set_seed"); }
    std::uint64_t seed() const noexcept { return bf_filter_seed(f_); }
    std::size_t num_bytes() const noexcept { return bf_filter_num_bytes(f_); }
    bf_filter_stats stats() const {
        bf_filter_stats s{};
        detail::check(bf_filter_get_stats(f_, &s), "bf_filter_get_stats");
        return s;
    }

    /* The native format (docs/format.md). */
    std::size_t save_size() const noexcept { return bf_filter_save_size(f_); }
    std::size_t save(void *buf, std::size_t cap) const {
        std::size_t written = 0;
        detail::check(bf_filter_save(f_, buf, cap, &written), "bf_filter_save");
        return written;
    }
    std::vector<std::uint8_t> save() const {
        std::vector<std::uint8_t> out(save_size());
        out.resize(save(out.data(), out.size()));
        return out;
    }
    /** Atomically (temporary file, fsync, rename). */
    void save_file(const std::string &path) const {
        detail::check(bf_filter_save_file(f_, path.c_str()), "bf_filter_save_file");
    }

private:
    explicit filter(bf_filter *f) noexcept : f_(f) {}
    bf_filter *f_ = nullptr;
};

/* ---- Parquet files -------------------------------------------------------------- */

class parquet_file {
public:
    /** Maps the file read-only and parses its footer. */
    explicit parquet_file(const std::string &path) {
        detail::check(bf_parquet_open(&f_, path.c_str()), "bf_parquet_open");
    }
    /** A file in caller memory: buf must outlive the parquet_file. */
    static parquet_file from_buffer(const void *buf, std::size_t len) {
        bf_parquet_file *f = nullptr;
        detail::check(bf_parquet_open_buffer(&f, buf, len), "bf_parquet_open_buffer");
        return parquet_file(f);
    }
    parquet_file(parquet_file &&o) noexcept : f_(std::exchange(o.f_, nullptr)) {}
    parquet_file &operator=(parquet_file &&o) noexcept {
        if (this != &o) {
            bf_parquet_close(f_);
            f_ = std::exchange(o.f_, nullptr);
        }
        return *this;
    }
    parquet_file(const parquet_file &) = delete;
    parquet_file &operator=(const parquet_file &) = delete;
    ~parquet_file() { bf_parquet_close(f_); }

    const bf_parquet_file *get() const noexcept { return f_; }
    std::int64_t num_rows() const noexcept { return bf_parquet_num_rows(f_); }
    std::int32_t version() const noexcept { return bf_parquet_version(f_); }
    /** The writer's created_by, empty if absent. */
    std::string_view created_by() const noexcept {
        const char *s = bf_parquet_created_by(f_);
        return s ? std::string_view(s) : std::string_view();
    }
    std::size_t num_row_groups() const noexcept { return bf_parquet_num_row_groups(f_); }
    std::size_t num_columns() const noexcept { return bf_parquet_num_columns(f_); }
    std::uint64_t file_size() const noexcept { return bf_parquet_file_size(f_); }
    std::uint64_t footer_size() const noexcept { return bf_parquet_footer_size(f_); }

    bf_parquet_column column(std::size_t col) const {
        bf_parquet_column c{};
        detail::check(bf_parquet_column_info(f_, col, &c), "bf_parquet_column_info");
        return c;
    }
    /** The leaf column with this dotted path (BF_ENOCOLUMN if none). */
    std::size_t find_column(const std::string &path) const {
        std::size_t col = 0;
        detail::check(bf_parquet_find_column(f_, path.c_str(), &col), "bf_parquet_find_column");
        return col;
    }
    bf_parquet_row_group row_group(std::size_t rg) const {
        bf_parquet_row_group r{};
        detail::check(bf_parquet_row_group_info(f_, rg, &r), "bf_parquet_row_group_info");
        return r;
    }
    bf_parquet_chunk chunk(std::size_t rg, std::size_t col) const {
        bf_parquet_chunk c{};
        detail::check(bf_parquet_chunk_info(f_, rg, col, &c), "bf_parquet_chunk_info");
        return c;
    }
    /** The chunk's Bloom filter, a read-only view into the file: destroy it
     *  before the parquet_file (BF_ENOFILTER if the chunk has none). */
    sbbf bloom_filter(std::size_t rg, std::size_t col) const {
        bf_sbbf *s = nullptr;
        detail::check(bf_parquet_bloom_filter(f_, rg, col, &s), "bf_parquet_bloom_filter");
        return sbbf::adopt(s);
    }

    /** Verdicts for one PLAIN-encoded value, one per row group
     *  (bf_parquet_verdict); *maybe = row groups that may hold it. */
    std::vector<std::uint8_t> probe(std::size_t col, std::string_view plain, unsigned flags = 0,
                                    std::size_t *maybe = nullptr) const {
        std::vector<std::uint8_t> out(num_row_groups());
        detail::check(bf_parquet_probe(f_, col, plain.data(), plain.size(), flags, out.data(), maybe),
                      "bf_parquet_probe");
        return out;
    }
    /** n fixed-width PLAIN values back to back; out[rg * n + i]. */
    void probe_packed(std::size_t col, const void *values, std::size_t n, std::uint8_t *out,
                      unsigned flags = 0) const {
        detail::check(bf_parquet_probe_batch_packed(f_, col, values, n, flags, out),
                      "bf_parquet_probe_batch_packed");
    }
    /** Parquet's hash of a PLAIN value of column col. */
    std::uint64_t hash_value(std::size_t col, std::string_view plain) const {
        std::uint64_t h = 0;
        detail::check(bf_parquet_hash_value(f_, col, plain.data(), plain.size(), &h), "bf_parquet_hash_value");
        return h;
    }
    /** A value written as text ("2024-01-31", "42", "0x00ff", ...), as the
     *  column's PLAIN bytes. */
    std::string value_from_text(std::size_t col, std::string_view text, unsigned flags = 0) const {
        std::string out(16, '\0');
        std::size_t len = 0;
        int rc = bf_parquet_value_from_text(f_, col, text.data(), text.size(), flags, out.data(), out.size(), &len);
        if (rc == BF_EBUFSIZE) {
            out.resize(len);
            rc = bf_parquet_value_from_text(f_, col, text.data(), text.size(), flags, out.data(), out.size(), &len);
        }
        detail::check(rc, "bf_parquet_value_from_text");
        out.resize(len);
        return out;
    }
    /** A PLAIN value as text (BF_PARQUET_TEXT_JSON: one JSON value). */
    std::string value_to_text(std::size_t col, std::string_view plain, unsigned flags = 0) const {
        std::string out(32, '\0');
        std::size_t len = 0;
        int rc = bf_parquet_value_to_text(f_, col, plain.data(), plain.size(), flags, out.data(), out.size(), &len);
        if (rc == BF_EBUFSIZE) {
            out.resize(len + 1); /* and the NUL */
            rc = bf_parquet_value_to_text(f_, col, plain.data(), plain.size(), flags, out.data(), out.size(), &len);
        }
        detail::check(rc, "bf_parquet_value_to_text");
        out.resize(len);
        return out;
    }

private:
    explicit parquet_file(bf_parquet_file *f) noexcept : f_(f) {}
    bf_parquet_file *f_ = nullptr;
};

}  // namespace bf

#undef BF_HPP_UNLIKELY
#undef BF_HPP_SPAN_BATCHES

#endif /* BLOCKFILTER_HPP */
