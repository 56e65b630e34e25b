#include "store/format.hpp"

#include <algorithm>

#include "burn/core/error.hpp"
#include "platform/files.hpp"
#include "platform/mmap.hpp"

namespace burn::store::detail {

ByteView view_file(const std::filesystem::path& path, std::string_view op) {
    auto map = platform::MappedFile::open(path, op);
    return {map->data(), map->size(), map};
}

ByteView read_whole_file(const std::filesystem::path& path, std::string_view op) {
    auto bytes = std::make_shared<const std::string>(platform::read_file(path, op));
    return {reinterpret_cast<const uint8_t*>(bytes->data()), bytes->size(), bytes};
}

ByteView file_bytes(const std::filesystem::path& path, std::string_view op, bool mmap) {
    return mmap ? view_file(path, op) : read_whole_file(path, op);
}

namespace {
const platform::FileReader& reader(const std::shared_ptr<const void>& f) {
    return *static_cast<const platform::FileReader*>(f.get());
}
}  // namespace

ByteSource ByteSource::open(const std::filesystem::path& path, std::string_view op, bool mmap) {
    if (mmap) return ByteSource(view_file(path, op));
    ByteSource s;
    s.file_ = platform::FileReader::open(path, op);
    return s;
}

uint64_t ByteSource::size() const {
    return file_ ? reader(file_).size() : memory_.size;
}

std::vector<uint8_t> ByteSource::read(uint64_t offset, std::size_t n) const {
    std::vector<uint8_t> out(n);
    if (file_) {
        reader(file_).read_at(offset, out.data(), n);
    } else {
        BURN_CHECK(offset <= memory_.size && n <= memory_.size - offset, "[store] bytes [", offset, ", ",
                   offset + n, ") are outside a source of ", memory_.size, " bytes");
        if (n) std::memcpy(out.data(), memory_.data + offset, n);
    }
    return out;
}

TensorData ByteSource::tensor(uint64_t start, uint64_t end, DType dtype, const Dims& shape) const {
    if (!file_)
        return data_from_bytes(memory_.data + start, static_cast<std::size_t>(end - start), dtype, shape);
    std::vector<uint8_t> bytes = read(start, static_cast<std::size_t>(end - start));
    if (dtype == DType::boolean)
        for (auto& b : bytes) b = b != 0 ? 1 : 0;
    return TensorData(std::move(bytes), shape, dtype);
}

const uint8_t* ByteSource::prefix(std::size_t n, std::vector<uint8_t>& holder) const {
    n = static_cast<std::size_t>(std::min<uint64_t>(n, size()));
    if (!file_) return memory_.data;
    holder = read(0, n);
    return holder.data();
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
