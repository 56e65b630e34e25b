#pragma once
/// Datasets in SQLite files (burn's SqliteDataset): a table per split ("train", "test", ...), each
/// with an integer `row_id` column numbering its rows 1, 2, ... (item i is the row with row_id i + 1).
/// A function turns each row into an item; rows are read by get(), so the file can exceed memory.
///
///     auto train = data::SqliteDataset("data.db", "train", [](const data::SqliteRow& row) {
///         return Sample{row.get<std::vector<uint8_t>>("image_bytes"), row.get<int32_t>("label")};
///     });
///
/// SQLite is an optional part of burn_data (BURN_SQLITE in CMake: on when libsqlite3-dev is found):
/// without it, opening a table throws a burn::Error naming the package; SqliteTable::available()
/// tells beforehand. get() is safe from several threads (reads are serialised on the connection).
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "burn/core/error.hpp"
#include "burn/data/dataset.hpp"

namespace burn::data {

/// A column's value: NULL, INTEGER, REAL, TEXT or BLOB.
using SqliteValue = std::variant<std::monostate, int64_t, double, std::string, std::vector<uint8_t>>;

/// One row, as a row-to-item function sees it.
class SqliteRow {
  public:
    SqliteRow(std::shared_ptr<const std::vector<std::string>> columns, std::vector<SqliteValue> values,
              std::string where)
        : columns_(std::move(columns)), values_(std::move(values)), where_(std::move(where)) {}
    const std::vector<std::string>& columns() const { return *columns_; }
    /// The value of a column; throws burn::IoError listing the columns when there is none.
    const SqliteValue& operator[](std::string_view column) const;
    bool is_null(std::string_view column) const {
        return std::holds_alternative<std::monostate>((*this)[column]);
    }
    /// The value as T: an integer or bool (from INTEGER), float or double (from REAL or INTEGER),
    /// std::string (TEXT) or std::vector<uint8_t> (BLOB). Throws burn::IoError naming the table, row
    /// and column when the stored type does not convert.
    template <class T>
    T get(std::string_view column) const {
        const SqliteValue& v = (*this)[column];
        if constexpr (std::is_same_v<T, std::string>) {
            if (auto* s = std::get_if<std::string>(&v)) return *s;
        } else if constexpr (std::is_same_v<T, std::vector<uint8_t>>) {
            if (auto* b = std::get_if<std::vector<uint8_t>>(&v)) return *b;
            if (auto* s = std::get_if<std::string>(&v)) return T(s->begin(), s->end());
        } else if constexpr (std::is_floating_point_v<T>) {
            if (auto* d = std::get_if<double>(&v)) return static_cast<T>(*d);
            if (auto* i = std::get_if<int64_t>(&v)) return static_cast<T>(*i);
        } else {
            static_assert(std::is_integral_v<T>,
                          "SqliteRow::get<T>: T is a number, std::string or std::vector<uint8_t>");
            if (auto* i = std::get_if<int64_t>(&v)) return static_cast<T>(*i);
        }
        bad_type(column, v);
    }

  private:
    [[noreturn]] void bad_type(std::string_view column, const SqliteValue& v) const;
    std::shared_ptr<const std::vector<std::string>> columns_;
    std::vector<SqliteValue> values_;
    std::string where_;  // "'file' table 'train' row_id 3", for messages
};

/// A table of a SQLite file opened read-only: its columns, its number of rows, a row by index.
class SqliteTable {
  public:
    /// Whether this build has SQLite (BURN_SQLITE).
    static bool available();
    /// Throws burn::IoError when the file or the table is missing or the table has no row_id column.
    SqliteTable(const std::filesystem::path& file, const std::string& table);
    std::size_t len() const;
    const std::vector<std::string>& columns() const;
    /// The row with row_id index + 1; throws burn::IoError naming the row_id when there is none.
    SqliteRow row(std::size_t index) const;
    /// The tables of a file (the splits), sorted.
    static std::vector<std::string> tables(const std::filesystem::path& file);

    struct Impl;

  private:
    std::shared_ptr<Impl> impl_;
};

template <class I>
class SqliteDataset final : public Dataset<I> {
  public:
    template <class F>
    SqliteDataset(const std::filesystem::path& file, const std::string& split, F&& row_to_item)
        : table_(file, split), row_to_item_(std::forward<F>(row_to_item)) {}
    std::optional<I> get(std::size_t index) const override {
        if (index >= table_.len()) return std::nullopt;
        return row_to_item_(table_.row(index));
    }
    std::size_t len() const override { return table_.len(); }
    const SqliteTable& table() const { return table_; }

  private:
    SqliteTable table_;
    std::function<I(const SqliteRow&)> row_to_item_;
};
template <class F>
SqliteDataset(const std::filesystem::path&, const std::string&, F&&)
    -> SqliteDataset<std::decay_t<std::invoke_result_t<F&, const SqliteRow&>>>;

}  // namespace burn::data
