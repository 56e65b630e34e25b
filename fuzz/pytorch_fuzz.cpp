// libFuzzer target: torch.save files as users load them: PytorchStore::from_bytes -> keys(),
// load_tensors() and load_from() into a small model, plus the same under with_top_level_key. Covers
// the restricted unpickler, the legacy stream layout, the tar format (store/pytorch_tar.cpp), the zip
// archive (libzip and the in-place entry index, store/zip_index.hpp, when built with libzip),
// flattening, strided gathers and the apply.
#include <cstddef>
#include <cstdint>

#include "burn/store/pytorch.hpp"
#include "fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    using burn::store::PytorchStore;
    burn::store::Limits limits;
    limits.max_tensor_bytes = 64 << 20;
    limits.max_tensors = 10000;
    std::vector<uint8_t> bytes(data, data + size);
    try {
        auto store = PytorchStore::from_bytes(bytes);
        store.limits(limits);
        store.keys();
        store.load_tensors();
    } catch (const burn::Error&) {
    }
    try {
        auto store = PytorchStore::from_bytes(bytes);
        store.limits(limits).with_top_level_key("state_dict");
        store.keys();
    } catch (const burn::Error&) {
    }
    try {
        auto model = burn::fuzz::make_mlp();
        auto store = PytorchStore::from_bytes(std::move(bytes));
        store.limits(limits).allow_partial();
        model.load_from(store);
    } catch (const burn::Error&) {
    }
    return 0;
}
