// The machine's load while the run ran: /proc/loadavg before the first
// benchmark, every few seconds during the run (a background thread) and
// after the last, written into the JSON as the top-level object
// "bf_loadavg" (see results/README.md) and printed at the end.
//
// The kernel's 1-minute load average counts the harness's own threads too:
// one while a single-thread benchmark runs, two during a 2-thread scaling
// run. So that a quiet machine reads the same whichever part ran last, the
// monitor also follows the harness's own share, own_1m: the CPU time the
// process used, in cores, averaged by the same exponential (time constant
// 60 s, updated every 5 s) the kernel applies to its runnable-task count.
// Each sample records load1_adj = load1 - max(0, own_1m - 1): the load
// average less the harness's threads beyond its first. On an idle machine
// it stays near 1 during the run; other work raises it.
#include "bench.h"

#include <cmath>
#include <ctime>
#include <fstream>
#include <sstream>

namespace bfb {

namespace {

struct Monitor {
    std::mutex mu;
    std::condition_variable cv;
    std::thread thread;
    bool running = false, stop = false;
    double interval_s = 30;
    double t0 = 0;                // steady-clock start of the run
    double last_wall = 0, last_cpu = 0;
    double own_1m = 0;            // the harness's own load, EWMA over 60 s
    bool have_before = false;
    LoadSample before, after;
    std::vector<LoadSample> during;
};

Monitor &mon() {
    static Monitor m;
    return m;
}

double process_cpu_s() {
    timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0) return 0;
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

// Reads /proc/loadavg; false where there is none (not Linux).
bool read_loadavg(double *l1, double *l5, double *l15, std::string *raw) {
    std::ifstream in("/proc/loadavg");
    std::string line;
    if (!std::getline(in, line)) return false;
    std::istringstream s(line);
    if (!(s >> *l1 >> *l5 >> *l15)) return false;
    if (raw) *raw = line;
    return true;
}

// Folds the CPU time used since the last update into own_1m (mu held).
void update_own(Monitor &m) {
    double wall = now_s(), cpu = process_cpu_s();
    double dt = wall - m.last_wall;
    if (dt <= 0) return;
    double cores = std::max(0.0, (cpu - m.last_cpu) / dt);
    double decay = std::exp(-dt / 60.0);
    m.own_1m = m.own_1m * decay + cores * (1.0 - decay);
    m.last_wall = wall;
    m.last_cpu = cpu;
}

// A sample now (mu held); NaN loads where /proc/loadavg is missing.
LoadSample sample(Monitor &m) {
    update_own(m);
    LoadSample s;
    s.t_s = now_s() - m.t0;
    if (!read_loadavg(&s.load1, &s.load5, &s.load15, nullptr)) s.load1 = s.load5 = s.load15 = std::nan("");
    s.own_1m = m.own_1m;
    s.load1_adj = s.load1 - std::max(0.0, s.own_1m - 1.0);
    return s;
}

void run_monitor() {
    Monitor &m = mon();
    std::unique_lock<std::mutex> g(m.mu);
    double next_record = m.t0 + m.interval_s;
    while (!m.stop) {
        // Wake every 5 s (the kernel's own period) to follow own_1m; record
        // a sample every interval.
        double wake = std::min(next_record, now_s() + 5.0);
        m.cv.wait_for(g, std::chrono::duration<double>(std::max(0.0, wake - now_s())), [&] { return m.stop; });
        if (m.stop) break;
        update_own(m);
        if (now_s() >= next_record) {
            m.during.push_back(sample(m));
            next_record += m.interval_s;
        }
    }
}

std::string num(double v) {
    if (!std::isfinite(v)) return "null";
    char b[32];
    std::snprintf(b, sizeof b, "%.4g", v);
    return b;
}

std::string sample_json(const LoadSample &s) {
    return "{\"t_s\": " + num(s.t_s) + ", \"load1\": " + num(s.load1) + ", \"load5\": " + num(s.load5) +
           ", \"load15\": " + num(s.load15) + ", \"own_1m\": " + num(s.own_1m) + ", \"load1_adj\": " +
           num(s.load1_adj) + "}";
}

} // namespace

std::string loadavg_raw() {
    double a, b, c;
    std::string raw;
    return read_loadavg(&a, &b, &c, &raw) ? raw : "unavailable";
}

void load_monitor_start(double interval_s) {
    Monitor &m = mon();
    std::lock_guard<std::mutex> g(m.mu);
    if (m.running) return;
    m.interval_s = interval_s > 0 ? interval_s : 30;
    m.t0 = m.last_wall = now_s();
    m.last_cpu = process_cpu_s();
    m.before = sample(m);
    m.have_before = true;
    m.running = true;
    m.thread = std::thread(run_monitor);
}

LoadSample load_now() {
    Monitor &m = mon();
    std::lock_guard<std::mutex> g(m.mu);
    if (!m.running) {
        LoadSample s;
        read_loadavg(&s.load1, &s.load5, &s.load15, nullptr);
        s.load1_adj = s.load1;
        return s;
    }
    return sample(m);
}

void load_monitor_finish() {
    Monitor &m = mon();
    {
        std::lock_guard<std::mutex> g(m.mu);
        if (!m.running) return;
        m.stop = true;
        m.after = sample(m);
    }
    m.cv.notify_all();
    m.thread.join();
    std::lock_guard<std::mutex> g(m.mu);
    m.running = false;
}

std::string load_record_json() {
    Monitor &m = mon();
    std::lock_guard<std::mutex> g(m.mu);
    if (!m.have_before) return "null";
    double mx = m.before.load1_adj;
    std::string during;
    for (const LoadSample &s : m.during) {
        during += (during.empty() ? "\n      " : ",\n      ") + sample_json(s);
        if (s.load1_adj > mx) mx = s.load1_adj;
    }
    if (m.after.load1_adj > mx) mx = m.after.load1_adj;
    return "{\n    \"source\": \"/proc/loadavg; own_1m = the harness's CPU time in cores, EWMA 60 s; "
           "load1_adj = load1 - max(0, own_1m - 1)\",\n    \"interval_s\": " + num(m.interval_s) +
           ",\n    \"before\": " + sample_json(m.before) + ",\n    \"during\": [" + during +
           (during.empty() ? "" : "\n    ") + "],\n    \"after\": " + sample_json(m.after) +
           ",\n    \"max_load1_adj\": " + num(mx) + "\n  }";
}

std::string load_record_line() {
    Monitor &m = mon();
    std::lock_guard<std::mutex> g(m.mu);
    double mx = m.before.load1_adj, mx_raw = m.before.load1;
    for (const LoadSample &s : m.during) {
        mx = std::max(mx, s.load1_adj);
        mx_raw = std::max(mx_raw, s.load1);
    }
    mx = std::max(mx, m.after.load1_adj);
    mx_raw = std::max(mx_raw, m.after.load1);
    char b[256];
    std::snprintf(b, sizeof b,
                  "load average (1 min): before %.2f, during %zu sample(s) every %.0f s, after %.2f; "
                  "max %.2f (%.2f less the harness's extra threads)",
                  m.before.load1, m.during.size(), m.interval_s, m.after.load1, mx_raw, mx);
    return b;
}

} // namespace bfb
