#pragma once
/// Writes SQLite dataset files that SqliteDataset (sqlite.hpp) reads (burn's SqliteDatasetWriter): a
/// table per split, an integer `row_id` column numbering its rows 1, 2, ... in the order written, and one
/// column per field of the rows.
///
///     data::SqliteDatasetWriter writer("digits.db", /*overwrite=*/true);
///     for (const auto& s : samples)
///         writer.write("train", {{"image_bytes", s.png}, {"label", int64_t{s.label}}});
///     writer.set_completed();   // only now does digits.db appear (or get replaced)
///     data::SqliteDataset train("digits.db", "train", [](const data::SqliteRow& row) { ... });
///
/// Rows go to "<file>.tmp" in one transaction; set_completed() commits it and renames the file into
/// place, so an interrupted run never leaves a partial dataset under the final name, and a writer
/// destroyed before set_completed() deletes its temporary file. write() is safe from several threads
/// (rows are numbered in the order the calls take the lock). Like the reader, this needs SQLite in the
/// build (BURN_SQLITE); without it the constructor throws a burn::Error naming the package.
#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "burn/data/sqlite.hpp"

namespace burn::data {

/// One row to write: (column, value) pairs. A value is NULL (std::monostate), an integer, a double, a
/// text (std::string) or a blob (std::vector<uint8_t>).
using SqliteColumns = std::vector<std::pair<std::string, SqliteValue>>;

class SqliteDatasetWriter {
  public:
    /// Whether this build has SQLite (BURN_SQLITE); the same as SqliteTable::available().
    static bool available();
    /// Starts a dataset file. An existing file is an error unless overwrite (then it is replaced at
    /// set_completed()). Throws burn::IoError when the temporary file cannot be created.
    explicit SqliteDatasetWriter(const std::filesystem::path& file, bool overwrite = false);
    ~SqliteDatasetWriter();
    SqliteDatasetWriter(SqliteDatasetWriter&&) noexcept;
    SqliteDatasetWriter& operator=(SqliteDatasetWriter&&) noexcept;

    /// Appends a row to the split's table and returns its item index (row_id - 1). The split's first
    /// row creates the table with that row's columns, typed by its values (INTEGER, REAL, TEXT, BLOB;
    /// untyped for NULL); every later row of the split has the same column names, in any order.
    /// "row_id" is the writer's own column.
    std::size_t write(const std::string& split, const SqliteColumns& row);
    /// Writes every item of a dataset through item_to_row(item) -> SqliteColumns; returns how many.
    template <class D, class F>
    std::size_t write_all(const std::string& split, const D& dataset, F&& item_to_row) {
        std::size_t n = 0;
        for (std::size_t i = 0; i < dataset.len(); ++i)
            if (auto item = dataset.get(i)) {
                write(split, item_to_row(*item));
                ++n;
            }
        return n;
    }
    /// The number of rows written to a split so far (0 for a split not written).
    std::size_t len(const std::string& split) const;
    /// Commits the rows and moves the file into place; after it, write() throws.
    void set_completed();
    bool is_completed() const;
    const std::filesystem::path& file() const;

    struct Impl;

  private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace burn::data
