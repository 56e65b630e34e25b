// CPU sort kernels.
#include "backends/cpu/kernels.hpp"

namespace burn::cpu {

void register_sort(KernelTable&) {}

}  // namespace burn::cpu
