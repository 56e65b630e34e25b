#pragma once
/// How this copy of burn was built: BURN_THREADS, BURN_EXCEPTIONS and BURN_FILESYSTEM, each 0 or 1.
/// CMake defines an option as 0 (a public compile definition of burn_core, so every target that links
/// it sees the same value) only when it is OFF; the defaults below are the ON values. A project that
/// builds burn without CMake passes the same -D flags. docs/building.md, "Targets and options".
#ifndef BURN_THREADS
#define BURN_THREADS 1
#endif
#ifndef BURN_EXCEPTIONS
#define BURN_EXCEPTIONS 1
#endif
#ifndef BURN_FILESYSTEM
#define BURN_FILESYSTEM 1
#endif
/// Bytes of the static arena every allocation comes from (bare metal, core/arena.hpp); 0: the C heap.
#ifndef BURN_ARENA_BYTES
#define BURN_ARENA_BYTES 0
#endif
