#pragma once
/// In-memory datasets from JSON-lines files (burn's InMemDataset::from_json_rows): one JSON value per
/// line, read once into an InMemDataset. Items are decoded like configs (burn/config/config.hpp): any
/// BURN_CONFIG struct, number, string, vector, optional... is read field by field, the way serde reads
/// burn's items; or a function builds each item from the parsed config::Value.
///
///     struct Sample {
///         std::vector<float> x;
///         int32_t label = 0;
///         BURN_CONFIG(Sample, x, label)
///     };
///     auto samples = data::from_json_rows<Sample>("train.jsonl");   // {"x": [0.5, 1], "label": 3}
///     auto labels = data::from_json_rows("train.jsonl", [](const config::Value& v) {
///         return v.at("label").as_int64();
///     });
///
/// Empty lines are skipped; a line that is not JSON is a burn::Error naming the file and the line.
#include <filesystem>
#include <type_traits>
#include <vector>

#include "burn/config/config.hpp"
#include "burn/data/dataset.hpp"

namespace burn::data {

/// The JSON value of every non-empty line of a file, in order. Throws burn::Error naming the file
/// and the line when one does not parse (burn::IoError when the file cannot be read).
std::vector<config::Value> read_json_rows(const std::filesystem::path& path);

/// One item per line: row_to_item(const config::Value&) -> item.
template <class F>
auto from_json_rows(const std::filesystem::path& path, F&& row_to_item) {
    using I = std::decay_t<std::invoke_result_t<F&, const config::Value&>>;
    std::vector<I> items;
    for (const auto& row : read_json_rows(path)) items.push_back(row_to_item(row));
    return InMemDataset<I>(std::move(items));
}

/// One item per line, each decoded as an I (config::from_json<I>: missing keys keep their defaults).
template <class I>
InMemDataset<I> from_json_rows(const std::filesystem::path& path) {
    return from_json_rows(path, [](const config::Value& row) { return config::from_json<I>(row); });
}

}  // namespace burn::data
