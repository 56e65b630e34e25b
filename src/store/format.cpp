#include "store/format.hpp"

#include "burn/core/error.hpp"
#include "platform/mmap.hpp"

namespace burn::store::detail {

ByteView view_file(const std::filesystem::path& path, std::string_view op) {
    auto map = platform::MappedFile::open(path, op);
    return {map->data(), map->size(), map};
}

ByteView view_vector(std::shared_ptr<const std::vector<uint8_t>> bytes) {
    ByteView v{bytes->data(), bytes->size(), nullptr};
    v.owner = std::move(bytes);
    return v;
}

Dims shape_from(const std::vector<int64_t>& dims, std::string_view op, const std::string& name) {
    BURN_CHECK_KIND(dims.size() <= static_cast<std::size_t>(kMaxRank), shape, "[", op, "] tensor '", name,
                    "' has rank ", dims.size(), "; this build supports rank ", kMaxRank, " at most");
    Dims shape;
    for (int64_t d : dims) {
        BURN_CHECK_KIND(d >= 0, shape, "[", op, "] tensor '", name, "' has a negative dimension ", d,
                        " (the file is corrupt)");
        shape.push_back(d);
    }
    return shape;
}

uint64_t tensor_nbytes(const Dims& shape, DType dtype, const Limits& limits, std::string_view op,
                       const std::string& name) {
    uint64_t n = size_of(dtype);
    for (int64_t d : shape) {
        BURN_CHECK_KIND(d >= 0, shape, "[", op, "] tensor '", name, "' has a negative dimension in ", shape);
        BURN_CHECK(mul_ok(n, static_cast<uint64_t>(d), n), "[", op, "] tensor '", name, "' of shape ", shape,
                   " overflows 64-bit sizes (the file is corrupt)");
    }
    BURN_CHECK(n <= limits.max_tensor_bytes, "[", op, "] tensor '", name, "' of shape ", shape, " and dtype ",
               dtype, " needs ", n, " bytes, over the limit of ", limits.max_tensor_bytes,
               " (raise Limits::max_tensor_bytes if the file is trusted)");
    return n;
}

TensorData data_from_bytes(const uint8_t* p, std::size_t n, DType dtype, const Dims& shape) {
    std::vector<uint8_t> bytes(p, p + n);
    if (dtype == DType::boolean)
        for (auto& b : bytes) b = b != 0 ? 1 : 0;
    return TensorData(std::move(bytes), shape, dtype);
}

}  // namespace burn::store::detail
