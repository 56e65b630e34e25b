// Start-up code and board.hpp for Cortex-M4F (qemu mps2-an386) and Cortex-M55 (qemu mps3-an547):
// the vector table, Reset_Handler (FPU/MVE on, .data copied, .bss zeroed, semihosting opened,
// constructors run, argv from the semihosting command line: qemu's -append), SysTick as the
// instruction counter, and exit through semihosting. Linked with --specs=rdimon.specs -nostartfiles
// (newlib's printf and exit over semihosting; docs/embedded.md).
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "board.hpp"

#ifndef BM_SYSCLK_HZ
#error "BM_SYSCLK_HZ: the core clock qemu gives SysTick (25 MHz on mps2-an386, 32 MHz on mps3-an547)"
#endif
#ifndef BM_BOARD_NAME
#define BM_BOARD_NAME "cortex-m"
#endif

extern "C" {
extern uint32_t __data_load, __data_start, __data_end, __bss_start, __bss_end, __stack_top;
extern void (*__preinit_array_start[])(), (*__preinit_array_end[])();
extern void (*__init_array_start[])(), (*__init_array_end[])();
void initialise_monitor_handles();
int main(int, char**);
void* __dso_handle = &__dso_handle;
void _init() {}
void _fini() {}
// libstdc++'s random device asks for it; there is no entropy source here.
int getentropy(void*, std::size_t) {
    errno = ENOSYS;
    return -1;
}
}

namespace {

volatile uint32_t& reg(uint32_t address) {
    return *reinterpret_cast<volatile uint32_t*>(address);
}
constexpr uint32_t kCpacr = 0xE000ED88, kSystCsr = 0xE000E010, kSystRvr = 0xE000E014, kSystCvr = 0xE000E018;
volatile uint32_t g_systick_wraps = 0;

/// Semihosting: r0 = operation, r1 = argument block.
int semihost(int op, void* arg) {
    register int r0 asm("r0") = op;
    register void* r1 asm("r1") = arg;
    asm volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

char g_cmdline[256];
char* g_argv[16];

/// argv from SYS_GET_CMDLINE (qemu: the kernel's path, then -append's words).
int read_args() {
    struct {
        char* buffer;
        int length;
    } block{g_cmdline, sizeof g_cmdline - 1};
    int argc = 0;
    if (semihost(0x15, &block) == 0) {
        g_cmdline[block.length] = 0;
        for (char* p = g_cmdline; *p && argc < 15;) {
            while (*p == ' ') *p++ = 0;
            if (!*p) break;
            g_argv[argc++] = p;
            while (*p && *p != ' ') ++p;
        }
    }
    if (argc == 0) g_argv[argc++] = const_cast<char*>("mnist");
    g_argv[argc] = nullptr;
    return argc;
}

}  // namespace

extern "C" {

void SysTick_Handler() {
    g_systick_wraps = g_systick_wraps + 1;
}

[[noreturn]] void Reset_Handler() {
#if defined(__ARM_FP) || defined(__ARM_FEATURE_MVE)
    reg(kCpacr) |= 0xFu << 20;  // CP10/CP11 full access, before any (possibly vectorised) FP code
    asm volatile("dsb\n isb" ::: "memory");
#endif
    for (uint32_t *s = &__data_load, *d = &__data_start; d < &__data_end;) *d++ = *s++;
    for (uint32_t* d = &__bss_start; d < &__bss_end;) *d++ = 0;
    initialise_monitor_handles();
    for (auto f = __preinit_array_start; f < __preinit_array_end; ++f) (*f)();
    for (auto f = __init_array_start; f < __init_array_end; ++f) (*f)();
    reg(kSystRvr) = 0x00FFFFFF;
    reg(kSystCvr) = 0;
    reg(kSystCsr) = 0x7;  // the core clock, interrupt on wrap, enabled
    const int argc = read_args();
    std::exit(main(argc, g_argv));
}

// A fault prints a line and exits with code 4; if the fault handler itself faults (a broken stack),
// qemu stops with "Lockup" and a register dump, which is as loud.
[[noreturn]] void Fault_Handler() {
    static const char message[] = "fault: the program stopped in a fault handler\n";
    semihost(0x04, const_cast<char*>(message));  // SYS_WRITE0
    for (;;) std::exit(4);
}

__attribute__((section(".vectors"), used)) const void* const g_vectors[16] = {
    &__stack_top,
    reinterpret_cast<const void*>(Reset_Handler),
    reinterpret_cast<const void*>(Fault_Handler),  // NMI
    reinterpret_cast<const void*>(Fault_Handler),  // HardFault
    reinterpret_cast<const void*>(Fault_Handler),  // MemManage
    reinterpret_cast<const void*>(Fault_Handler),  // BusFault
    reinterpret_cast<const void*>(Fault_Handler),  // UsageFault
    reinterpret_cast<const void*>(Fault_Handler),  // SecureFault (v8-M)
    nullptr,
    nullptr,
    nullptr,
    reinterpret_cast<const void*>(Fault_Handler),  // SVCall
    reinterpret_cast<const void*>(Fault_Handler),  // DebugMonitor
    nullptr,
    reinterpret_cast<const void*>(Fault_Handler),  // PendSV
    reinterpret_cast<const void*>(SysTick_Handler),
};

}  // extern "C"

namespace board {

const char* name() {
    return BM_BOARD_NAME;
}

uint64_t instructions() {
    uint32_t wraps, count;
    do {
        wraps = g_systick_wraps;
        count = 0x00FFFFFF - (reg(kSystCvr) & 0x00FFFFFF);
    } while (wraps != g_systick_wraps);
    const uint64_t ticks = (uint64_t(wraps) << 24) + count;
    return ticks * 1000000000ull / BM_SYSCLK_HZ;  // -icount shift=0: one instruction per virtual ns
}

void exit(int code) {
    std::exit(code);
}

}  // namespace board
