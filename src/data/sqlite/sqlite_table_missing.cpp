// SqliteTable in a build without SQLite (sqlite_table.cpp is compiled instead when CMake finds it).
#include "burn/data/sqlite.hpp"

namespace burn::data {

struct SqliteTable::Impl {};

namespace {

[[noreturn]] void no_sqlite(const std::filesystem::path& file) {
    BURN_THROW(
        "[SqliteDataset] cannot read '", file.string(),
        "': this build of burn has no SQLite. Install it (apt-get install libsqlite3-dev) and configure "
        "again (BURN_SQLITE=AUTO or ON)");
}

}  // namespace

bool SqliteTable::available() {
    return false;
}

std::vector<std::string> SqliteTable::tables(const std::filesystem::path& file) {
    no_sqlite(file);
}

SqliteTable::SqliteTable(const std::filesystem::path& file, const std::string&) {
    no_sqlite(file);
}

std::size_t SqliteTable::len() const {
    return 0;
}

const std::vector<std::string>& SqliteTable::columns() const {
    static const std::vector<std::string> none;
    return none;
}

SqliteRow SqliteTable::row(std::size_t) const {
    no_sqlite("<no SQLite>");
}

}  // namespace burn::data
