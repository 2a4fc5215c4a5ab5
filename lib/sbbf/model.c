/* False-positive models and sizing of the SBBF (docs/families.md, "The
 * SBBF and its sizing"): the exact Poisson mixture over block loads, not the classic
 * formula, so compact sizing never undershoots the target. */
#define _DEFAULT_SOURCE /* lgamma_r */
#include "sbbf/sbbf.h"

#include <math.h>

/* ln(n!) without touching lgamma's global signgam, so the model and the
 * sizing built on it are safe to call from many threads at once. */
double bf__log_factorial(double n) {
#if defined(__GLIBC__) || defined(__APPLE__) || defined(__FreeBSD__) || defined(__OpenBSD__) || \
    defined(__NetBSD__)
    int sign;
    return lgamma_r(n + 1.0, &sign);
#else
    return lgamma(n + 1.0);
#endif
}

/* FPR(z, n) = sum_L Pois(L; n/z) (1 - (31/32)^L)^8, in log space. */
double bf__sbbf_fpp_blocks(uint64_t num_blocks, double n) {
    if (num_blocks == 0) return NAN;
    if (n <= 0) return 0.0;
    const double lambda = n / (double)num_blocks;
    const double lq = log(31.0 / 32.0);
    if (lambda > 1e7) {
        /* The Poisson is concentrated within 0.03% of lambda, where the
         * per-block term is 1 to double precision. */
        return pow(-expm1(lambda * lq), 8);
    }
    const double sd = sqrt(lambda);
    double lo = floor(lambda - 30.0 * sd - 40.0);
    double hi = ceil(lambda + 30.0 * sd + 40.0);
    if (lo < 0) lo = 0;
    const double log_lambda = log(lambda);
    double sum = 0.0;
    for (double L = lo; L <= hi; L += 1.0) {
        double logp = -lambda + L * log_lambda - bf__log_factorial(L);
        double pass = -expm1(L * lq); /* 1 - (31/32)^L */
        sum += exp(logp + 8.0 * log(pass > 0 ? pass : 1e-300)) * (L > 0);
    }
    return sum > 1.0 ? 1.0 : sum;
}

double bf_sbbf_model_fpp(uint64_t num_bytes, uint64_t n) {
    if (num_bytes < BF_SBBF_BLOCK_BYTES) return NAN;
    return bf__sbbf_fpp_blocks(num_bytes / BF_SBBF_BLOCK_BYTES, (double)n);
}

int bf_sbbf_compact_bytes(uint64_t ndv, double fpp, size_t *out_bytes) {
    if (!out_bytes || !bf_fpp_valid(fpp)) return BF_EINVAL;
    const uint64_t max_blocks = BF_SBBF_MAX_BYTES / BF_SBBF_BLOCK_BYTES;
    uint64_t lo = 1, hi = max_blocks;
    if (bf__sbbf_fpp_blocks(hi, (double)ndv) > fpp) return BF_ETOOBIG;
    /* FPR falls as z grows: find the fewest blocks meeting fpp. */
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (bf__sbbf_fpp_blocks(mid, (double)ndv) <= fpp)
            hi = mid;
        else
            lo = mid + 1;
    }
    uint64_t bytes;
    if (bf_mul_overflow(lo, BF_SBBF_BLOCK_BYTES, &bytes) || bytes > (uint64_t)SIZE_MAX)
        return BF_ETOOBIG;
    *out_bytes = (size_t)bytes;
    return BF_OK;
}

/* Parquet writers' sizing (Arrow's BlockSplitBloomFilter::OptimalNumOfBytes,
 * parquet-java's optimalNumOfBits): m = -8 ndv / ln(1 - fpp^(1/8)) bits,
 * clamped to [32 B, 128 MiB], rounded up to a power of two. */
int bf_sbbf_parquet_bytes(uint64_t ndv, double fpp, size_t *out_bytes) {
    if (!out_bytes || !bf_fpp_valid(fpp)) return BF_EINVAL;
    const double max_bits = (double)BF_PARQUET_MAX_BYTES * 8.0;
    const double min_bits = (double)BF_PARQUET_MIN_BYTES * 8.0;
    double m = -8.0 * (double)ndv / log(1.0 - pow(fpp, 1.0 / 8.0));
    double bits = (m < 0 || m > max_bits) ? max_bits : floor(m);
    if (bits < min_bits) bits = min_bits;
    uint64_t b = (uint64_t)bits, p = 1;
    while (p < b) p <<= 1;
    if ((double)p > max_bits) p = (uint64_t)max_bits;
    *out_bytes = (size_t)(p / 8);
    return BF_OK;
}
