// The C++ program of the CMake consumer (tests/install/cmake): the
// installed blockfilter.hpp through blockfilter::blockfilter.
#include <blockfilter.hpp>

#include <cstdint>
#include <cstdio>
#include <vector>

int main() {
    bf::sbbf f(1000, 0.01);
    std::vector<std::int64_t> keys{1, 2, 3, 42};
    f.insert(keys.data(), keys.size());
    bool ok = f.contains(keys.data(), keys.size()) == keys.size() && f.contains(std::int64_t{42});
    try {
        bf::sbbf bad(1000, 2.0);
        ok = false;
    } catch (const bf::error &e) {
        ok = ok && e.status() == BF_EINVAL;
    }
    std::printf("consumer_cpp: %s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
