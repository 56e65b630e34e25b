#include "backends/cpu/cpu_backend.hpp"

#include <cstring>

#include "backends/cpu/kernels.hpp"

namespace burn::cpu {

bool CpuTensor::is_contiguous() const {
    int64_t expected = 1;
    for (int d = shape.rank() - 1; d >= 0; --d) {
        if (shape[d] != 1 && strides[d] != expected) return false;
        expected *= shape[d];
    }
    return true;
}

bool CpuTensor::is_unique_dense(long ref_count) const {
    return ref_count == 1 && storage.use_count() == 1 && offset == 0 && is_contiguous() &&
           static_cast<std::size_t>(shape.numel()) * size_of(dtype) <= storage->bytes;
}

std::shared_ptr<CpuTensor> alloc(const Dims& shape, DType dtype, const Device& device) {
    auto storage = std::make_shared<Storage>(static_cast<std::size_t>(shape.numel()) * size_of(dtype));
    return std::make_shared<CpuTensor>(shape, dtype, device, std::move(storage), shape.contiguous_strides(), 0);
}

const CpuTensor& as_cpu(const TensorRef& t) { return static_cast<const CpuTensor&>(*t); }

std::shared_ptr<CpuTensor> reuse_or_alloc(TensorRefs& inputs, std::initializer_list<int> candidates,
                                          const Dims& shape, DType dtype) {
    for (int i : candidates) {
        const TensorRef& t = inputs[static_cast<std::size_t>(i)];
        const auto& c = as_cpu(t);
        if (c.dtype == dtype && c.shape == shape && c.is_unique_dense(t.use_count()))
            return std::static_pointer_cast<CpuTensor>(t);
    }
    return alloc(shape, dtype, inputs.empty() ? Device::cpu() : inputs[0]->device);
}

CpuBackend::CpuBackend() {
    table_.fill(nullptr);
    register_creation(table_);
    register_elementwise(table_);
    register_views(table_);
    register_reduce(table_);
    register_scan(table_);
    register_sort(table_);
    register_index(table_);
    register_matmul(table_);
    register_conv(table_);
    register_pool(table_);
    register_interpolate(table_);
    register_optim(table_);
    register_norm(table_);
}

TensorRef CpuBackend::from_host(const TensorData& data, const Device& device) {
    auto t = alloc(data.shape(), data.dtype(), device);
    if (!data.bytes().empty()) std::memcpy(t->storage->data, data.bytes().data(), data.bytes().size());
    return t;
}

TensorData CpuBackend::to_host(const TensorRef& tensor) {
    TensorRef t = tensor;
    if (!as_cpu(t).is_contiguous()) {
        OpCall copy{OpId::copy, t->dtype, t->shape, {}, {0, 0}};
        TensorRefs in{t};
        t = execute(copy, std::move(in))[0];
    }
    const auto& c = as_cpu(t);
    std::size_t n = static_cast<std::size_t>(c.shape.numel()) * size_of(c.dtype);
    std::vector<uint8_t> bytes(n);
    if (n) std::memcpy(bytes.data(), c.raw(), n);
    return TensorData(std::move(bytes), c.shape, c.dtype);
}

bool CpuBackend::supports(const OpCall& call, const TensorRefs&) const {
    return table_[static_cast<std::size_t>(call.op)] != nullptr;
}

TensorRefs CpuBackend::execute(const OpCall& call, TensorRefs inputs) {
    Kernel k = table_[static_cast<std::size_t>(call.op)];
    BURN_CHECK(k != nullptr, "[", call.op, "] the cpu backend has no kernel for this op");
    return k(call, inputs);
}

CpuBackend& CpuBackend::instance() {
    static CpuBackend* backend = new CpuBackend();  // lives for the whole process
    return *backend;
}

}  // namespace burn::cpu
