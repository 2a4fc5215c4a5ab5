// include/blockfilter.hpp against the C API it wraps: every handle gives
// the bits and answers of the C calls it names (single keys, batches by
// pointer and, under C++20, by std::span), errors arrive as bf::error with
// the status and bf_strerror's message, handles own exactly one object and
// move (the ASan suite sees a leak or a double free), and the Parquet file
// reader reads the fixtures. Built as C++17 and C++20 (tests/engine/
// meson.build) with strict warnings. A plain program: prints "N passed,
// N failed" and exits 1 on a failure.
#include "blockfilter.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

static unsigned long passed, failed;

#define CHECK(cond, what)                                                              \
    do {                                                                               \
        if (cond) {                                                                    \
            passed++;                                                                  \
        } else {                                                                       \
            failed++;                                                                  \
            std::fprintf(stderr, "%s:%d: FAILED: %s (%s)\n", __FILE__, __LINE__, what, #cond); \
        }                                                                              \
    } while (0)

// The status of the bf::error a call throws, or 0 (BF_OK) if none.
template <class F>
static int status_of(F &&f) {
    try {
        f();
    } catch (const bf::error &e) {
        return e.status();
    }
    return BF_OK;
}

static_assert(!std::is_copy_constructible_v<bf::sbbf> && std::is_nothrow_move_constructible_v<bf::sbbf>);
static_assert(!std::is_copy_constructible_v<bf::filter> && std::is_nothrow_move_constructible_v<bf::filter>);
static_assert(!std::is_copy_constructible_v<bf::parquet_file> &&
              std::is_nothrow_move_constructible_v<bf::parquet_file>);
static_assert(!std::is_polymorphic_v<bf::sbbf> && !std::is_polymorphic_v<bf::filter> &&
              !std::is_polymorphic_v<bf::parquet_file>, "no virtual functions in the handles");
static_assert(sizeof(bf::sbbf) == sizeof(void *) && sizeof(bf::filter) == sizeof(void *) &&
              sizeof(bf::parquet_file) == sizeof(void *), "a handle is one pointer");

static std::string data_path(const char *rel) {
    const char *dir = std::getenv("BF_TEST_DATA");
    return std::string(dir ? dir : "tests/data") + "/" + rel;
}

static std::vector<std::uint8_t> read_file(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

static bool same_bits(const bf::sbbf &s, const bf_sbbf *c) {
    return s.num_bytes() == bf_sbbf_num_bytes(c) && std::memcmp(s.bitset(), bf_sbbf_bitset(c), s.num_bytes()) == 0;
}

static std::uint64_t rng_state = 42;
static std::uint64_t next() {
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return rng_state ^ (rng_state >> 29);
}

static void sbbf_single_keys() {
    bf::sbbf s(1000, 0.01);
    bf_sbbf *c = nullptr;
    CHECK(bf_sbbf_new(&c, 1000, 0.01) == BF_OK, "C filter");
    CHECK(s && s.num_bytes() == bf_sbbf_num_bytes(c), "same size as bf_sbbf_new");
    s.insert(std::string_view("alpha"));
    bf_sbbf_insert(c, "alpha", 5);
    s.insert(std::string("beta"));
    bf_sbbf_insert(c, "beta", 4);
    s.insert(std::int32_t{-7});
    bf_sbbf_insert_int32(c, -7);
    s.insert(std::int16_t{-9});  // Parquet's INT_16: an INT32, sign-extended
    bf_sbbf_insert_int32(c, -9);
    s.insert(std::int64_t{1} << 40);
    bf_sbbf_insert_int64(c, std::int64_t{1} << 40);
    s.insert(2.5f);
    bf_sbbf_insert_float(c, 2.5f);
    s.insert(-0.25);
    bf_sbbf_insert_double(c, -0.25);
    s.insert_hash(0x1234567890abcdefull);
    bf_sbbf_insert_hash(c, 0x1234567890abcdefull);
    CHECK(same_bits(s, c), "single-key inserts set the C calls' bits");
    CHECK(s.contains("alpha") && s.contains(std::int32_t{-7}) && s.contains(std::int16_t{-9}) &&
              s.contains(std::int64_t{1} << 40) && s.contains(2.5f) && s.contains(-0.25) &&
              s.contains_hash(0x1234567890abcdefull),
          "every key inserted is found");
    unsigned agree = 0;
    for (int i = 0; i < 2000; i++) {
        std::uint64_t h = next();
        auto v = static_cast<std::int64_t>(h);
        agree += s.contains_hash(h) == bf_sbbf_contains_hash(c, h) &&
                 s.contains(v) == bf_sbbf_contains_int64(c, v) &&
                 s.contains(static_cast<std::int32_t>(v)) == bf_sbbf_contains_int32(c, static_cast<std::int32_t>(v));
    }
    CHECK(agree == 2000, "answers of the C calls");
    CHECK(bf::hash(std::int32_t{5}) == bf_hash_int32(5) && bf::hash(std::int64_t{5}) == bf_hash_int64(5) &&
              bf::hash(std::int8_t{-1}) == bf_hash_int32(-1) && bf::hash(1.5f) == bf_hash_float(1.5f) &&
              bf::hash(1.5) == bf_hash_double(1.5) && bf::hash("abc") == bf_hash_xxh64("abc", 3) &&
              bf::hash("abc", 9) == bf_hash_xxh64_seeded("abc", 3, 9),
          "bf::hash is Parquet's hash");
    CHECK(std::strcmp(bf::version(), BF_VERSION_STRING) == 0, "version");
    CHECK(std::strcmp(s.kernel(), bf_sbbf_kernel(c)) == 0, "kernel");
    bf_sbbf_stats st = s.stats();
    CHECK(st.bits_set > 0 && st.num_bytes == s.num_bytes(), "stats");
    bf_sbbf_free(c);
}

static void sbbf_batches() {
    enum { N = 3000 };
    std::vector<std::uint64_t> h(N);
    std::vector<std::int32_t> i32(N);
    std::vector<std::int64_t> i64(N);
    std::vector<float> f32(N);
    std::vector<double> f64(N);
    for (std::size_t i = 0; i < N; i++) {
        h[i] = next();
        i64[i] = static_cast<std::int64_t>(next());
        i32[i] = static_cast<std::int32_t>(i64[i]);
        f32[i] = static_cast<float>(i) * 0.5f;
        f64[i] = static_cast<double>(i64[i]) / 3.0;
    }
    bf::sbbf s = bf::sbbf::with_bytes(1 << 14);
    bf_sbbf *c = nullptr;
    CHECK(bf_sbbf_new_bytes(&c, 1 << 14) == BF_OK, "C filter");
    s.insert_hashes(h.data(), N / 2);
    bf_sbbf_insert_hashes(c, h.data(), N / 2);
    s.insert(i32.data(), N / 2);
    bf_sbbf_insert_int32s(c, i32.data(), N / 2);
    s.insert(i64.data(), N / 2);
    bf_sbbf_insert_int64s(c, i64.data(), N / 2);
    s.insert(f32.data(), N / 2);
    bf_sbbf_insert_floats(c, f32.data(), N / 2);
    s.insert(f64.data(), N / 2);
    bf_sbbf_insert_doubles(c, f64.data(), N / 2);
    CHECK(same_bits(s, c), "batch inserts set the C calls' bits");
    std::vector<std::uint8_t> a(N), b(N);
    bool same = s.contains_hashes(h.data(), N, a.data()) == bf_sbbf_contains_hashes(c, h.data(), N, b.data()) && a == b;
    same = same && s.contains(i32.data(), N, a.data()) == bf_sbbf_contains_int32s(c, i32.data(), N, b.data()) && a == b;
    same = same && s.contains(i64.data(), N, a.data()) == bf_sbbf_contains_int64s(c, i64.data(), N, b.data()) && a == b;
    same = same && s.contains(f32.data(), N, a.data()) == bf_sbbf_contains_floats(c, f32.data(), N, b.data()) && a == b;
    same = same && s.contains(f64.data(), N, a.data()) == bf_sbbf_contains_doubles(c, f64.data(), N, b.data()) && a == b;
    CHECK(same, "batch answers of the C calls");
    CHECK(s.contains(i64.data(), N / 2) == N / 2, "no false negative, out may be null");

    // Arrow byte strings, 32- and 64-bit offsets.
    const char data[] = "onetwothreefour";
    const std::int32_t off32[] = {0, 3, 6, 11, 15};
    const std::int64_t off64[] = {0, 3, 6, 11, 15};
    s.insert_binary(data, off32, 2);
    bf_sbbf_insert_binary(c, data, off32, 2);
    s.insert_binary(data, off64 + 2, 2);
    bf_sbbf_insert_large_binary(c, data, off64 + 2, 2);
    CHECK(same_bits(s, c), "binary inserts set the C calls' bits");
    std::uint8_t out4[4] = {};
    CHECK(s.contains_binary(data, off32, 4, out4) == 4 && s.contains_binary(data, off64, 4) == 4,
          "binary contains");
    const std::int32_t bad[] = {0, 4, 3};
    CHECK(status_of([&] { s.insert_binary(data, bad, 2); }) == BF_EINVAL, "bad offsets throw BF_EINVAL");
    CHECK(status_of([&] { (void)s.contains_binary(data, bad, 2); }) == BF_EINVAL, "bad offsets in contains");

#if defined(BF_HPP_SPAN)
    // std::span: a vector converts; the answers span must be long enough.
    bf::sbbf t = bf::sbbf::with_bytes(1 << 14);
    t.insert_hashes(std::span<const std::uint64_t>(h).first(N / 2));
    t.insert(std::span<const std::int32_t>(i32).first(N / 2));
    t.insert(std::span<const std::int64_t>(i64).first(N / 2));
    t.insert(std::span<const float>(f32).first(N / 2));
    t.insert(std::span<const double>(f64).first(N / 2));
    t.insert_binary(data, std::span<const std::int32_t>(off32, 3));
    t.insert_binary(data, std::span<const std::int64_t>(off64 + 2, 3));
    CHECK(same_bits(t, c), "span inserts set the C calls' bits");
    std::vector<std::uint8_t> sp(N);
    bool span_same = t.contains_hashes(h, sp) == bf_sbbf_contains_hashes(c, h.data(), N, b.data()) && sp == b;
    span_same = span_same && t.contains(i64, sp) == bf_sbbf_contains_int64s(c, i64.data(), N, b.data()) && sp == b;
    span_same = span_same && t.contains(f64) == bf_sbbf_contains_doubles(c, f64.data(), N, nullptr);
    CHECK(span_same, "span answers of the C calls");
    CHECK(t.contains_binary(data, std::span<const std::int32_t>(off32)) == 4, "span binary contains");
    std::vector<std::uint8_t> short_out(N - 1);
    CHECK(status_of([&] { (void)t.contains(i64, short_out); }) == BF_EBUFSIZE, "short answers span: BF_EBUFSIZE");
#endif
    bf_sbbf_free(c);
}

static void sbbf_errors_and_ownership() {
    try {
        bf::sbbf bad(1000, 2.0);
        CHECK(false, "fpp 2.0 must throw");
    } catch (const bf::error &e) {
        CHECK(e.status() == BF_EINVAL && e.code().value() == BF_EINVAL, "status BF_EINVAL");
        CHECK(&e.code().category() == &bf::category() && std::strcmp(e.code().category().name(), "blockfilter") == 0,
              "blockfilter error category");
        CHECK(e.code().message() == bf_strerror(BF_EINVAL), "message is bf_strerror's");
        CHECK(std::strstr(e.what(), "bf_sbbf_new") && std::strstr(e.what(), bf_strerror(BF_EINVAL)),
              "what() names the call and the reason");
    }
    CHECK(bf::make_error_code(BF_EREADONLY).message() == bf_strerror(BF_EREADONLY), "make_error_code");

    bf::sbbf a(100, 0.01);
    a.insert("x");
    bf::sbbf b(std::move(a));
    CHECK(!a && b && b.contains("x"), "move construction");
    bf::sbbf c(10, 0.1);
    c = std::move(b);  // frees c's filter
    CHECK(!b && c.contains("x"), "move assignment");
    bf_sbbf *raw = c.release();
    CHECK(!c && raw, "release");
    bf::sbbf d = bf::sbbf::adopt(raw);
    CHECK(d.get() == raw && d.contains("x"), "adopt");

    // Parquet's bytes: the fixture is what 1024 bytes and its four words give.
    std::vector<std::uint8_t> fixture = read_file(data_path("parquet/bloom_filter.xxhash.bin"));
    CHECK(fixture.size() == 1040, "fixture read");
    bf::sbbf p = bf::sbbf::with_bytes(1024, "scalar");
    for (const char *w : {"hello", "parquet", "bloom", "filter"}) p.insert(w);
    CHECK(p.to_parquet() == fixture, "to_parquet gives the fixture byte for byte");
    std::size_t used = 0;
    bf::sbbf q = bf::sbbf::from_parquet(fixture.data(), fixture.size(), &used);
    CHECK(used == 1040 && q.contains("hello") && !q.contains("NOT_EXISTS"), "from_parquet");
    bf::sbbf v = bf::sbbf::view_parquet(fixture.data(), fixture.size());
    CHECK(v.is_readonly() && v.contains("bloom"), "view_parquet");
    CHECK(status_of([&] { v.insert("y"); }) == BF_EREADONLY, "insert into a view: BF_EREADONLY");
    CHECK(status_of([&] { v.clear(); }) == BF_EREADONLY, "clear a view: BF_EREADONLY");
    bf::sbbf w = bf::sbbf::view(v.bitset(), v.num_bytes());
    CHECK(w.contains("filter"), "view of a bitset");
    q.merge(p);
    CHECK(status_of([&] { q.merge(d); }) == BF_EMISMATCH, "merge of another size: BF_EMISMATCH");
    CHECK(status_of([] { (void)bf::sbbf::from_parquet("xx", 2); }) != BF_OK, "from_parquet of junk throws");
    bf::sbbf k = bf::sbbf::parquet_sized(1000, 0.01);
    k.set_seed(77);
    CHECK(k.seed() == 77, "seed");
    k.insert("z");
    CHECK(status_of([&] { k.set_seed(78); }) == BF_EINVAL, "seed of a non-empty filter: BF_EINVAL");
    k.clear();
    CHECK(!k.contains("z"), "clear");
}

static void generic_filter() {
    bf_family fams[] = {BF_FAMILY_SBBF, BF_FAMILY_BLOOM, BF_FAMILY_COUNTING, BF_FAMILY_CUCKOO, BF_FAMILY_SCALABLE};
    std::vector<std::int64_t> keys(500);
    for (auto &k : keys) k = static_cast<std::int64_t>(next());
    for (bf_family fam : fams) {
        const char *name = bf_family_name(fam);
        bf::filter f(fam, 1000, 0.01);
        bf_filter *c = nullptr;
        CHECK(bf_filter_new(&c, fam, 1000, 0.01) == BF_OK, name);
        f.insert("alpha");
        bf_filter_insert(c, "alpha", 5);
        f.insert(keys.data(), keys.size());
        bf_filter_insert_int64s(c, keys.data(), keys.size(), nullptr);
        f.insert(std::int32_t{3});
        f.insert(4.0);
        CHECK(f.family() == fam && f.contains("alpha") && f.contains(std::int32_t{3}) && f.contains(4.0), name);
        std::int32_t three = 3;
        double four = 4.0;
        CHECK(f.contains(&three, 1) == 1 && f.contains(&four, 1) == 1, "typed single keys hash as the batches do");
        std::vector<std::uint8_t> a(keys.size()), b(keys.size());
        CHECK(f.contains(keys.data(), keys.size(), a.data()) == bf_filter_contains_int64s(c, keys.data(), keys.size(), b.data()) &&
                  a == b && f.contains(keys.data(), keys.size()) == keys.size(),
              "batch answers of the C calls");
        std::vector<std::uint8_t> img = f.save();
        CHECK(img.size() == f.save_size(), "save");
        bf::filter g = bf::filter::load(img.data(), img.size());
        bf::filter h = bf::filter::view(img.data(), img.size(), BF_VIEW_VERIFY_PAYLOAD);
        CHECK(g.contains("alpha") && h.contains("alpha") && h.contains(keys.data(), keys.size()) == keys.size(),
              "load and view");
        CHECK(status_of([&] { h.insert("beta"); }) == BF_EREADONLY, "insert into a view: BF_EREADONLY");
        bool removable = fam == BF_FAMILY_COUNTING || fam == BF_FAMILY_CUCKOO;
        CHECK(status_of([&] { f.remove("alpha"); }) == (removable ? BF_OK : BF_EUNSUPPORTED), "remove");
        bf_filter_stats st = f.stats();
        CHECK(st.family == fam && f.num_bytes() == bf_filter_num_bytes(c), "stats and size");
        bf_filter_free(c);
    }
    // A cuckoo filter that fills up: batch_error says how many went in.
    bf::filter small(BF_FAMILY_CUCKOO, 16, 0.01);
    std::vector<std::uint64_t> many(100000);
    for (auto &x : many) x = next();
    try {
        small.insert_hashes(many.data(), many.size());
        CHECK(false, "a full cuckoo filter must throw");
    } catch (const bf::batch_error &e) {
        CHECK(e.status() == BF_EFULL && e.done() > 0 && e.done() < many.size(), "batch_error: BF_EFULL, done");
        CHECK(small.contains_hashes(many.data(), e.done()) == e.done(), "the keys done are in");
    }
    // An SBBF handed to the generic layer.
    bf::sbbf s(1000, 0.01);
    s.insert("wrapped");
    bf::filter w = bf::filter::from_sbbf(std::move(s));
    CHECK(!s && w.family() == BF_FAMILY_SBBF && w.contains("wrapped") && w.sbbf_handle() != nullptr, "from_sbbf");
}

static void parquet_reader() {
    bf::parquet_file f(data_path("parquet/data_index_bloom_encoding_stats.parquet"));
    CHECK(f.num_row_groups() == 1 && f.num_columns() == 1 && f.num_rows() == 14, "shape");
    CHECK(f.created_by().find("parquet-mr") == 0, "created_by");
    std::size_t col = f.find_column("String");
    bf_parquet_column c = f.column(col);
    CHECK(col == 0 && c.physical_type == BF_PARQUET_BYTE_ARRAY && c.logical_type == BF_PARQUET_LT_STRING, "column");
    CHECK(f.row_group(0).num_rows == 14 && f.chunk(0, 0).bloom_filter_offset == 192, "row group and chunk");
    {
        bf::sbbf bloom = f.bloom_filter(0, 0);
        CHECK(bloom.is_readonly() && bloom.contains("Hello") && bloom.contains("dog") && !bloom.contains("NOT_EXISTS"),
              "the chunk's Bloom filter");
    }
    std::size_t maybe = 9;
    CHECK(f.probe(0, "Hello", 0, &maybe) == std::vector<std::uint8_t>{BF_PARQUET_MAYBE} && maybe == 1, "probe: maybe");
    CHECK(f.probe(0, "b") == std::vector<std::uint8_t>{BF_PARQUET_SKIP_BLOOM}, "probe: the filter skips");
    CHECK(f.hash_value(0, "Hello") == bf::hash("Hello"), "hash_value");
    CHECK(f.value_from_text(0, "dog") == "dog", "value_from_text");
    CHECK(f.value_to_text(0, "dog", BF_PARQUET_TEXT_JSON) == "\"dog\"", "value_to_text");
    std::string long_text(100, 'x');
    CHECK(f.value_to_text(0, long_text) == long_text && f.value_from_text(0, long_text) == long_text,
          "text longer than the first buffer");
    CHECK(status_of([&] { (void)f.find_column("nope"); }) == BF_ENOCOLUMN, "find_column: BF_ENOCOLUMN");
    CHECK(status_of([] { bf::parquet_file missing("/nonexistent/file.parquet"); }) == BF_EIO, "missing file: BF_EIO");
    std::vector<std::uint8_t> bytes = read_file(data_path("parquet/data_index_bloom_encoding_with_length.parquet"));
    bf::parquet_file m = bf::parquet_file::from_buffer(bytes.data(), bytes.size());
    bf::parquet_file moved(std::move(m));
    CHECK(moved.get() && !m.get() && moved.num_rows() == 14, "from_buffer and move");
    CHECK(status_of([] { (void)bf::parquet_file::from_buffer("PAR1", 4); }) != BF_OK, "junk throws");
}

int main() {
    sbbf_single_keys();
    sbbf_batches();
    sbbf_errors_and_ownership();
    generic_filter();
    parquet_reader();
    std::printf("test_hpp (C++%ld): %lu passed, %lu failed\n", static_cast<long>(__cplusplus / 100 % 100), passed,
                failed);
    return failed ? 1 : 0;
}
