#include "platform/process.hpp"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#if defined(__unix__) || defined(__APPLE__)
#define BURN_POSIX_PROCESS 1
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace burn::platform {

uint64_t resident_memory_bytes() {
#if defined(__linux__)
    // /proc/self/statm: size resident shared ... in pages.
    std::FILE* f = std::fopen("/proc/self/statm", "r");
    if (!f) return 0;
    unsigned long long size = 0, resident = 0;
    int n = std::fscanf(f, "%llu %llu", &size, &resident);
    std::fclose(f);
    if (n != 2) return 0;
    long page = ::sysconf(_SC_PAGESIZE);
    return page > 0 ? resident * static_cast<uint64_t>(page) : 0;
#elif defined(BURN_POSIX_PROCESS)
    struct rusage u {};
    if (::getrusage(RUSAGE_SELF, &u) != 0) return 0;
#if defined(__APPLE__)
    return static_cast<uint64_t>(u.ru_maxrss);  // bytes on macOS (peak, the best portable figure)
#else
    return static_cast<uint64_t>(u.ru_maxrss) * 1024;
#endif
#else
    return 0;
#endif
}

uint64_t total_memory_bytes() {
#if defined(__linux__)
    long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) : 0;
#else
    return 0;
#endif
}

namespace {
/// The first number in a file (a cgroup limit); 0 when missing or "max".
uint64_t read_limit(const char* path) {
    std::FILE* f = std::fopen(path, "r");
    if (!f) return 0;
    unsigned long long v = 0;
    const int n = std::fscanf(f, "%llu", &v);
    std::fclose(f);
    return n == 1 ? static_cast<uint64_t>(v) : 0;
}
}  // namespace

uint64_t memory_limit_bytes() {
    uint64_t limit = total_memory_bytes();
#if defined(__linux__)
    for (const char* path : {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
        const uint64_t v = read_limit(path);
        if (v > 0 && (limit == 0 || v < limit)) limit = v;
    }
#endif
    return limit;
}

std::optional<std::string> env_var(const char* name) {
    const char* v = std::getenv(name);
    if (!v) return std::nullopt;
    return std::string(v);
}

double process_cpu_seconds() {
#ifdef BURN_POSIX_PROCESS
    struct rusage u {};
    if (::getrusage(RUSAGE_SELF, &u) != 0) return 0.0;
    auto secs = [](const timeval& t) {
        return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec);
    };
    return secs(u.ru_utime) + secs(u.ru_stime);
#else
    return 0.0;
#endif
}

bool process_alive(long long pid) {
#ifdef BURN_POSIX_PROCESS
    if (pid <= 0 || pid != static_cast<long long>(static_cast<pid_t>(pid))) return false;
    return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
#else
    (void)pid;
    return true;
#endif
}

bool stdout_is_terminal() {
#ifdef BURN_POSIX_PROCESS
    return ::isatty(STDOUT_FILENO) == 1;
#else
    return false;
#endif
}

namespace {

std::atomic<int> g_interrupts{0};
std::atomic<bool> g_handling{false};
std::mutex g_install_mutex;
int g_installs = 0;
using Handler = void (*)(int);
Handler g_previous = SIG_DFL;

extern "C" void burn_on_sigint(int sig) {
    if (g_interrupts.fetch_add(1) >= 1 && g_handling.load()) {
        std::signal(sig, SIG_DFL);
        std::raise(sig);
        return;
    }
    g_handling.store(true);
    std::signal(sig, burn_on_sigint);  // some systems reset the handler on delivery
}

}  // namespace

void install_interrupt_handler() {
    std::lock_guard<std::mutex> lock(g_install_mutex);
    if (g_installs++ == 0) {
        g_interrupts.store(0);
        g_handling.store(false);
        g_previous = std::signal(SIGINT, burn_on_sigint);
        if (g_previous == SIG_ERR) g_previous = SIG_DFL;
    }
}

void remove_interrupt_handler() {
    std::lock_guard<std::mutex> lock(g_install_mutex);
    if (g_installs > 0 && --g_installs == 0) {
        std::signal(SIGINT, g_previous);
        g_handling.store(false);
    }
}

int interrupt_count() {
    return g_interrupts.load();
}

}  // namespace burn::platform
