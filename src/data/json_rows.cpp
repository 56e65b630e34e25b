// JSON-lines files for from_json_rows: each non-empty line parsed with config::parse.
#include "burn/data/json_rows.hpp"

#include "platform/files.hpp"

namespace burn::data {

std::vector<config::Value> read_json_rows(const std::filesystem::path& path) {
    const std::string text = platform::read_file(path, "from_json_rows");
    const std::string name = path.string();
    std::vector<config::Value> rows;
    std::size_t line = 0, at = 0;
    while (at < text.size()) {
        std::size_t end = text.find('\n', at);
        if (end == std::string::npos) end = text.size();
        ++line;
        std::string_view view(text.data() + at, end - at);
        at = end + 1;
        if (view.ends_with('\r')) view.remove_suffix(1);
        if (view.find_first_not_of(" \t") == std::string_view::npos) continue;
        const std::string source = name + " line " + std::to_string(line);
        rows.push_back(config::parse(std::string(view), source));
    }
    return rows;
}

}  // namespace burn::data
