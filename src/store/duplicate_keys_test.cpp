// A file that names one tensor twice is refused, naming the key (issue 13: a SafeTensors header with
// a duplicated key was accepted and the last entry won): SafeTensors JSON, Burnpack CBOR metadata and
// PyTorch state dicts.
#include "store/store_test_util.hpp"

namespace burn::store {
namespace {

using testing::expect_error;

/// bytes with every occurrence of `from` replaced by `to` (same length).
std::vector<uint8_t> replace_all(std::vector<uint8_t> bytes, const std::string& from, const std::string& to) {
    EXPECT_EQ(from.size(), to.size());
    int n = 0;
    for (std::size_t i = 0; i + from.size() <= bytes.size(); ++i) {
        if (std::memcmp(bytes.data() + i, from.data(), from.size()) == 0) {
            std::memcpy(bytes.data() + i, to.data(), to.size());
            ++n;
        }
    }
    EXPECT_GT(n, 0) << "'" << from << "' is not in the bytes";
    return bytes;
}

std::map<std::string, TensorAny> two() {
    return {{"dupA", ops::from_data(TensorData(std::vector<float>{1, 2}), Device())},
            {"dupB", ops::from_data(TensorData(std::vector<float>{3, 4}), Device())}};
}

TEST(DuplicateKeys, SafetensorsHeaderIsRejected) {
    auto mem = SafetensorsStore::in_memory();
    mem.save_tensors(two());
    auto bytes = replace_all(mem.bytes(), "\"dupB\"", "\"dupA\"");
    expect_error([&] { SafetensorsStore::from_bytes(bytes).keys(); }, "the key 'dupA' appears twice");
    // In __metadata__ too.
    auto meta = SafetensorsStore::in_memory();
    meta.metadata("kk1", "a").metadata("kk2", "b");
    meta.save_tensors(two());
    expect_error(
        [&] { SafetensorsStore::from_bytes(replace_all(meta.bytes(), "kk2", "kk1")).read_metadata(); },
        "the key 'kk1' appears twice");
}

TEST(DuplicateKeys, BurnpackMetadataIsRejected) {
    auto mem = BurnpackStore::in_memory();
    Record rec;
    for (auto& [k, t] : two()) rec.tensors[k] = t;
    mem.save_record(rec);
    auto bytes = replace_all(mem.bytes(), "dupB", "dupA");
    expect_error([&] { BurnpackStore::from_bytes(bytes).keys(); }, "the key 'dupA' appears twice");
}

TEST(DuplicateKeys, PytorchStateDictIsRejected) {
    // mlp_legacy.pt holds fc1.weight, fc1.bias, fc2.weight, fc2.bias: rename fc2.bias to fc1.bias.
    auto bytes = replace_all(testing::read_bytes(testing::fixture("mlp_legacy.pt")), "fc2.bias", "fc1.bias");
    expect_error([&] { PytorchStore::from_bytes(bytes).keys(); }, "the key 'fc1.bias' appears twice");
}

}  // namespace
}  // namespace burn::store
