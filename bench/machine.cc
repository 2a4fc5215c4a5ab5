// The machine as the run sees it (hwloc topology, /proc/cpuinfo, the
// library's kernels, the build) and thread pinning: one thread per core.
#include "bench.h"
#include "bench_build.h"
#include "bench_vcs.h"

#include <benchmark/benchmark.h>
#include <hwloc.h>

#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>

namespace bfb {

namespace {
hwloc_topology_t topo;
bool topo_ok = false;
std::vector<hwloc_obj_t> cores;
std::string pin_record = "not pinned";
std::mutex pin_mu;
std::map<int, std::string> pinned;  // thread index -> "core C (PU P#x)" or failure

std::string cpuinfo_field(const char *name) {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.compare(0, std::strlen(name), name) == 0) {
            auto colon = line.find(':');
            if (colon == std::string::npos) continue;
            std::string v = line.substr(colon + 1);
            while (!v.empty() && v.front() == ' ') v.erase(v.begin());
            return v;
        }
    }
    return "";
}
} // namespace

void machine_init() {
    if (hwloc_topology_init(&topo) == 0 && hwloc_topology_load(topo) == 0) {
        topo_ok = true;
        int nc = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
        for (int i = 0; i < nc; i++) cores.push_back(hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, i));
    }
    pin_thread_to_core(0);
}

int num_cores() {
    if (!cores.empty()) return (int)cores.size();
    unsigned h = std::thread::hardware_concurrency();
    return h ? (int)h : 1;
}

bool pin_thread_to_core(int index) {
    std::string what;
    bool ok = false;
    if (topo_ok && !cores.empty()) {
        hwloc_obj_t core = cores[(size_t)index % cores.size()];
        hwloc_bitmap_t set = hwloc_bitmap_dup(core->cpuset);
        hwloc_bitmap_singlify(set);  // one PU of the core
        int pu = hwloc_bitmap_first(set);
        ok = hwloc_set_cpubind(topo, set, HWLOC_CPUBIND_THREAD) == 0;
        hwloc_bitmap_free(set);
        std::ostringstream s;
        s << "core L#" << core->logical_index << " (PU P#" << pu << ")" << (ok ? "" : " FAILED");
        what = s.str();
    } else {
        what = "no hwloc topology";
    }
    std::lock_guard<std::mutex> g(pin_mu);
    pinned[index] = what;
    return ok;
}

static std::string join_kernels(bool supported_only) {
    std::string s;
    for (size_t i = 0; i < bf_sbbf_kernel_count(); i++) {
        const char *k = bf_sbbf_kernel_name(i);
        if (supported_only && !bf_sbbf_kernel_supported(k)) continue;
        if (!s.empty()) s += ",";
        s += k;
    }
    return s;
}

static std::string caches_description() {
    if (!topo_ok) return "unknown";
    std::ostringstream s;
    const hwloc_obj_type_t types[] = {HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L3CACHE,
                                      HWLOC_OBJ_L4CACHE};
    const char *names[] = {"L1d", "L2", "L3", "L4"};
    for (int t = 0; t < 4; t++) {
        int count = hwloc_get_nbobjs_by_type(topo, types[t]);
        if (count <= 0) continue;
        hwloc_obj_t o = hwloc_get_obj_by_type(topo, types[t], 0);
        if (!s.str().empty()) s << "; ";
        s << names[t] << " " << count << " x " << (o->attr->cache.size >> 10) << " KiB"
          << " (line " << o->attr->cache.linesize << " B, "
          << (o->attr->cache.associativity < 0 ? std::string("fully")
                                                : std::to_string(o->attr->cache.associativity) + "-way")
          << ")";
    }
    return s.str();
}

// The model curves of every family at n = 10^6 (bits/key:fpr pairs), so the
// plots draw each family's model from the library itself.
static std::string model_curve(bf_family fam) {
    const uint64_t n = 1000000;
    std::ostringstream s;
    s.precision(6);
    for (double bpk = 2.0; bpk <= 80.0 + 1e-9; bpk += 0.5) {
        uint64_t bytes = (uint64_t)(bpk * (double)n / 8.0);
        double fpr;
        if (fam == BF_FAMILY_SBBF) {
            bytes = bytes / 32 * 32;
            fpr = bf_sbbf_model_fpp(bytes, n);
        } else if (bf_fpp_for(fam, bytes, n, &fpr) != BF_OK) {
            continue;
        }
        if (!(fpr > 0)) continue;
        if (s.tellp() > 0) s << ";";
        s << bpk << ":" << fpr;
    }
    return s.str();
}

void add_machine_context() {
    using benchmark::AddCustomContext;
    std::string model = cpuinfo_field("model name");
    if (model.empty()) model = cpuinfo_field("Model name");
    if (model.empty()) model = cpuinfo_field("CPU part");
    std::string flags = cpuinfo_field("flags");
    if (flags.empty()) flags = cpuinfo_field("Features");
    AddCustomContext("bf_cpu_model", model.empty() ? "unknown" : model);
    AddCustomContext("bf_cpu_flags", flags);
    if (topo_ok) {
        AddCustomContext("bf_hwloc_packages", std::to_string(hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE)));
        AddCustomContext("bf_hwloc_numa_nodes", std::to_string(hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE)));
        AddCustomContext("bf_hwloc_cores", std::to_string(hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE)));
        AddCustomContext("bf_hwloc_pus", std::to_string(hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU)));
        AddCustomContext("bf_hwloc_version", HWLOC_VERSION);
    }
    AddCustomContext("bf_caches", caches_description());
    {
        std::lock_guard<std::mutex> g(pin_mu);
        std::ostringstream s;
        s << "one thread per core, thread i on core i mod " << num_cores() << " via hwloc_set_cpubind(HWLOC_CPUBIND_THREAD):";
        for (auto &p : pinned) s << " t" << p.first << "=" << p.second << ";";
        AddCustomContext("bf_pinning", s.str());
    }
    const char *dk = nullptr;
    int rc = bf_sbbf_default_kernel(&dk);
    AddCustomContext("bf_kernel_auto", rc == BF_OK ? dk : std::string("error: ") + bf_strerror(rc));
    const char *forced = std::getenv("BLOCKFILTER_KERNEL");
    AddCustomContext("bf_kernel_env", forced ? forced : "");
    AddCustomContext("bf_kernels_compiled", join_kernels(false));
    AddCustomContext("bf_kernels_supported", join_kernels(true));
    AddCustomContext("bf_library_version", bf_version_string());
    AddCustomContext("bf_compiler_c", BF_BENCH_CC);
    AddCustomContext("bf_compiler_cxx", BF_BENCH_CXX);
    AddCustomContext("bf_build", std::string("buildtype=") + BF_BENCH_BUILDTYPE + " optimization=" +
                                     BF_BENCH_OPTIMIZATION + " b_ndebug=" + BF_BENCH_NDEBUG +
                                     " c_args=[" + BF_BENCH_C_ARGS + "] cpp_args=[" + BF_BENCH_CPP_ARGS + "]");
    AddCustomContext("bf_kernels_built", BF_BENCH_KERNELS_BUILT);
    AddCustomContext("bf_commit", BF_BENCH_COMMIT);
    {
        char buf[64];
        std::time_t t = std::time(nullptr);
        std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
        AddCustomContext("bf_date_utc", buf);
    }
    {
        char buf[32];
        std::snprintf(buf, sizeof buf, "0x%016llx", (unsigned long long)options().seed);
        AddCustomContext("bf_seed", buf);
    }
    std::ifstream thp("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string thp_mode;
    std::getline(thp, thp_mode);
    AddCustomContext("bf_thp", thp_mode);
    AddCustomContext("bf_model_curve_sbbf", model_curve(BF_FAMILY_SBBF));
    AddCustomContext("bf_model_curve_bloom", model_curve(BF_FAMILY_BLOOM));
    AddCustomContext("bf_model_curve_counting", model_curve(BF_FAMILY_COUNTING));
    AddCustomContext("bf_model_curve_cuckoo", model_curve(BF_FAMILY_CUCKOO));
}

} // namespace bfb
