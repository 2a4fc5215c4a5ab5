/* The C program of the CMake consumer (tests/install/cmake): the header
 * and library found through blockfilter::blockfilter. */
#include <blockfilter.h>
#include <blockfilter_advanced.h> /* bf_sbbf_kernel */

#include <stdio.h>
#include <string.h>

int main(void) {
    bf_sbbf *f = NULL;
    if (bf_sbbf_new(&f, 1000, 0.01) != BF_OK) return 1;
    bf_sbbf_insert(f, "engine", 6);
    int ok = bf_sbbf_contains(f, "engine", 6) && bf_version_number() == BF_VERSION_NUMBER;
    printf("consumer_c: blockfilter %s, kernel %s: %s\n", bf_version_string(), bf_sbbf_kernel(f),
           ok ? "ok" : "FAILED");
    bf_sbbf_free(f);
    return ok ? 0 : 1;
}
