/* Prints the SBBF kernels compiled in and supported on this machine, one
 * per line, best first: scripts/test.sh runs the suite once per kernel. */
#include <stdio.h>

#include "blockfilter.h"
#include "blockfilter_advanced.h"

int main(void) {
    for (size_t i = 0; i < bf_sbbf_kernel_count(); i++)
        if (bf_sbbf_kernel_supported(bf_sbbf_kernel_name(i))) printf("%s\n", bf_sbbf_kernel_name(i));
    return 0;
}
