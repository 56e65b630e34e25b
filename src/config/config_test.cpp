// BURN_CONFIG / BURN_ENUM: builders, JSON round trips of every field type, and every error path.
#include <gtest/gtest.h>

#include <array>
#include <burn/burn.hpp>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "config/config_test_types.hpp"

using namespace burn;
using namespace cfgtest;
using config::Value;

// ---------------------------------------------------------------- the seed example, verbatim

struct TrainingConfig {
    size_t hidden_size = 0;  // required: give it first
    double learning_rate = 0.001;
    size_t batch_size = 32;
    BURN_CONFIG(TrainingConfig, hidden_size, learning_rate, batch_size)
};

TEST(ConfigSeed, ConfigDefaultsBuildersAndJson) {
    auto config = TrainingConfig{128}.with_learning_rate(0.01);
    EXPECT_EQ(config.hidden_size, 128u);
    EXPECT_EQ(config.learning_rate, 0.01);
    EXPECT_EQ(config.batch_size, 32u);

    auto path = std::filesystem::temp_directory_path() / "burn-config-example.json";
    config.save(path);
    auto loaded = TrainingConfig::load(path);
    EXPECT_EQ(loaded.hidden_size, 128u);
    EXPECT_EQ(loaded.learning_rate, 0.01);
    EXPECT_EQ(loaded.batch_size, 32u);
}

// ---------------------------------------------------------------- helpers

namespace {

/// The range of a std::size_t field as errors print it (32 bits in wasm32, 64 on the host).
const std::string kSizeRange = "[0, " + std::to_string(std::numeric_limits<std::size_t>::max()) + "]";

/// Runs fn, expects a burn::Error, returns its message.
template <class Fn>
std::string error_of(Fn&& fn) {
    try {
        fn();
    } catch (const burn::Error& e) {
        return e.what();
    }
    ADD_FAILURE() << "no burn::Error was thrown";
    return {};
}

/// Fresh empty directory under the temp dir.
std::filesystem::path fresh_dir(const std::string& name) {
    auto dir = std::filesystem::temp_directory_path() / ("burn-config-test-" + name);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

std::vector<std::string> files_in(const std::filesystem::path& dir) {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        names.push_back(entry.path().filename().string());
    return names;
}

/// Through text and back: to_json -> dump -> parse -> from_json.
template <class T>
T through_text(const T& value) {
    return T::from_json_string(value.to_json_string());
}

Everything non_defaults() {
    Everything e;
    e.flag = false;
    e.i8 = std::numeric_limits<int8_t>::min();
    e.u8 = std::numeric_limits<uint8_t>::max();
    e.i16 = std::numeric_limits<int16_t>::min();
    e.u16 = std::numeric_limits<uint16_t>::max();
    e.i32 = std::numeric_limits<int32_t>::min();
    e.u32 = std::numeric_limits<uint32_t>::max();
    e.i64 = std::numeric_limits<int64_t>::min();
    e.u64 = std::numeric_limits<uint64_t>::max();
    e.size = static_cast<std::size_t>(12345678901234ull);  // wraps where size_t has 32 bits (wasm)
    e.ch = 'z';
    e.f32 = 3.14159274f;
    e.f64 = 1.0 / 3.0;
    e.name = "tab\t quote\" unicode é ☃";
    e.activation = Activation::silu;
    e.plain = plain_a;
    e.optimizer = AdamConfig{0.5, 0.25, 1e-8f};
    e.layers = {};
    e.optimizers = {AdamConfig{}, AdamConfig{}.with_beta_1(0.1)};
    e.mask = {false, false, true};
    e.kernel = {7, -7, 0};
    e.dropout = 0.25;
    e.maybe_optimizer = AdamConfig{}.with_epsilon(2.5f);
    e.tag = {"y", -9};
    e.padding = Explicit{1, 2};
    e.number = std::string("three");
    e.either = AdamConfig{}.with_beta_2(0.5);
    e.matrix = {{1.5f, -2.0f}, {}, {0.1f}};
    e.acts = std::vector<Activation>{Activation::gelu, Activation::relu};
    e.norm = Norm::layer;
    return e;
}

}  // namespace

// ---------------------------------------------------------------- builders

static_assert(std::is_aggregate_v<TrainingConfig>);
static_assert(std::is_aggregate_v<Everything>);
static_assert(std::is_aggregate_v<Same>);

TEST(ConfigBuilders, WithReturnsModifiedCopyAndDesignatedInitialisersWork) {
    const TrainingConfig base{.hidden_size = 3, .batch_size = 8};
    EXPECT_EQ(base.learning_rate, 0.001);
    auto changed = base.with_batch_size(64).with_hidden_size(5);
    EXPECT_EQ(base.batch_size, 8u);
    EXPECT_EQ(base.hidden_size, 3u);
    EXPECT_EQ(changed.batch_size, 64u);
    EXPECT_EQ(changed.hidden_size, 5u);
    EXPECT_EQ(changed.learning_rate, 0.001);
    EXPECT_NE(base, changed);
    EXPECT_EQ(changed, TrainingConfig{5}.with_batch_size(64));

    auto e = Everything{}.with_padding(Same{}).with_dropout(0.5).with_activation(Activation::relu);
    EXPECT_TRUE(std::holds_alternative<Same>(e.padding));
    EXPECT_EQ(e.dropout, 0.5);
    EXPECT_EQ(e.activation, Activation::relu);
}

TEST(ConfigBuilders, FieldNamesDoNotShadowGeneratedCode) {
    auto s = Shadow{}.with_fn(10).with_value(20).with_copy(30).with_os(40);
    EXPECT_EQ(s, (Shadow{10, 20, 30, 40}));
    EXPECT_EQ(s.to_json_string(-1), R"({"fn":10,"value":20,"copy":30,"os":40})");
    EXPECT_EQ(through_text(s), s);
}

TEST(ConfigBuilders, VisitListsFieldsInOrder) {
    std::vector<std::string> names;
    TrainingConfig{}.burn_visit_config([&](const char* name, const auto&) { names.push_back(name); });
    EXPECT_EQ(names, (std::vector<std::string>{"hidden_size", "learning_rate", "batch_size"}));
    TrainingConfig c{};
    c.burn_visit_config(
        [](const char*, auto& field) { field = static_cast<std::decay_t<decltype(field)>>(2); });
    EXPECT_EQ(c, (TrainingConfig{2, 2.0, 2}));
    EXPECT_EQ(std::string(TrainingConfig::burn_config_name()), "TrainingConfig");
}

// ---------------------------------------------------------------- round trips

TEST(ConfigRoundTrip, EveryFieldTypeWithDefaults) {
    Everything e{};
    EXPECT_EQ(through_text(e), e);
    EXPECT_EQ(Everything::from_json(e.to_json()), e);
}

TEST(ConfigRoundTrip, EveryFieldTypeWithNonDefaults) {
    Everything e = non_defaults();
    ASSERT_NE(e, Everything{});
    Everything back = through_text(e);
    EXPECT_EQ(back, e);
    // Field by field, so a failure says which type broke.
    EXPECT_EQ(back.i64, std::numeric_limits<int64_t>::min());
    EXPECT_EQ(back.u64, std::numeric_limits<uint64_t>::max());
    EXPECT_EQ(back.f32, 3.14159274f);
    EXPECT_EQ(back.f64, 1.0 / 3.0);
    EXPECT_EQ(back.name, e.name);
    EXPECT_EQ(back.mask, (std::vector<bool>{false, false, true}));
    EXPECT_EQ(std::get<Explicit>(back.padding).width, 2u);
    EXPECT_EQ(std::get<std::string>(back.number), "three");
    EXPECT_EQ(std::get<AdamConfig>(back.either).beta_2, 0.5);
    EXPECT_EQ(back.maybe_optimizer->epsilon, 2.5f);

    // And through a file.
    auto dir = fresh_dir("everything");
    e.save(dir / "e.json");
    EXPECT_EQ(Everything::load(dir / "e.json"), e);
    std::filesystem::remove_all(dir);
}

TEST(ConfigRoundTrip, JsonShapeOfEachKind) {
    Everything e = non_defaults();
    Value j = e.to_json();
    ASSERT_TRUE(j.is_object());
    // Keys in declaration order.
    EXPECT_EQ(j.as_object().front().first, "flag");
    EXPECT_EQ(j.as_object().back().first, "norm");
    EXPECT_EQ(j.at("flag"), Value(false));
    EXPECT_EQ(j.at("i64").kind(), config::Kind::int64);
    EXPECT_EQ(j.at("u64").as_uint64(), std::numeric_limits<uint64_t>::max());
    EXPECT_EQ(j.at("ch"), Value(int('z')));
    EXPECT_EQ(j.at("activation"), Value("silu"));
    EXPECT_EQ(j.at("plain"), Value("plain_a"));
    EXPECT_EQ(j.at("norm"), Value("layer"));
    EXPECT_EQ(dump(j.at("optimizer"), -1), R"({"beta_1":0.5,"beta_2":0.25,"epsilon":1e-08})");
    EXPECT_EQ(dump(j.at("kernel"), -1), "[7,-7,0]");
    EXPECT_EQ(dump(j.at("tag"), -1), R"(["y",-9])");
    EXPECT_EQ(dump(j.at("padding"), -1), R"({"type":"Explicit","value":{"height":1,"width":2}})");
    EXPECT_EQ(dump(j.at("number"), -1), R"({"type":"string","value":"three"})");
    EXPECT_EQ(dump(j.at("either"), -1).substr(0, 31), R"({"type":"AdamConfig","value":{")");
    EXPECT_EQ(dump(j.at("matrix"), -1), "[[1.5,-2.0],[],[0.1]]");  // floats print short
    EXPECT_EQ(dump(j.at("acts"), -1), R"(["gelu","relu"])");
    EXPECT_EQ(dump(j.at("dropout"), -1), "0.25");
    EXPECT_TRUE(Everything{}.to_json().at("dropout").is_null());  // empty optional is null
    EXPECT_TRUE(Everything{}.to_json().at("acts").is_null());
}

TEST(ConfigRoundTrip, PaddingVariantUnitAlternativesAndExplicit) {
    for (PaddingConfig2d p :
         {PaddingConfig2d{Valid{}}, PaddingConfig2d{Same{}}, PaddingConfig2d{Explicit{3, 4}}}) {
        auto e = Everything{}.with_padding(p);
        EXPECT_EQ(through_text(e).padding, p);
    }
    EXPECT_EQ(dump(Everything{}.with_padding(Same{}).to_json().at("padding"), -1), R"({"type":"Same"})");
    // The index works as "type" too.
    auto e = Everything::from_json_string(R"({"padding": {"type": 1}})");
    EXPECT_TRUE(std::holds_alternative<Same>(e.padding));
    // A missing "value" keeps the alternative's default; an existing alternative keeps its values.
    e = Everything::from_json_string(R"({"padding": {"type": "Explicit"}})");
    EXPECT_EQ(std::get<Explicit>(e.padding), (Explicit{0, 0}));
    auto conv = ConvConfig::from_json_string(R"({"padding": {"type": "Explicit", "value": {"width": 5}}})");
    EXPECT_EQ(std::get<Explicit>(conv.padding), (Explicit{1, 5}));
}

TEST(ConfigRoundTrip, CustomVariantNamesAndIndexFallback) {
    ConvConfig c{};
    c.padding_1d = custom::PadExplicit{7};
    Value j = c.to_json();
    EXPECT_EQ(dump(j.at("padding_1d"), -1), R"({"type":"explicit","value":{"size":7}})");
    EXPECT_EQ(through_text(c), c);
    c.padding_1d = custom::PadSame{};
    EXPECT_EQ(dump(c.to_json().at("padding_1d"), -1), R"({"type":"same"})");
    EXPECT_EQ(through_text(c), c);

    // No natural names (a vector) -> indices, written as numbers, read as numbers or digit strings.
    c.shapes = std::string("abc");
    EXPECT_EQ(dump(c.to_json().at("shapes"), -1), R"({"type":1,"value":"abc"})");
    EXPECT_EQ(through_text(c), c);
    c.shapes = std::vector<int>{1, 2};
    EXPECT_EQ(through_text(c), c);
    auto d = ConvConfig::from_json_string(R"({"shapes": {"type": "1", "value": "x"}})");
    EXPECT_EQ(std::get<std::string>(d.shapes), "x");
}

TEST(ConfigRoundTrip, NonFiniteAndExtremeNumbers) {
    Everything e{};
    e.f64 = std::numeric_limits<double>::infinity();
    e.f32 = -std::numeric_limits<float>::infinity();
    e.dropout = std::nan("");
    Value j = e.to_json();
    EXPECT_EQ(j.at("f64"), Value("inf"));
    EXPECT_EQ(j.at("f32"), Value("-inf"));
    EXPECT_EQ(j.at("dropout"), Value("nan"));
    Everything back = through_text(e);
    EXPECT_TRUE(std::isinf(back.f64) && back.f64 > 0);
    EXPECT_TRUE(std::isinf(back.f32) && back.f32 < 0);
    EXPECT_TRUE(back.dropout.has_value() && std::isnan(*back.dropout));

    e = Everything{};
    e.f64 = std::numeric_limits<double>::denorm_min();
    e.f32 = std::numeric_limits<float>::max();
    EXPECT_EQ(through_text(e), e);
    // Every float written and read back is the same float.
    for (float f : {0.1f, 1e-45f, 1.17549435e-38f, 16777217.0f, 0.3f, 123456.789f, -0.0f}) {
        e.f32 = f;
        EXPECT_EQ(through_text(e).f32, f) << f;
    }
    // A whole number written as a double is accepted for an integer.
    EXPECT_EQ(Everything::from_json_string(R"({"size": 1e3, "i32": -2.0})").size, 1000u);
}

TEST(ConfigRoundTrip, NestedEnumAndZeroFieldConfig) {
    EXPECT_EQ(Same{}.to_json_string(-1), "{}");
    EXPECT_EQ(Same::from_json_string("{}"), Same{});
    std::ostringstream os;
    os << Norm::batch << " " << Activation::gelu << " " << static_cast<Activation>(7);
    EXPECT_EQ(os.str(), "batch gelu Activation(7)");
    EXPECT_EQ(config::enum_name(Norm::layer), "layer");
    EXPECT_EQ(config::enum_from_name<Activation>("silu"), Activation::silu);
    EXPECT_FALSE(config::enum_from_name<Activation>("tanh").has_value());
    auto message = error_of([] { Everything{}.with_activation(static_cast<Activation>(7)).to_json(); });
    EXPECT_NE(message.find("Activation value 7 has no name"), std::string::npos) << message;
}

TEST(ConfigRoundTrip, PrintsAsJson) {
    auto c = TrainingConfig{128}.with_learning_rate(0.01);
    std::ostringstream os;
    os << c;
    EXPECT_EQ(os.str(), c.to_json_string());
    EXPECT_EQ(c.to_json_string(-1), R"({"hidden_size":128,"learning_rate":0.01,"batch_size":32})");
    EXPECT_EQ(c.to_json_string(),
              "{\n  \"hidden_size\": 128,\n  \"learning_rate\": 0.01,\n  \"batch_size\": 32\n}");
}

// ---------------------------------------------------------------- missing keys take defaults

TEST(ConfigMissingKeys, TakeDefaultMemberInitialisers) {
    EXPECT_EQ(Everything::from_json_string("{}"), Everything{});
    auto t = TrainingConfig::from_json_string(R"({"batch_size": 7})");
    EXPECT_EQ(t, (TrainingConfig{0, 0.001, 7}));
    // Inside nested configs too, and the nested default is the containing struct's initialiser.
    auto c = ConvConfig::from_json_string(R"({"optimizer": {"beta_2": 0.5}})");
    EXPECT_EQ(c.optimizer.beta_1, 0.8);  // ConvConfig's own default for its nested AdamConfig
    EXPECT_EQ(c.optimizer.beta_2, 0.5);
    EXPECT_EQ(c.optimizer.epsilon, 1e-5f);
    // Optional: absent keeps the default, null empties it.
    EXPECT_EQ(ConvConfig::from_json_string("{}").groups, 2);
    EXPECT_FALSE(ConvConfig::from_json_string(R"({"groups": null})").groups.has_value());
}

// ---------------------------------------------------------------- errors

TEST(ConfigErrors, UnknownKeysNameThePathAndTheAcceptedKeys) {
    auto m = error_of([] { TrainingConfig::from_json_string(R"({"hidden_size": 1, "hiden_size": 2})"); });
    EXPECT_NE(m.find("[config] TrainingConfig, key 'hiden_size': unknown key"), std::string::npos) << m;
    EXPECT_NE(m.find(R"("hidden_size", "learning_rate", "batch_size")"), std::string::npos) << m;

    m = error_of([] { Everything::from_json_string(R"({"optimizer": {"beta_3": 0.1}})"); });
    EXPECT_NE(m.find("key 'optimizer.beta_3'"), std::string::npos) << m;
    EXPECT_NE(m.find("AdamConfig accepts"), std::string::npos) << m;

    m = error_of([] { Everything::from_json_string(R"({"optimizers": [{}, {"x": 1}]})"); });
    EXPECT_NE(m.find("key 'optimizers[1].x'"), std::string::npos) << m;

    m = error_of([] { Everything::from_json_string(R"({"padding": {"type": "Same", "extra": 1}})"); });
    EXPECT_NE(m.find("key 'padding.extra'"), std::string::npos) << m;

    m = error_of([] { Everything::from_json_string(R"({"padding": {"value": {}}})"); });
    EXPECT_NE(m.find("key 'padding.type': missing"), std::string::npos) << m;

    m = error_of([] { Same::from_json_string(R"({"a": 1})"); });
    EXPECT_NE(m.find("Same has no fields"), std::string::npos) << m;
}

TEST(ConfigErrors, WrongTypesNameTheKeyAndTheExpectedType) {
    struct Case {
        const char* json;
        std::string key;
        const char* expected;
    };
    const Case cases[] = {
        {R"({"f64": "fast"})", "key 'f64': expected a number", "got a string \"fast\""},
        {R"({"flag": 1})", "key 'flag': expected a boolean", "got an integer 1"},
        {R"({"name": 3})", "key 'name': expected a string", "got an integer 3"},
        {R"({"layers": [1, "x"]})", "key 'layers[1]': expected an integer in " + kSizeRange, "got a string"},
        {R"({"layers": {}})", "key 'layers': expected an array of an integer", "got an object"},
        {R"({"optimizer": [1]})", "key 'optimizer': expected an object (AdamConfig)", "got an array [1]"},
        {R"({"optimizer": {"beta_1": null}})", "key 'optimizer.beta_1': expected a number", "got null"},
        {R"({"activation": 2})", "key 'activation': expected a Activation name",
         R"(("relu", "gelu", "silu"))"},
        {R"({"activation": "tanh"})", "key 'activation': unknown Activation \"tanh\"",
         R"(accepted: "relu", "gelu", "silu")"},
        {R"({"kernel": [1, 2]})", "key 'kernel': expected an array of 3 elements", "got 2 elements"},
        {R"({"tag": ["a"]})", "key 'tag': expected an array of 2 elements", "got 1"},
        {R"({"padding": "Same"})",
         "key 'padding': expected an object {\"type\": \"Valid\", \"Same\", \"Explicit\"", "got a string"},
        {R"({"padding": {"type": "Full"}})", "key 'padding.type': unknown alternative \"Full\"",
         R"("Valid", "Same", "Explicit")"},
        {R"({"padding": {"type": 3}})", "key 'padding.type': unknown alternative 3", "accepted"},
        {R"({"padding": {"type": "Explicit", "value": {"height": -1}}})", "key 'padding.value.height'",
         "out of range"},
        {R"({"i32": 0.5})", "key 'i32': expected an integer in [-2147483648, 2147483647]",
         "got a number 0.5"},
        {R"({"maybe_optimizer": 3})", "key 'maybe_optimizer': expected an object (AdamConfig)",
         "got an integer 3"},
        {R"({"acts": [1]})", "key 'acts[0]': expected a Activation name", "got an integer 1"},
        {R"({"matrix": [[1, true]]})", "key 'matrix[0][1]': expected a number", "got a boolean true"},
        {R"([1, 2])", "[config] Everything: expected an object (Everything)", "got an array [1,2]"},
    };
    for (const auto& c : cases) {
        auto m = error_of([&] { Everything::from_json_string(c.json); });
        EXPECT_NE(m.find(c.key), std::string::npos) << c.json << "\n" << m;
        EXPECT_NE(m.find(c.expected), std::string::npos) << c.json << "\n" << m;
    }
}

TEST(ConfigErrors, IntegerRangesAreChecked) {
    struct Case {
        const char* json;
        std::string key;
    };
    const Case cases[] = {
        {R"({"size": -1})", "key 'size': -1 is out of range (expected an integer in " + kSizeRange + ")"},
        {R"({"u8": 256})", "key 'u8': 256 is out of range (expected an integer in [0, 255])"},
        {R"({"i8": -129})", "key 'i8': -129 is out of range (expected an integer in [-128, 127])"},
        {R"({"i16": 32768})", "key 'i16': 32768 is out of range"},
        {R"({"u16": -5})", "key 'u16': -5 is out of range"},
        {R"({"i32": 3000000000})", "key 'i32': 3000000000 is out of range"},
        {R"({"u32": 4294967296})", "key 'u32': 4294967296 is out of range"},
        {R"({"i64": 9223372036854775808})", "key 'i64': 9223372036854775808 is out of range"},
        {R"({"u64": 18446744073709551616})", "key 'u64': 1.8446744073709552e+19 is out of range"},
        {R"({"size": 1e30})", "key 'size': 1e+30 is out of range"},
        {R"({"f32": 1e39})",
         "key 'f32': 1e+39 is out of range (expected a number within the range of float)"},
        {R"({"f32": -3.40282357e38})", "key 'f32': -3.40282357e+38 is out of range"},
    };
    for (const auto& c : cases) {
        auto m = error_of([&] { Everything::from_json_string(c.json); });
        EXPECT_NE(m.find(c.key), std::string::npos) << c.json << "\n" << m;
    }
    // The limits themselves are fine.
    auto e = Everything::from_json_string(
        R"({"i8": -128, "u8": 255, "i64": -9223372036854775808, "u64": 18446744073709551615, "f32": 3.4e38})");
    EXPECT_EQ(e.i8, -128);
    EXPECT_EQ(e.u8, 255);
    EXPECT_EQ(e.i64, std::numeric_limits<int64_t>::min());
    EXPECT_EQ(e.u64, std::numeric_limits<uint64_t>::max());
    EXPECT_EQ(e.f32, 3.4e38f);
    // Just above FLT_MAX but rounding to it is FLT_MAX, not an error.
    EXPECT_EQ(Everything::from_json_string(R"({"f32": 3.40282356e38})").f32,
              std::numeric_limits<float>::max());
}

// ---------------------------------------------------------------- files

TEST(ConfigFiles, AtomicSaveOverwritesAndLeavesNoTemporaryFiles) {
    auto dir = fresh_dir("atomic");
    auto path = dir / "training.json";
    for (size_t i = 1; i <= 5; ++i) TrainingConfig{i}.save(path);
    EXPECT_EQ(files_in(dir), (std::vector<std::string>{"training.json"}));
    EXPECT_EQ(TrainingConfig::load(path).hidden_size, 5u);
    // The file is the pretty JSON plus a newline.
    std::string text = config::dump(TrainingConfig{5}.to_json()) + "\n";
    auto loaded = config::parse(text);
    EXPECT_EQ(loaded, TrainingConfig{5}.to_json());
    EXPECT_EQ(std::filesystem::file_size(path), text.size());

    // A failing save (the directory is missing) throws IoError naming the path, and leaves nothing.
    auto bad = dir / "missing-dir" / "x.json";
    auto m = error_of([&] { TrainingConfig{1}.save(bad); });
    EXPECT_NE(m.find("[TrainingConfig::save] cannot write '" + bad.string() + "'"), std::string::npos) << m;
    EXPECT_THROW(TrainingConfig{1}.save(bad), burn::IoError);
    // Saving onto a directory fails the same way.
    EXPECT_THROW(TrainingConfig{1}.save(dir), burn::IoError);
    EXPECT_EQ(files_in(dir), (std::vector<std::string>{"training.json"}));
    std::filesystem::remove_all(dir);
}

TEST(ConfigFiles, LoadErrorsNameTheFile) {
    auto dir = fresh_dir("load");
    auto missing = dir / "nope.json";
    auto m = error_of([&] { TrainingConfig::load(missing); });
    EXPECT_NE(m.find("[TrainingConfig::load] cannot read '" + missing.string() + "'"), std::string::npos)
        << m;
    EXPECT_THROW(TrainingConfig::load(missing), burn::IoError);
    EXPECT_THROW(TrainingConfig::load(dir), burn::IoError);  // a directory

    auto broken = dir / "broken.json";
    { std::ofstream(broken) << "{\n  \"hidden_size\": 1,\n  \"batch_size\": ,\n}\n"; }
    m = error_of([&] { TrainingConfig::load(broken); });
    EXPECT_NE(m.find("'" + broken.string() + "' line 3, column 17"), std::string::npos) << m;

    auto wrong = dir / "wrong.json";
    { std::ofstream(wrong) << R"({"batch_size": -3})"; }
    m = error_of([&] { TrainingConfig::load(wrong); });
    EXPECT_NE(m.find("TrainingConfig ('" + wrong.string() + "'), key 'batch_size': -3 is out of range"),
              std::string::npos)
        << m;
    std::filesystem::remove_all(dir);
}
