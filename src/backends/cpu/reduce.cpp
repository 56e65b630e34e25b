// CPU reduce kernels.
#include "backends/cpu/kernels.hpp"

namespace burn::cpu {

void register_reduce(KernelTable&) {}

}  // namespace burn::cpu
