// libFuzzer target: torch.save files through PytorchStore's reader: the restricted unpickler, the
// legacy stream layout, the zip archive (when built with libzip: libzip and the in-place entry
// index, store/zip_index.hpp), flattening and strided gathers.
#include <cstddef>
#include <cstdint>

#include "burn/core/error.hpp"
#include "store/pytorch_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    burn::store::Limits limits;
    limits.max_tensor_bytes = 64 << 20;
    limits.max_tensors = 10000;
    try {
        burn::store::detail::ByteView view{data, size, nullptr};
        for (const auto& e : burn::store::detail::read_pytorch(view, "", limits))
            if (e.read) e.read();
    } catch (const burn::Error&) {
    }
    return 0;
}
