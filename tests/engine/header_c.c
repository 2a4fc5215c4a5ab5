/* The public header compiles alone as C (first include, nothing before it)
 * and its declarations are usable. */
#include "blockfilter.h"

#include <stdio.h>

int main(void) {
    bf_status s = BF_OK;
    size_t bytes = 0;
    int rc = bf_sbbf_compact_bytes(1000, 0.01, &bytes);
    if (bf_version_number() != BF_VERSION_NUMBER || rc != BF_OK || bytes == 0) {
        printf("header_c: FAILED (version %u, rc %d)\n", bf_version_number(), rc);
        return 1;
    }
    printf("header_c: ok (%s, %s)\n", bf_version_string(), bf_strerror(s));
    return 0;
}
