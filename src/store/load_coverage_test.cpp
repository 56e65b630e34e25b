// Loads that would apply nothing or crash (issue 13): modules held in std::variant are walked (the
// active alternative, with the field's path), a load that applies no tensor of a non-empty file is
// an error unless allow_empty(true), and load_from into a default-constructed module throws naming
// the uninitialised field instead of crashing. In every case the module is left as it was.
#include <variant>

#include "store/store_test_util.hpp"

namespace burn::store {
namespace {

using testing::expect_error;

struct Head {
    std::variant<nn::Linear, nn::Conv1d> layer;  // a module chosen at run time
    std::variant<std::monostate, nn::LayerNorm> norm;
    BURN_MODULE(Head, layer, norm)
};

Head linear_head() {
    return Head{nn::LinearConfig{3, 2}.init(), nn::LayerNormConfig{2}.init()};
}

std::vector<std::string> paths_of(const Head& h) {
    std::vector<std::string> out;
    for (const auto& s : module::snapshots(h)) out.push_back(s.path);
    return out;
}

TEST(LoadCoverage, VariantsWalkTheActiveAlternativeUnderTheFieldsPath) {
    Head h = linear_head();
    EXPECT_EQ(paths_of(h),
              (std::vector<std::string>{"layer.weight", "layer.bias", "norm.gamma", "norm.beta"}));
    EXPECT_EQ(h.num_params(), 3u * 2 + 2 + 2 + 2);
    Head none{nn::LinearConfig{3, 2}.init(), std::monostate{}};
    EXPECT_EQ(paths_of(none), (std::vector<std::string>{"layer.weight", "layer.bias"}));

    auto mem = BurnpackStore::in_memory();
    h.save_into(mem);
    Head dst = linear_head();
    auto r = dst.load_from(mem);
    EXPECT_EQ(r.applied.size(), 4u) << r;
    EXPECT_TRUE(r.is_success()) << r;
    EXPECT_EQ(testing::bytes_of(std::get<nn::Linear>(dst.layer).weight.val().handle()),
              testing::bytes_of(std::get<nn::Linear>(h.layer).weight.val().handle()));
}

struct Lone {
    Param<Tensor<1>> w;
    BURN_MODULE(Lone, w)
};

TEST(LoadCoverage, ApplyingNothingFromANonEmptyFileIsAnError) {
    auto mem = SafetensorsStore::in_memory();
    mem.save_tensors({{"other.weight", ops::from_data(TensorData(std::vector<float>{1, 2}), Device())}});
    Lone m{Tensor<1>::from_data(TensorData(std::vector<float>{7, 8}))};
    // allow_partial accepts missing tensors, but applying none at all is still an error...
    auto partial = SafetensorsStore::from_bytes(mem.bytes()).allow_partial(true);
    expect_error([&] { m.load_from(partial); }, "nothing would be applied although the file has 1 tensors");
    expect_error([&] { m.load_from(partial); }, "allow_empty(true)");
    EXPECT_EQ(m.w.val().into_data().to_vec<float>(), (std::vector<float>{7, 8}));
    // ... unless asked for; a filter that matches nothing is the same case.
    auto empty_ok = SafetensorsStore::from_bytes(mem.bytes()).allow_partial(true).allow_empty(true);
    auto r = m.load_from(empty_ok);
    EXPECT_TRUE(r.applied.empty());
    EXPECT_EQ(r.unused, std::vector<std::string>{"other.weight"});
    auto same = SafetensorsStore::in_memory();
    same.save_tensors({{"w", ops::from_data(TensorData(std::vector<float>{1, 2}), Device())}});
    auto filtered = SafetensorsStore::from_bytes(same.bytes()).with_regex("^nothing$");
    expect_error([&] { m.load_from(filtered); }, "nothing would be applied");
    // An empty file into a module with tensors is "missing", as before; into allow_partial, fine.
    auto none = SafetensorsStore::in_memory();
    none.save_tensors({});
    auto none_in = SafetensorsStore::from_bytes(none.bytes()).allow_partial(true);
    EXPECT_TRUE(m.load_from(none_in).applied.empty());
}

struct Model {
    nn::Linear fc;
    nn::LayerNorm norm;
    BURN_MODULE(Model, fc, norm)
};

TEST(LoadCoverage, DefaultConstructedModuleThrowsNamingTheField) {
    Model src{nn::LinearConfig{2, 2}.init(), nn::LayerNormConfig{2}.init()};
    auto mem = BurnpackStore::in_memory();
    src.save_into(mem);
    Model empty;
    expect_error([&] { empty.load_from(mem); }, "the parameter 'fc.weight' is uninitialised");
    EXPECT_FALSE(empty.fc.weight.val().defined());
    // Half-built: the defined part is not changed either.
    Model half{nn::LinearConfig{2, 2}.init(), nn::LayerNorm{}};
    auto before = testing::bytes_of(half.fc.weight.val().handle());
    expect_error([&] { half.load_from(mem); }, "'norm.gamma' is uninitialised");
    EXPECT_EQ(testing::bytes_of(half.fc.weight.val().handle()), before);
}

}  // namespace
}  // namespace burn::store
