// embed::BurnpackView and ops::from_external: a pack written by BurnpackStore (the independent
// writer) read back in place. The tensors equal what was saved and point into the pack's own bytes
// (no copy); ops on them, even those that reuse a uniquely held input in place, leave the bytes
// unchanged; a corrupt, truncated or misaligned pack is an error naming the pack and the sizes.
#include "burn/embed/burnpack_view.hpp"

#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <burn/store/burnpack.hpp>
#include <cstring>
#include <vector>

namespace burn::embed {
namespace {

struct Small {
    nn::Linear fc = nn::LinearConfig{5, 3}.init(Device::cpu());
    Buffer<Tensor<1, Int>> ids = Buffer<Tensor<1, Int>>(Tensor<1, Int>::from_ints({4, 5, 6}, Device::cpu()));
    BURN_MODULE(Small, fc, ids)
};

/// The pack's bytes at a 256-byte boundary, as burn-embed places them.
struct Aligned {
    explicit Aligned(const std::vector<uint8_t>& b) : storage(b.size() + 512), size(b.size()) {
        auto p = reinterpret_cast<std::uintptr_t>(storage.data());
        data = storage.data() + ((256 - p % 256) % 256);
        std::memcpy(data, b.data(), b.size());
    }
    std::vector<uint8_t> storage;
    uint8_t* data;
    std::size_t size;
};

std::vector<uint8_t> pack_of(const Small& m) {
    auto store = store::BurnpackStore::in_memory();
    m.save_into(store);
    return store.bytes();
}

TEST(BurnpackView, ReadsTensorsInPlaceWithoutCopying) {
    Device::cpu().seed(3);
    Small m;
    Aligned pack(pack_of(m));
    const std::vector<uint8_t> before(pack.data, pack.data + pack.size);
    BurnpackView view(pack.data, pack.size, "small");
    ASSERT_EQ(view.entries().size(), 3u);
    auto w = view.get<2>("fc.weight", {3, 5});
    EXPECT_EQ(w.to_vec<float>(), m.fc.weight.val().to_vec<float>());
    EXPECT_EQ(view.get<1>("fc.bias").to_vec<float>(), m.fc.bias->val().to_vec<float>());
    EXPECT_EQ((view.get<1, Int>("ids").to_vec<int32_t>()), (std::vector<int32_t>{4, 5, 6}));
    const BurnpackView::Entry* e = view.find("fc.weight");
    ASSERT_NE(e, nullptr);
    EXPECT_GE(e->data, pack.data);
    EXPECT_LE(e->data + e->bytes, pack.data + pack.size);
    float first = 0;
    std::memcpy(&first, e->data, sizeof first);
    EXPECT_EQ(first, m.fc.weight.val().to_vec<float>()[0]) << "the entry does not point at the pack's bytes";

    // Ops that reuse a uniquely held input in place must not write into the borrowed bytes.
    auto y = (view.get<2>("fc.weight") * 2.0).exp();
    auto z = view.get<2>("fc.weight").exp();
    auto r = nn::Relu().forward(view.get<2>("fc.weight"));
    (void)y.to_vec<float>(), (void)z.to_vec<float>(), (void)r.to_vec<float>();
    EXPECT_EQ(std::vector<uint8_t>(pack.data, pack.data + pack.size), before) << "an op wrote into the pack";
}

TEST(BurnpackView, CorruptTruncatedAndMisalignedPacksAreErrors) {
    Small m;
    const std::vector<uint8_t> bytes = pack_of(m);
    Aligned bad(bytes);
    bad.data[0] ^= 1;
    try {
        BurnpackView v(bad.data, bad.size, "weights");
        FAIL() << "a pack with a damaged magic was accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("[BurnpackView] weights: starts with 0x4255524f"),
                  std::string::npos)
            << e.what();
    }
    Aligned good(bytes);
    try {
        BurnpackView v(good.data, good.size - 8, "weights");
        FAIL() << "a truncated pack was accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("of a data section of"), std::string::npos) << e.what();
    }
    EXPECT_THROW(BurnpackView(good.data, 9, "weights"), Error);
    EXPECT_THROW(BurnpackView(nullptr, 0, "weights"), Error);
    EXPECT_THROW(BurnpackView(good.data, good.size).tensor("missing"), Error);
    EXPECT_THROW(BurnpackView(good.data, good.size).get<3>("fc.weight"), ShapeError);
    // A pack one byte off its 256-byte boundary: its f32 tensors are misaligned.
    std::vector<uint8_t> shifted(bytes.size() + 512);
    auto base = reinterpret_cast<std::uintptr_t>(shifted.data());
    uint8_t* odd = shifted.data() + ((256 - base % 256) % 256) + 1;
    std::memcpy(odd, bytes.data(), bytes.size());
    EXPECT_THROW(BurnpackView(odd, bytes.size()).tensor("fc.weight"), Error);
}

TEST(FromExternal, ChecksDeviceAlignmentAndData) {
    alignas(16) static const float values[6] = {1, 2, 3, 4, 5, 6};
    auto t = Tensor<2>(ops::from_external(values, Dims{2, 3}, DType::f32, Device::cpu()));
    EXPECT_EQ(t.sum().into_scalar(), 21.0f);
    EXPECT_EQ(t.transpose().to_vec<float>(), (std::vector<float>{1, 4, 2, 5, 3, 6}));
    EXPECT_THROW(
        ops::from_external(reinterpret_cast<const char*>(values) + 1, Dims{2}, DType::f32, Device::cpu()),
        Error);
    EXPECT_THROW(ops::from_external(nullptr, Dims{2}, DType::f32, Device::cpu()), Error);
    EXPECT_THROW(ops::from_external(values, Dims{2}, DType::f32, Device::cpu().autodiff()), DeviceError);
}

}  // namespace
}  // namespace burn::embed
