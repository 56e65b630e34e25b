// CPU scan kernels.
#include "backends/cpu/kernels.hpp"

namespace burn::cpu {

void register_scan(KernelTable&) {}

}  // namespace burn::cpu
