// ops::from_external: CPU tensors over borrowed memory (cpu_tensor.hpp, Storage::Borrow).
#include <cstdint>

#include "backends/cpu/cpu_tensor.hpp"
#include "burn/core/error.hpp"
#include "burn/tensor/ops.hpp"

namespace burn::ops {

TensorAny from_external(const void* data, const Dims& shape, DType dtype, const Device& device) {
    BURN_CHECK_KIND(device == Device::cpu(), device,
                    "[from_external] borrowed memory makes CPU tensors; got ", device,
                    " (move the result with .to_device(device))");
    const int64_t n = check_shape(shape, "from_external", size_of(dtype));
    BURN_CHECK(data != nullptr || n == 0, "[from_external] null data for a ", dtype, " tensor of shape ",
               shape);
    BURN_CHECK(reinterpret_cast<std::uintptr_t>(data) % size_of(dtype) == 0, "[from_external] data at ", data,
               " is not aligned to ", size_of(dtype), " bytes for a ", dtype, " tensor of shape ", shape);
    const auto bytes = static_cast<std::size_t>(n) * size_of(dtype);
    auto storage = std::make_shared<cpu::Storage>(data, bytes, cpu::Storage::Borrow{});
    return TensorAny(std::make_shared<cpu::CpuTensor>(shape, dtype, device, std::move(storage),
                                                      shape.contiguous_strides(), 0));
}

}  // namespace burn::ops
