// libFuzzer target: SafeTensors files as users load them: SafetensorsStore::from_bytes -> keys(),
// load_tensors() and load_from() into a small model (header length, JSON header, ranges, every tensor
// read, dtype conversion, the all-or-nothing apply).
#include <cstddef>
#include <cstdint>

#include "burn/store/safetensors.hpp"
#include "fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    using burn::store::SafetensorsStore;
    burn::store::Limits limits;
    limits.max_tensor_bytes = 64 << 20;
    std::vector<uint8_t> bytes(data, data + size);
    try {
        auto store = SafetensorsStore::from_bytes(bytes);
        store.limits(limits);
        store.keys();
        store.load_tensors();
    } catch (const burn::Error&) {
    }
    try {
        auto model = burn::fuzz::make_mlp();
        auto store = SafetensorsStore::from_bytes(std::move(bytes));
        store.limits(limits).allow_partial();
        model.load_from(store);
    } catch (const burn::Error&) {
    }
    return 0;
}
