// libFuzzer target: the Burnpack reader (header, CBOR metadata, ranges) and every tensor read.
// Built and run by scripts/fuzz. Only burn::Error may escape the parser; anything else is a finding.
#include <cstddef>
#include <cstdint>

#include "burn/core/error.hpp"
#include "store/burnpack_format.hpp"
#include "store/format.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    burn::store::Limits limits;
    limits.max_tensor_bytes = 64 << 20;
    try {
        auto c = burn::store::detail::parse_burnpack(data, size, limits);
        for (const auto& t : c.tensors)
            burn::store::detail::data_from_bytes(data + t.start, static_cast<std::size_t>(t.end - t.start),
                                                 t.dtype, t.shape);
    } catch (const burn::Error&) {
    }
    return 0;
}
