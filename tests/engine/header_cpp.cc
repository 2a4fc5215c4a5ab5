// The public header compiles alone as C++ (extern "C", no C-only
// constructs) and links against the C library; its single-key inline paths
// give the exported functions' bits and answers (header_paths.h), built
// plain and with -mavx2 (see header_c.c for HEADER_NEEDS).
#include "blockfilter.h"

#include "header_paths.h"

#include <cstdio>
#include <cstring>

int main() {
#if defined(HEADER_NEEDS) && (defined(__x86_64__) || defined(__i386__))
    __builtin_cpu_init();
    if (!__builtin_cpu_supports(HEADER_NEEDS)) {
        std::printf("header_cpp: this CPU lacks %s, skipped\n", HEADER_NEEDS);
        return 77;
    }
#endif
    bf_sbbf *f = nullptr;
    if (bf_sbbf_new(&f, 1000, 0.01) != BF_OK) return 1;
    const char key[] = "hello";
    bf_sbbf_insert(f, key, std::strlen(key));
    const bool ok = bf_sbbf_contains(f, key, std::strlen(key)) &&
                    std::strcmp(bf_version_string(), BF_VERSION_STRING) == 0;
    bf_sbbf_free(f);
    unsigned long bad = header_paths("header_cpp");
    std::printf("header_cpp: %s\n", ok && !bad ? "ok" : "FAILED");
    return ok && !bad ? 0 : 1;
}
