// The public header compiles alone as C++ (extern "C", no C-only
// constructs) and links against the C library.
#include "blockfilter.h"

#include <cstdio>
#include <cstring>

int main() {
    bf_sbbf *f = nullptr;
    if (bf_sbbf_new(&f, 1000, 0.01) != BF_OK) return 1;
    const char key[] = "hello";
    bf_sbbf_insert(f, key, std::strlen(key));
    const bool ok = bf_sbbf_contains(f, key, std::strlen(key)) &&
                    std::strcmp(bf_version_string(), BF_VERSION_STRING) == 0;
    bf_sbbf_free(f);
    std::printf("header_cpp: %s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
