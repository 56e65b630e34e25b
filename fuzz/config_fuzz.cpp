// libFuzzer target: config JSON as users read it: config::parse (depth, duplicates, numbers,
// escapes), dump of what parsed (printing must read back to the same text: dump is a fixed point), and
// from_json_string into configs with every field kind the config macros support (nested configs,
// optionals, vectors, arrays, pairs, enums and variants), including a real one (optim::AdamConfig).
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "burn/burn.hpp"

namespace fuzzcfg {

enum class Act { relu, gelu };
BURN_ENUM(Act, relu, gelu)

struct Same {
    BURN_CONFIG(Same)
};
struct Explicit {
    std::size_t height = 0, width = 0;
    BURN_CONFIG(Explicit, height, width)
};

struct Model {
    bool flag = true;
    int8_t i8 = 0;
    uint16_t u16 = 0;
    int32_t i32 = 0;
    uint64_t u64 = 0;
    float f32 = 0;
    double f64 = 0;
    char ch = 'a';
    std::string name;
    Act act = Act::relu;
    std::vector<std::size_t> layers;
    std::array<int, 2> kernel{1, 1};
    std::optional<double> dropout;
    std::pair<std::string, int> tag{"x", 1};
    std::variant<Same, Explicit> padding = Same{};
    std::variant<int64_t, double, std::string> number = int64_t{0};
    std::vector<std::vector<float>> matrix;
    burn::optim::AdamConfig optimizer{};
    std::optional<std::vector<Explicit>> pads;
    BURN_CONFIG(Model, flag, i8, u16, i32, u64, f32, f64, ch, name, act, layers, kernel, dropout, tag,
                padding, number, matrix, optimizer, pads)
};

}  // namespace fuzzcfg

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    namespace config = burn::config;
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        config::Value v = config::parse(text, "fuzz.json");
        const std::string once = config::dump(v, -1);
        if (config::dump(config::parse(once), -1) != once) __builtin_trap();  // printing is not stable
        config::dump(v, 2);
    } catch (const burn::Error&) {
    }
    try {
        auto m = fuzzcfg::Model::from_json_string(text);
        fuzzcfg::Model::from_json_string(m.to_json_string(-1));  // what was read writes and reads back
    } catch (const burn::Error&) {
    }
    try {
        burn::optim::AdamConfig::from_json_string(text);
    } catch (const burn::Error&) {
    }
    return 0;
}
