// PytorchStore::load_config: hyper-parameters saved beside a state dict by torch.save, in the zip and the
// legacy format (tests/fixtures/store/checkpoint_config*.pt, scripts/gen_config_store_fixture.py), read
// as config values and into a BURN_CONFIG struct; tensors and unknown keys are errors.
#include <burn/burn.hpp>

#include "store/store_test_util.hpp"

namespace burn::store {
namespace pytorch_config_test {

using testing::expect_error;
using testing::fixture;

struct TinyConfig {
    int64_t d_model = 0;
    int64_t layers = 0;
    double dropout = 0;
    std::string name;
    bool use_bias = false;
    std::vector<int64_t> sizes;
    BURN_CONFIG(TinyConfig, d_model, layers, dropout, name, use_bias, sizes)
};

class PytorchConfig : public ::testing::TestWithParam<const char*> {
  protected:
    void SetUp() override {
        if (std::string(GetParam()).find("legacy") == std::string::npos && !PytorchStore::zip_supported())
            GTEST_SKIP() << "built without libzip";
    }
    PytorchStore store() const { return PytorchStore(fixture(GetParam())); }
};

TEST_P(PytorchConfig, ReadsIntoAConfigStruct) {
    const auto c = store().load_config<TinyConfig>("config");
    EXPECT_EQ(c.d_model, 64);
    EXPECT_EQ(c.layers, 2);
    EXPECT_DOUBLE_EQ(c.dropout, 0.1);
    EXPECT_EQ(c.name, "tiny");
    EXPECT_TRUE(c.use_bias);
    EXPECT_EQ(c.sizes, (std::vector<int64_t>{3, 5, 8}));
}

TEST_P(PytorchConfig, ValuesOfEveryKind) {
    const config::Value meta = store().load_config_value("meta");
    ASSERT_TRUE(meta.is_object());
    const auto& betas = meta.at("betas");  // a tuple
    ASSERT_TRUE(betas.is_array());
    EXPECT_DOUBLE_EQ(betas[0].as_double(), 0.9);
    EXPECT_DOUBLE_EQ(betas[1].as_double(), 0.999);
    EXPECT_TRUE(meta.at("none").is_null());
    EXPECT_EQ(meta.at("steps").at("100").as_string(), "decay");  // int keys as their decimal
    EXPECT_EQ(meta.at("big").as_int64(), -(int64_t{1} << 40));
    // A nested key, as with_top_level_key takes it.
    EXPECT_EQ(store().load_config_value("config.name").as_string(), "tiny");
    // The whole object holds a tensor: an error naming where.
    expect_error([&] { store().load_config_value(); }, "'model.w' is a tensor");
    expect_error([&] { store().load_config_value("model"); }, "'w' is a tensor");
    expect_error([&] { store().load_config_value("conf"); }, "no key 'conf'");
    // Unknown fields of the struct are errors naming the key.
    expect_error([&] { store().load_config<TinyConfig>("meta"); }, "betas");
}

INSTANTIATE_TEST_SUITE_P(Formats, PytorchConfig,
                         ::testing::Values("checkpoint_config.pt", "checkpoint_config_legacy.pt"));

}  // namespace pytorch_config_test
}  // namespace burn::store
