/* The numbers the paper derives, computed by the library itself and printed
 * as one JSON object (scripts/paper.sh builds and runs this; scripts/
 * paper_tables.py turns the output into LaTeX). Nothing here is measured:
 * these are the models, the sizings and a worked example drawn from the
 * real bit layout, so the paper's text cannot disagree with the code.
 *
 *   paper_numbers > numbers.json
 *   paper_numbers --best-kernel      the best SBBF kernel this CPU runs
 */
#include <blockfilter.h>
#include <blockfilter_advanced.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failed = 0;

static void check(int ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "paper_numbers: check failed: %s\n", what);
        failed = 1;
    }
}

/* Parquet's salts, from their one definition (blockfilter_inline.h). */
static const uint32_t SALT[8] = {BF_SBBF_SALTS};

/* The bitset read back from the library as eight 32-bit words per block. */
static uint32_t word_of(const bf_sbbf *f, size_t block, int w) {
    const unsigned char *p = (const unsigned char *)bf_sbbf_bitset(f) + block * 32 + (size_t)w * 4;
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void print_bitset(const bf_sbbf *f, size_t blocks) {
    printf("[");
    for (size_t b = 0; b < blocks; b++)
        for (int w = 0; w < 8; w++)
            printf("%s%u", (b || w) ? "," : "", (unsigned)word_of(f, b, w));
    printf("]");
}

/* A 2-block (64-byte) filter: which block and bits each key sets, the bitset
 * after every insert, and the bits a query of absent keys checks. The bit
 * formula below is the documented layout, over the salts and block index
 * of the public header's primitives; the check against the library's own
 * bitset makes any disagreement fail the build. */
static void worked_example(void) {
    static const char *keys[] = {"apple", "banana", "cherry"};
    static const char *queries[] = {"apple", "durian", "elderberry", "fig"};
    const size_t blocks = 2;
    bf_sbbf *f;
    check(bf_sbbf_new_bytes_kernel(&f, blocks * 32, "scalar") == BF_OK, "2-block filter");
    uint32_t expect[16] = {0};
    printf("\"worked\":{\"bytes\":%zu,\"blocks\":%zu,\"salts\":[", blocks * 32, blocks);
    for (int w = 0; w < 8; w++) printf("%s\"0x%08x\"", w ? "," : "", (unsigned)SALT[w]);
    printf("],\"inserts\":[");
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        uint64_t h = bf_hash_xxh64(keys[i], strlen(keys[i]));
        size_t block = (size_t)bf_sbbf_block_index(h, blocks);
        printf("%s{\"key\":\"%s\",\"hash\":\"0x%016llx\",\"block\":%zu,\"bits\":[", i ? "," : "", keys[i],
               (unsigned long long)h, block);
        for (int w = 0; w < 8; w++) {
            unsigned bit = (unsigned)(((uint32_t)h * SALT[w]) >> 27);
            expect[block * 8 + (size_t)w] |= 1u << bit;
            printf("%s%u", w ? "," : "", bit);
        }
        bf_sbbf_insert(f, keys[i], strlen(keys[i]));
        printf("],\"bitset\":");
        print_bitset(f, blocks);
        printf("}");
        for (size_t b = 0; b < blocks; b++)
            for (int w = 0; w < 8; w++)
                check(word_of(f, b, w) == expect[b * 8 + (size_t)w], "worked example bits match the layout");
    }
    printf("],\"queries\":[");
    for (size_t i = 0; i < sizeof queries / sizeof *queries; i++) {
        uint64_t h = bf_hash_xxh64(queries[i], strlen(queries[i]));
        size_t block = (size_t)bf_sbbf_block_index(h, blocks);
        int present = 1;
        printf("%s{\"key\":\"%s\",\"hash\":\"0x%016llx\",\"block\":%zu,\"bits\":[", i ? "," : "", queries[i],
               (unsigned long long)h, block);
        for (int w = 0; w < 8; w++) {
            unsigned bit = (unsigned)(((uint32_t)h * SALT[w]) >> 27);
            int set = (word_of(f, block, w) >> bit) & 1;
            present &= set;
            printf("%s[%u,%d]", w ? "," : "", bit, set);
        }
        bool lib = bf_sbbf_contains(f, queries[i], strlen(queries[i]));
        check(lib == (present != 0), "worked example query matches the layout");
        printf("],\"contains\":%s}", lib ? "true" : "false");
    }
    printf("]}");
    bf_sbbf_free(f);
}

static double bpk(uint64_t bytes, uint64_t n) { return 8.0 * (double)bytes / (double)n; }

/* Sizing of every family for one target, and the SBBF-specific numbers. */
static void target(uint64_t n, double eps, int first) {
    static const bf_family fams[] = {BF_FAMILY_SBBF, BF_FAMILY_BLOOM, BF_FAMILY_COUNTING, BF_FAMILY_CUCKOO};
    printf("%s{\"n\":%llu,\"fpp\":%.10g", first ? "" : ",", (unsigned long long)n, eps);
    bf_sizing sz[4];
    for (int i = 0; i < 4; i++) {
        int rc = bf_size_for(fams[i], n, eps, &sz[i]);
        check(rc == BF_OK, "bf_size_for");
        printf(",\"%s\":{\"bytes\":%llu,\"bits_per_key\":%.6f,\"k\":%u,\"fp_bits\":%u,\"bucket_size\":%u,"
               "\"model_fpp\":%.8g}",
               bf_family_name(fams[i]), (unsigned long long)sz[i].num_bytes, sz[i].bits_per_key, sz[i].k,
               sz[i].fp_bits, sz[i].bucket_size, sz[i].model_fpp);
    }
    /* The classic filter at the SBBF's size: the blocked layout's penalty
     * at equal space. */
    double bloom_at_sbbf = NAN;
    check(bf_fpp_for(BF_FAMILY_BLOOM, sz[0].num_bytes, n, &bloom_at_sbbf) == BF_OK, "bf_fpp_for bloom");
    /* An SBBF at the classic filter's size. */
    uint64_t sbbf_at_bloom_bytes = sz[1].num_bytes / 32 * 32;
    double sbbf_at_bloom = bf_sbbf_model_fpp(sbbf_at_bloom_bytes, n);
    /* Arrow / parquet-java: m = -8n / ln(1 - eps^(1/8)) bits, which is the
     * classic formula with k = 8, i.e. every block equally loaded. */
    double m = -8.0 * (double)n / log(1.0 - pow(eps, 1.0 / 8.0));
    uint64_t formula_bytes = (uint64_t)ceil(m / 8.0 / 32.0) * 32;
    size_t pq_bytes = 0;
    check(bf_sbbf_parquet_bytes(n, eps, &pq_bytes) == BF_OK, "bf_sbbf_parquet_bytes");
    printf(",\"bloom_at_sbbf_bytes_fpp\":%.8g,\"sbbf_at_bloom_bytes_fpp\":%.8g", bloom_at_sbbf, sbbf_at_bloom);
    printf(",\"parquet_formula\":{\"bits_per_key\":%.6f,\"bytes\":%llu,\"model_fpp\":%.8g,\"k8_fpp\":%.8g}",
           m / (double)n, (unsigned long long)formula_bytes, bf_sbbf_model_fpp(formula_bytes, n),
           bf_bloom_model_fpp(formula_bytes * 8, 8, n));
    printf(",\"parquet_sizing\":{\"bytes\":%llu,\"bits_per_key\":%.6f,\"model_fpp\":%.8g}",
           (unsigned long long)pq_bytes, bpk(pq_bytes, n), bf_sbbf_model_fpp(pq_bytes, n));
    printf("}");
}

/* The Poisson mixture term by term at one size: where the false positives
 * of an SBBF come from. */
static void mixture(uint64_t n, double eps) {
    size_t bytes = 0;
    check(bf_sbbf_compact_bytes(n, eps, &bytes) == BF_OK, "compact bytes");
    double z = (double)(bytes / 32), lambda = (double)n / z, sum = 0, even = 0;
    printf("\"mixture\":{\"n\":%llu,\"fpp\":%g,\"bytes\":%zu,\"lambda\":%.6f,\"terms\":[", (unsigned long long)n,
           eps, bytes, lambda);
    int first = 1;
    for (int L = 0; L <= (int)(lambda * 3 + 20); L++) {
        double p = exp(-lambda + L * log(lambda) - lgamma(L + 1.0));
        double pass = pow(1.0 - pow(31.0 / 32.0, L), 8);
        sum += p * pass;
        printf("%s[%d,%.8g,%.8g]", first ? "" : ",", L, p, pass);
        first = 0;
    }
    double model = bf_sbbf_model_fpp(bytes, n);
    even = pow(1.0 - pow(31.0 / 32.0, lambda), 8);
    check(fabs(sum - model) <= 1e-6 * model, "mixture terms sum to the library's model");
    printf("],\"sum\":%.8g,\"model_fpp\":%.8g,\"even_load_fpp\":%.8g}", sum, model, even);
}

/* Model FPR of each family against bits/key at n = 10^6. */
static void curves(void) {
    const uint64_t n = 1000000;
    printf("\"curves\":{\"n\":%llu,\"points\":[", (unsigned long long)n);
    int first = 1;
    for (double b = 2.0; b <= 40.0 + 1e-9; b += 0.25) {
        uint64_t bytes = (uint64_t)(b * (double)n / 8.0) / 32 * 32;
        double sbbf = bf_sbbf_model_fpp(bytes, n), bloom = NAN, cuckoo = NAN, counting = NAN;
        if (bf_fpp_for(BF_FAMILY_BLOOM, bytes, n, &bloom) != BF_OK) bloom = NAN;
        if (bf_fpp_for(BF_FAMILY_CUCKOO, bytes, n, &cuckoo) != BF_OK) cuckoo = NAN;
        if (bf_fpp_for(BF_FAMILY_COUNTING, bytes, n, &counting) != BF_OK) counting = NAN;
        double k8 = bf_bloom_model_fpp(bytes * 8, 8, n);
        printf("%s{\"bpk\":%.4f,\"sbbf\":%.8g,\"bloom\":%.8g,\"bloom_k8\":%.8g", first ? "" : ",",
               bpk(bytes, n), sbbf, bloom, k8);
        if (!isnan(cuckoo)) printf(",\"cuckoo\":%.8g", cuckoo);
        if (!isnan(counting)) printf(",\"counting\":%.8g", counting);
        printf("}");
        first = 0;
    }
    printf("]}");
}

/* The best kernel this CPU runs (the library lists kernels best first),
 * whatever BLOCKFILTER_KERNEL forces: the docs tests run once, under the
 * test setup of this kernel. */
static int print_best_kernel(void) {
    for (size_t i = 0; i < bf_sbbf_kernel_count(); i++)
        if (bf_sbbf_kernel_supported(bf_sbbf_kernel_name(i))) {
            printf("%s\n", bf_sbbf_kernel_name(i));
            return 0;
        }
    return 1;
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "--best-kernel") == 0) return print_best_kernel();
    printf("{\"library_version\":\"%s\",", bf_version_string());
    worked_example();
    printf(",\"targets\":[");
    const double eps[] = {0.1, 0.01, 0.001, 0.0001};
    for (int i = 0; i < 4; i++) target(1000000, eps[i], i == 0);
    printf("],");
    mixture(1000000, 0.01);
    printf(",");
    curves();
    printf("}\n");
    return failed;
}
