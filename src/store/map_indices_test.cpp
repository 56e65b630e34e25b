// map_indices_contiguous: the renumbering itself (levels, numeric order, names that are not indices), and
// a PyTorch file whose nn.Sequential skips the indices of its ReLUs (tests/fixtures/store/sequential.pt,
// scripts/gen_sequential_store_fixture.py) loaded into lists of Linears, against the same tensors saved by
// torch under the contiguous names (sequential_expected.pt).
#include <burn/burn.hpp>

#include "store/store_test_util.hpp"

namespace burn::store {
namespace map_indices_test {

using testing::expect_error;
using testing::fixture;

TEST(MapIndicesContiguous, RenumbersEachLevelUnderItsParent) {
    const auto m =
        map_indices_contiguous({"fc.0.weight", "fc.0.bias", "fc.2.weight", "fc.4.bias", "blocks.1.0.w",
                                "blocks.1.2.w", "blocks.3.0.w", "blocks.3.7.w", "head.weight"});
    EXPECT_EQ(m.at("fc.0.weight"), "fc.0.weight");
    EXPECT_EQ(m.at("fc.0.bias"), "fc.0.bias");
    EXPECT_EQ(m.at("fc.2.weight"), "fc.1.weight");
    EXPECT_EQ(m.at("fc.4.bias"), "fc.2.bias");
    EXPECT_EQ(m.at("blocks.1.0.w"), "blocks.0.0.w");
    EXPECT_EQ(m.at("blocks.1.2.w"), "blocks.0.1.w");
    EXPECT_EQ(m.at("blocks.3.0.w"), "blocks.1.0.w");  // counted under blocks.3, not with blocks.1's
    EXPECT_EQ(m.at("blocks.3.7.w"), "blocks.1.1.w");
    EXPECT_EQ(m.at("head.weight"), "head.weight");
    EXPECT_EQ(m.size(), 9u);
}

TEST(MapIndicesContiguous, NumericOrderAndNamesThatAreNotIndices) {
    const auto m =
        map_indices_contiguous({"l.10.w", "l.2.w", "l.9.w", "layer1.w", "x1.3.w", "0.w", "7.w", "a.b"});
    EXPECT_EQ(m.at("l.2.w"), "l.0.w");
    EXPECT_EQ(m.at("l.9.w"), "l.1.w");
    EXPECT_EQ(m.at("l.10.w"), "l.2.w");  // 10 after 9: numbers, not strings
    EXPECT_EQ(m.at("layer1.w"), "layer1.w");
    EXPECT_EQ(m.at("x1.3.w"), "x1.0.w");
    EXPECT_EQ(m.at("0.w"), "0.w");  // an index as the first segment
    EXPECT_EQ(m.at("7.w"), "1.w");
    EXPECT_EQ(m.at("a.b"), "a.b");
    const auto same = map_indices_contiguous({"a.0.w", "a.1.w", "a.2.w"});
    for (const auto& [from, to] : same) EXPECT_EQ(from, to);
    EXPECT_TRUE(map_indices_contiguous({}).empty());
}

struct Seq {
    std::vector<nn::Linear> fc;
    std::vector<std::vector<nn::Linear>> blocks;
    BURN_MODULE(Seq, fc, blocks)
};

Seq make_seq() {
    Seq s;
    for (auto [i, o] : {std::pair{4, 3}, {3, 3}, {3, 2}})
        s.fc.push_back(nn::LinearConfig{static_cast<std::size_t>(i), static_cast<std::size_t>(o)}.init());
    for (int b = 0; b < 2; ++b)
        s.blocks.push_back({nn::LinearConfig{2, 2}.init(), nn::LinearConfig{2, 2}.init()});
    return s;
}

TEST(MapIndicesContiguous, LoadsAPyTorchSequentialIntoListsOfLinears) {
    if (!PytorchStore::zip_supported()) GTEST_SKIP() << "built without libzip";
    Seq s = make_seq();
    // Without it, fc.1 has nothing in the file and fc.4 matches no module path: the load fails and
    // changes nothing.
    auto before = module::snapshots(s).front().tensor;
    for (const char* text : {"fc.1.weight", "fc.4.weight"})
        expect_error(
            [&] {
                PytorchStore plain(fixture("sequential.pt"));
                s.load_from(plain);
            },
            text);
    EXPECT_EQ(testing::bytes_of(module::snapshots(s).front().tensor), testing::bytes_of(before));

    auto store = PytorchStore(fixture("sequential.pt")).map_indices_contiguous();
    auto r = s.load_from(store);
    EXPECT_TRUE(r.is_success());
    EXPECT_EQ(r.applied.size(), 14u);
    auto expected = PytorchStore(fixture("sequential_expected.pt")).load_tensors();
    ASSERT_EQ(expected.size(), 14u);
    for (const auto& snap : module::snapshots(s)) {
        ASSERT_TRUE(expected.count(snap.path)) << snap.path;
        EXPECT_EQ(testing::bytes_of(snap.tensor), testing::bytes_of(expected.at(snap.path))) << snap.path;
    }
    // keys() reports the renumbered names; the key remapping runs first.
    auto keys = PytorchStore(fixture("sequential.pt")).map_indices_contiguous().keys();
    EXPECT_NE(std::find(keys.begin(), keys.end(), "blocks.1.1.bias"), keys.end());
    auto moved = PytorchStore(fixture("sequential.pt"))
                     .with_key_remapping("^fc\\.", "head.")
                     .map_indices_contiguous()
                     .keys();
    EXPECT_NE(std::find(moved.begin(), moved.end(), "head.2.bias"), moved.end());
}

}  // namespace map_indices_test
}  // namespace burn::store
