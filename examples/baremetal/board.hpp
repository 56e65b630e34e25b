#pragma once
// What classify.cpp needs from the machine it runs on: board_host.cpp (the native build that gives the
// reference predictions) or startup.cpp (Cortex-M under qemu, semihosting).
#include <cstdint>

namespace board {

/// The machine, for the first line printed ("cortex-m4 (qemu mps2-an386)", "host").
const char* name();
/// A free-running count of instructions (Cortex-M: SysTick on the core clock, which qemu's
/// `-icount shift=0` advances by one per instruction; 0 on the host and without -icount it is time).
uint64_t instructions();
/// Ends the program with this exit code (semihosting SYS_EXIT on the board).
[[noreturn]] void exit(int code);

}  // namespace board
