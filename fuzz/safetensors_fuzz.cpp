// libFuzzer target: the SafeTensors reader (header length, JSON header, ranges) and every tensor read.
#include <cstddef>
#include <cstdint>

#include "burn/core/error.hpp"
#include "store/format.hpp"
#include "store/safetensors_format.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    burn::store::Limits limits;
    limits.max_tensor_bytes = 64 << 20;
    try {
        auto c = burn::store::detail::parse_safetensors(data, size, limits);
        for (const auto& t : c.tensors)
            if (t.unsupported.empty())
                burn::store::detail::data_from_bytes(
                    data + t.start, static_cast<std::size_t>(t.end - t.start), t.dtype, t.shape);
    } catch (const burn::Error&) {
    }
    return 0;
}
