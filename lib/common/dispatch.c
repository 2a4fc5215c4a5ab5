/* The best-first table of SBBF kernels and the process-wide choice. */
#include "sbbf/sbbf.h"

#include <stdlib.h>
#include <string.h>

static const bf_kernel *const kernels[] = {
#if defined(BF_HAVE_AVX512)
    &bf__sbbf_kernel_avx512,
#endif
#if defined(BF_HAVE_AVX2)
    &bf__sbbf_kernel_avx2,
#endif
#if defined(BF_HAVE_NEON)
    &bf__sbbf_kernel_neon,
#endif
    &bf__sbbf_kernel_scalar,
};
#define NUM_KERNELS (sizeof kernels / sizeof kernels[0])

static int supported(const bf_kernel *k) {
    return (k->required & ~bf__cpu_features()) == 0;
}

size_t bf_sbbf_kernel_count(void) { return NUM_KERNELS; }

const char *bf_sbbf_kernel_name(size_t i) {
    return i < NUM_KERNELS ? kernels[i]->name : NULL;
}

const bf_kernel *bf__sbbf_kernel_by_name(const char *name) {
    if (!name) return NULL;
    for (size_t i = 0; i < NUM_KERNELS; i++)
        if (strcmp(kernels[i]->name, name) == 0) return supported(kernels[i]) ? kernels[i] : NULL;
    return NULL;
}

bool bf_sbbf_kernel_supported(const char *name) { return bf__sbbf_kernel_by_name(name) != NULL; }

const bf_kernel *bf__sbbf_kernel_default(void) {
    /* Read every time (cheap next to an allocation), so a test can change
     * the variable; an unknown or unsupported name is an error. */
    const char *forced = getenv("BLOCKFILTER_KERNEL");
    if (forced && *forced) return bf__sbbf_kernel_by_name(forced);
    for (size_t i = 0; i < NUM_KERNELS; i++)
        if (supported(kernels[i])) return kernels[i];
    return &bf__sbbf_kernel_scalar;
}

int bf_sbbf_default_kernel(const char **name) {
    if (!name) return BF_EINVAL;
    const bf_kernel *k = bf__sbbf_kernel_default();
    if (!k) return BF_EKERNEL;
    *name = k->name;
    return BF_OK;
}

/* The tag the header's inline queries compare against (version and kernel
 * class), and the bitset its inline inserts may write: the filter's own
 * class, and the AVX2 class for an avx512 filter (whose single-key calls
 * are the AVX2 sequence); NULL everywhere for a view. */
void bf__sbbf_set_layout(bf_sbbf *f) {
    static const struct {
        const char *name;
        uint32_t cls;
    } classes[] = {{"avx2", BF_SBBF_KERNEL_AVX2},
                   {"avx512", BF_SBBF_KERNEL_AVX512},
                   {"neon", BF_SBBF_KERNEL_NEON}};
    uint32_t cls = BF_SBBF_KERNEL_SCALAR;
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
        if (strcmp(f->kernel->name, classes[i].name) == 0) cls = classes[i].cls;
    f->tag = BF_SBBF_TAG(cls);
    f->reserved = 0;
    for (size_t i = 0; i < 4; i++) f->insert_bits[i] = NULL;
    f->insert_bits[cls] = f->bits;
    if (cls == BF_SBBF_KERNEL_AVX512) f->insert_bits[BF_SBBF_KERNEL_AVX2] = f->bits;
}
