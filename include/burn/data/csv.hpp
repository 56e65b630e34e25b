#pragma once
/// In-memory datasets from CSV files (burn's InMemDataset::from_csv): the file is read once, each
/// record becomes an item through a function of its CsvRow, and the items live in an InMemDataset.
///
///     struct House { float area; int32_t rooms; std::string city; };
///     auto houses = data::from_csv("houses.csv", [](const data::CsvRow& row) {
///         return House{row.get<float>("area"), row.get<int32_t>("rooms"), row["city"]};
///     });
///     houses.len();   // one item per record
///
/// The format is RFC 4180's: a header row names the columns (CsvOptions::has_header = false numbers
/// them "0", "1", ...), fields may be quoted ("a, b", "say ""hi"""), a quoted field may span lines,
/// lines end in \n or \r\n, and empty lines are skipped. Every record must have as many fields as the
/// header. Errors are burn::IoError naming the file, the line and the column.
#include <charconv>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "burn/core/error.hpp"
#include "burn/data/dataset.hpp"

namespace burn::data {

struct CsvOptions {
    char delimiter = ',';
    char quote = '"';
    /// The first record names the columns; otherwise they are "0", "1", ...
    bool has_header = true;
};

/// The parsed text: column names and records (fields as written, quotes removed).
struct CsvTable {
    std::vector<std::string> columns;
    std::vector<std::vector<std::string>> rows;
    std::vector<std::size_t> lines;  // the line each row starts on (1-based), for messages
};

/// Parses CSV text; `name` (a file name) is what errors mention. Throws burn::IoError.
CsvTable parse_csv(std::string_view text, const CsvOptions& options = {}, std::string_view name = "<memory>");
/// Reads and parses a CSV file. Throws burn::IoError.
CsvTable read_csv(const std::filesystem::path& path, const CsvOptions& options = {});

/// One record, as a row-to-item function sees it.
class CsvRow {
  public:
    CsvRow(const CsvTable& table, std::size_t row, std::string_view name)
        : table_(&table), row_(row), name_(name) {}
    /// The number of fields.
    std::size_t size() const { return table_->columns.size(); }
    /// The field at a position.
    const std::string& operator[](std::size_t column) const;
    /// The field of a named column; throws burn::IoError listing the columns when there is none.
    const std::string& operator[](std::string_view column) const;
    const std::string& operator[](const char* column) const { return (*this)[std::string_view(column)]; }
    /// Whether the file has this column.
    bool has(std::string_view column) const;
    /// The field of a column (by name or position) as T: an integer, a floating-point number, bool
    /// (true/false/1/0) or std::string. Throws burn::IoError naming the file, line, column and text
    /// when the field does not parse as T.
    template <class T, class C>
    T get(const C& column) const {
        const std::string& text = (*this)[column];
        if constexpr (std::is_same_v<T, std::string>) {
            return text;
        } else if constexpr (std::is_same_v<T, bool>) {
            if (text == "true" || text == "1") return true;
            if (text == "false" || text == "0") return false;
            bad_value(column_name(column), text, "a bool (true, false, 1 or 0)");
        } else {
            static_assert(std::is_arithmetic_v<T>, "CsvRow::get<T>: T is a number, bool or std::string");
            std::string_view s = trimmed(text);
            T value{};
            bool ok = !s.empty();
            if constexpr (std::is_integral_v<T>) {
                auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
                ok = ok && ec == std::errc() && end == s.data() + s.size();
            } else {  // libc++ 13 (emscripten) has no floating-point from_chars
                double d = 0;
                ok = ok && parse_real(s, d) &&
                     (!std::isfinite(d) || std::fabs(d) <= std::numeric_limits<T>::max());
                value = static_cast<T>(d);
            }
            if (!ok)
                bad_value(column_name(column), text,
                          std::is_integral_v<T> ? "an integer in range" : "a number");
            return value;
        }
    }
    /// The 1-based line of the file this record starts on.
    std::size_t line() const { return table_->lines[row_]; }

  private:
    static std::string_view trimmed(std::string_view s);
    /// s as a double (strtod in the "C" locale's syntax: inf, nan, hex floats too); false unless all of
    /// s parses and the value is in double's range.
    static bool parse_real(std::string_view s, double& out);
    std::string column_name(std::size_t column) const;
    std::string column_name(std::string_view column) const { return std::string(column); }
    std::string column_name(const char* column) const { return column; }
    [[noreturn]] void bad_value(const std::string& column, const std::string& text,
                                const char* expected) const;
    const CsvTable* table_;
    std::size_t row_;
    std::string_view name_;
};

/// An InMemDataset with one item per record of a CSV file: row_to_item(const CsvRow&) -> item.
template <class F>
auto from_csv(const std::filesystem::path& path, F&& row_to_item, const CsvOptions& options = {}) {
    using I = std::decay_t<std::invoke_result_t<F&, const CsvRow&>>;
    const CsvTable table = read_csv(path, options);
    const std::string name = path.string();
    std::vector<I> items;
    items.reserve(table.rows.size());
    for (std::size_t r = 0; r < table.rows.size(); ++r) items.push_back(row_to_item(CsvRow(table, r, name)));
    return InMemDataset<I>(std::move(items));
}

}  // namespace burn::data
