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
