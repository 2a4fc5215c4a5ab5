/* The public header compiles alone as C (first include, nothing before it)
 * and its declarations are usable; its single-key inline paths give the
 * exported functions' bits and answers (header_paths.h). meson builds this
 * file several times: plain, with -mavx2 / AVX-512 flags (the AVX2 inline
 * code), and with -DBF_NO_INLINE. HEADER_NEEDS names the x86 feature the
 * build's flags assume: without it on this CPU the test is skipped (77). */
#include "blockfilter.h"

#include "header_paths.h"

#include <stdio.h>

int main(void) {
#if defined(HEADER_NEEDS) && (defined(__x86_64__) || defined(__i386__))
    __builtin_cpu_init();
    if (!__builtin_cpu_supports(HEADER_NEEDS)) {
        printf("header_c: this CPU lacks %s, skipped\n", HEADER_NEEDS);
        return 77;
    }
#endif
    bf_status s = BF_OK;
    size_t bytes = 0;
    int rc = bf_sbbf_compact_bytes(1000, 0.01, &bytes);
    if (bf_version_number() != BF_VERSION_NUMBER || rc != BF_OK || bytes == 0) {
        printf("header_c: FAILED (version %u, rc %d)\n", bf_version_number(), rc);
        return 1;
    }
    unsigned long bad = header_paths("header_c");
    printf("header_c: %s (%s, %s)\n", bad ? "FAILED" : "ok", bf_version_string(), bf_strerror(s));
    return bad ? 1 : 0;
}
