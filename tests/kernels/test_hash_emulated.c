/*
 * The AVX2 and AVX-512 hash kernels (lib/hash/xxh64_avx2.c, lib/hash/xxh64_avx512.c)
 * compiled a second time against SIMDe's portable intrinsics, with no ISA
 * flag (simde-shim/immintrin.h, tests/kernels/meson.build), and compared
 * with the scalar XXH64 reference bit for bit, as test_hash_equiv does for
 * the real instructions: so the AVX-512 code is checked on hosts without
 * AVX-512 (or without DQ), and on aarch64 under qemu. Mutants (the kernels
 * built with one intrinsic deliberately wrong: a 64-bit rotate one bit
 * short, an unsigned 32x32 multiply made signed) must be caught, or the
 * test fails. Plain C; exit status 0 on success, 1 on failure.
 */
#include "check.h"
#include "hash_check.h"

extern const bf_hash_kernel bf__hash_kernel_avx2_emulated;
extern const bf_hash_kernel bf__hash_kernel_avx512_emulated;
extern const bf_hash_kernel bf__hash_kernel_avx512_mutant_rol;
extern const bf_hash_kernel bf__hash_kernel_avx2_mutant_mul;

int main(void) {
    const bf_hash_kernel *real[] = {&bf__hash_kernel_avx2_emulated,
                                    &bf__hash_kernel_avx512_emulated};
    const char *const names[] = {"avx2", "avx512"};
    unsigned long checks = 0;
    for (size_t i = 0; i < 2; i++) {
        hash_tally t32, t64;
        memset(&t32, 0, sizeof t32);
        memset(&t64, 0, sizeof t64);
        CHECK(strcmp(real[i]->name, names[i]) == 0 && real[i]->u64 != bf__hash_kernel_scalar.u64,
              "emulated kernel %zu is %s", i, real[i]->name);
        if (!hash_compare(real[i], &t32, &t64)) {
            CHECK(0, "out of memory");
            continue;
        }
        checks += t32.checks + t64.checks;
        CHECK(t32.bad == 0 && t32.checks > 0, "emulated %s, 4-byte keys: %lu of %lu differ; %s",
              names[i], t32.bad, t32.checks, t32.first);
        CHECK(t64.bad == 0 && t64.checks > 0, "emulated %s, 8-byte keys: %lu of %lu differ; %s",
              names[i], t64.bad, t64.checks, t64.first);
    }
    /* Both mutants break both widths (the rotate and the multiply sit in
     * every XXH64 round). */
    const bf_hash_kernel *mutants[] = {&bf__hash_kernel_avx512_mutant_rol,
                                       &bf__hash_kernel_avx2_mutant_mul};
    const char *const what[] = {"avx512, rotate one bit short", "avx2, signed 32x32 multiply"};
    size_t caught = 0;
    for (size_t i = 0; i < 2; i++) {
        hash_tally t32, t64;
        memset(&t32, 0, sizeof t32);
        memset(&t64, 0, sizeof t64);
        if (!hash_compare(mutants[i], &t32, &t64)) {
            CHECK(0, "out of memory");
            continue;
        }
        int ok = t32.bad > 0 && t64.bad > 0;
        CHECK(ok, "mutant (%s) not caught: %lu / %lu bad", what[i], t32.bad, t64.bad);
        caught += ok;
    }
    printf("emulated hash kernels (SIMDe): avx2 and avx512 vs scalar XXH64, %lu checks, %s; "
           "%zu of 2 mutants caught\n",
           checks, failed ? "FAILED" : "all identical", caught);
    return failed ? 1 : 0;
}
