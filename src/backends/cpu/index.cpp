// CPU index kernels.
#include "backends/cpu/kernels.hpp"

namespace burn::cpu {

void register_index(KernelTable&) {}

}  // namespace burn::cpu
