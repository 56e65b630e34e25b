// CPU matmul kernels.
#include "backends/cpu/kernels.hpp"

namespace burn::cpu {

void register_matmul(KernelTable&) {}

}  // namespace burn::cpu
