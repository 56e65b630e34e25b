#pragma once
#include "platform/env.hpp"
#include "platform/memory.hpp"
// Process and terminal facts for the training loop: memory, CPU time, whether stdout is a terminal,
// and a Ctrl-C (SIGINT) counter. Every function degrades to "unknown" (0, false) where the OS gives
// no answer.
#include <cstdint>
#include <optional>
#include <string>

namespace burn::platform {

/// CPU time (user + system) this process has used, in seconds (0 when unknown).
double process_cpu_seconds();

/// Whether a process with this id exists (signal 0 reaches it, or it exists but belongs to another
/// user). True when unknown (no way to ask), so that callers treat the process as alive.
bool process_alive(long long pid);

/// Whether standard output is an interactive terminal.
bool stdout_is_terminal();

/// Counts Ctrl-C presses from now on instead of terminating: interrupt_count() reports them. A
/// second press while the first is being handled restores the default action and re-raises (so a
/// stuck program still dies). Nested installs are counted; each install needs one remove.
void install_interrupt_handler();
void remove_interrupt_handler();
int interrupt_count();

}  // namespace burn::platform
