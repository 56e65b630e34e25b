// board.hpp on the host: the native build of classify.cpp, whose predictions the firmware must match.
#include <cstdio>
#include <cstdlib>

#include "board.hpp"

namespace board {

const char* name() {
    return "host (native reference)";
}

uint64_t instructions() {
    return 0;
}

void exit(int code) {
    std::fflush(stdout);
    std::exit(code);
}

}  // namespace board
