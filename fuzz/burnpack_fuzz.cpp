// libFuzzer target: Burnpack files as users load them: BurnpackStore::from_bytes -> keys(),
// load_record() and load_from() into a small model (the header, CBOR metadata, ranges, every tensor
// read, dtype conversion and the all-or-nothing apply). Only burn::Error may escape; anything else is
// a finding. Built and run by scripts/fuzz.
#include <cstddef>
#include <cstdint>

#include "burn/store/burnpack.hpp"
#include "fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    using burn::store::BurnpackStore;
    burn::store::Limits limits;
    limits.max_tensor_bytes = 64 << 20;
    std::vector<uint8_t> bytes(data, data + size);
    try {
        auto store = BurnpackStore::from_bytes(bytes);
        store.limits(limits);
        store.keys();
        store.load_record();
    } catch (const burn::Error&) {
    }
    try {
        auto model = burn::fuzz::make_mlp();
        auto store = BurnpackStore::from_bytes(std::move(bytes));
        store.limits(limits).allow_partial();
        model.load_from(store);
    } catch (const burn::Error&) {
    }
    return 0;
}
