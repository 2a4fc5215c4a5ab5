/*
 * The one dispatcher: both kernel tables, best first, and the choices made
 * from them.
 *
 *  - SBBF kernels (sbbf_kernel.h): a new filter gets BLOCKFILTER_KERNEL's
 *    kernel if the variable is set (an unknown or unsupported name is an
 *    error, never a fallback), else the best the CPU runs; it keeps that
 *    kernel for life.
 *  - Hash kernels (hash/xxh64.h: XXH64 of fixed-width keys): an SBBF
 *    hashes typed keys with the hash kernel of its own kernel's ISA,
 *    chosen once when the filter is made (bf__sbbf_bind_kernel), so
 *    BLOCKFILTER_KERNEL=scalar means scalar hashing too; everything that
 *    hashes keys without an SBBF (other families' filters, at creation;
 *    bf_hash_int64s and its kind) takes the process default kernel's.
 *
 * Nothing here compares names on a hot path: the tables carry what the
 * choices need (the header's kernel class, whether a hash kernel pays),
 * and names are compared only to honour BLOCKFILTER_KERNEL or a caller's
 * bf_sbbf_new_bytes_kernel.
 */
#include "sbbf/sbbf.h"

#include <stdlib.h>
#include <string.h>

/* ---- SBBF kernels ------------------------------------------------------------ */

static const struct sbbf_kernel_row {
    const bf_kernel *kernel;
    /* The class the header's inline paths know the kernel by
     * (BF_SBBF_KERNEL_*, in the filter's public layout tag). */
    uint32_t layout_class;
} sbbf_kernels[] = {
#if defined(BF_HAVE_AVX512)
    {&bf__sbbf_kernel_avx512, BF_SBBF_KERNEL_AVX512},
#endif
#if defined(BF_HAVE_AVX2)
    {&bf__sbbf_kernel_avx2, BF_SBBF_KERNEL_AVX2},
#endif
#if defined(BF_HAVE_NEON)
    {&bf__sbbf_kernel_neon, BF_SBBF_KERNEL_NEON},
#endif
    {&bf__sbbf_kernel_scalar, BF_SBBF_KERNEL_SCALAR},
};
#define NUM_SBBF_KERNELS (sizeof sbbf_kernels / sizeof sbbf_kernels[0])

static bool cpu_runs(uint32_t required) { return (required & ~bf__cpu_features()) == 0; }

size_t bf_sbbf_kernel_count(void) { return NUM_SBBF_KERNELS; }

const char *bf_sbbf_kernel_name(size_t i) {
    return i < NUM_SBBF_KERNELS ? sbbf_kernels[i].kernel->name : NULL;
}

const bf_kernel *bf__sbbf_kernel_by_name(const char *name) {
    if (!name) return NULL;
    for (size_t i = 0; i < NUM_SBBF_KERNELS; i++) {
        const bf_kernel *kernel = sbbf_kernels[i].kernel;
        if (strcmp(kernel->name, name) == 0) return cpu_runs(kernel->required) ? kernel : NULL;
    }
    return NULL;
}

bool bf_sbbf_kernel_supported(const char *name) { return bf__sbbf_kernel_by_name(name) != NULL; }

const bf_kernel *bf__sbbf_kernel_default(void) {
    /* Read at every filter's creation (cheap next to an allocation), so a
     * program or test can change the variable between filters. */
    const char *forced = getenv("BLOCKFILTER_KERNEL");
    if (forced && *forced) return bf__sbbf_kernel_by_name(forced);
    for (size_t i = 0; i < NUM_SBBF_KERNELS; i++)
        if (cpu_runs(sbbf_kernels[i].kernel->required)) return sbbf_kernels[i].kernel;
    return &bf__sbbf_kernel_scalar;
}

int bf_sbbf_default_kernel(const char **name) {
    if (!name) return BF_EINVAL;
    const bf_kernel *kernel = bf__sbbf_kernel_default();
    if (!kernel) return BF_EKERNEL;
    *name = kernel->name;
    return BF_OK;
}

/* ---- hash kernels ------------------------------------------------------------ */

static const struct hash_kernel_row {
    const bf_hash_kernel *kernel;
    /*
     * Whether it is chosen at all: by measurement (docs/kernels.md).
     * AVX-512 hashed 8-byte keys 8.5x faster than scalar on Zen 5 and AVX2
     * 1.15x. The NEON kernel (two lanes, each 64-bit multiply built from
     * five instructions) is compiled and tested bit for bit under qemu,
     * but has not been timed on aarch64 hardware, and a count of its
     * operations against scalar code's (one MUL per multiply) says it
     * would not pay on the common Neoverse cores; so aarch64 hashes with
     * scalar code until it is measured.
     */
    bool pays;
} hash_kernels[] = {
#if defined(BF_HAVE_XXH_AVX512)
    {&bf__hash_kernel_avx512, true},
#endif
#if defined(BF_HAVE_XXH_AVX2)
    {&bf__hash_kernel_avx2, true},
#endif
#if defined(BF_HAVE_XXH_NEON)
    {&bf__hash_kernel_neon, false},
#endif
    {&bf__hash_kernel_scalar, true},
};
#define NUM_HASH_KERNELS (sizeof hash_kernels / sizeof hash_kernels[0])

size_t bf__hash_kernel_count(void) { return NUM_HASH_KERNELS; }

const bf_hash_kernel *bf__hash_kernel_at(size_t i) {
    return i < NUM_HASH_KERNELS ? hash_kernels[i].kernel : NULL;
}

/*
 * The hash kernel of an SBBF kernel: the first compiled-in hash kernel
 * that pays, that the CPU runs, and whose ISA the SBBF kernel's own
 * requirements cover (an avx512 filter hashes with AVX-512 if the CPU also
 * has DQ, else with AVX2; a scalar filter hashes with scalar code).
 */
const bf_hash_kernel *bf__hash_kernel_for(const bf_kernel *kernel) {
    if (!kernel) return &bf__hash_kernel_scalar;
    uint32_t allowed = kernel->required;
    if (allowed & BF_CPU_AVX512) allowed |= BF_CPU_AVX2 | BF_CPU_AVX512DQ;
    for (size_t i = 0; i < NUM_HASH_KERNELS; i++) {
        const struct hash_kernel_row *row = &hash_kernels[i];
        if (row->pays && (row->kernel->required & ~allowed) == 0 && cpu_runs(row->kernel->required))
            return row->kernel;
    }
    return &bf__hash_kernel_scalar;
}

/* Resolved on first use, once per process (a race resolves it twice, to
 * the same answer). */
const bf_hash_kernel *bf__hash_kernel_default(void) {
    static const bf_hash_kernel *resolved;
    const bf_hash_kernel *kernel = __atomic_load_n(&resolved, __ATOMIC_ACQUIRE);
    if (BF_UNLIKELY(!kernel)) {
        kernel = bf__hash_kernel_for(bf__sbbf_kernel_default());
        __atomic_store_n(&resolved, kernel, __ATOMIC_RELEASE);
    }
    return kernel;
}

/* ---- binding a filter to its kernels -------------------------------------- */

/* The kernel class of a kernel of the table; scalar for any other (a
 * test's emulated kernel), whose filters the inline paths then leave to
 * the exported functions. */
static uint32_t layout_class_of(const bf_kernel *kernel) {
    for (size_t i = 0; i < NUM_SBBF_KERNELS; i++)
        if (sbbf_kernels[i].kernel == kernel) return sbbf_kernels[i].layout_class;
    return BF_SBBF_KERNEL_SCALAR;
}

/* The kernel, its hash kernel, and what the header's inline paths read:
 * the tag they compare against (version and kernel class), and the bitset
 * their inserts may write: the filter's own class, and the AVX2 class for
 * an avx512 filter (whose single-key calls are the AVX2 sequence); NULL
 * everywhere for a view. */
void bf__sbbf_bind_kernel(bf_sbbf *f, const bf_kernel *kernel) {
    f->kernel = kernel;
    f->hash_kernel = bf__hash_kernel_for(kernel);
    uint32_t layout_class = layout_class_of(kernel);
    f->tag = BF_SBBF_TAG(layout_class);
    f->reserved = 0;
    for (size_t i = 0; i < 4; i++) f->insert_bits[i] = NULL;
    f->insert_bits[layout_class] = f->bits;
    if (layout_class == BF_SBBF_KERNEL_AVX512) f->insert_bits[BF_SBBF_KERNEL_AVX2] = f->bits;
}
