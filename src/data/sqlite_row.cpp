// SqliteRow's lookups and messages (no SQLite here: src/data/sqlite/ talks to the library).
#include "burn/data/sqlite.hpp"

namespace burn::data {

namespace {

const char* sqlite_kind(const SqliteValue& v) {
    static const char* names[] = {"NULL", "INTEGER", "REAL", "TEXT", "BLOB"};
    return names[v.index()];
}

}  // namespace

const SqliteValue& SqliteRow::operator[](std::string_view column) const {
    for (std::size_t i = 0; i < columns_->size(); ++i)
        if ((*columns_)[i] == column) return values_[i];
    std::string names;
    for (const auto& c : *columns_) names += (names.empty() ? "'" : ", '") + c + "'";
    BURN_THROW_KIND(io, "[SqliteDataset] ", where_, " has no column '", column, "'; its columns are ", names);
}

void SqliteRow::bad_type(std::string_view column, const SqliteValue& v) const {
    BURN_THROW_KIND(
        io, "[SqliteDataset] ", where_, " column '", column, "' holds ", sqlite_kind(v),
        ", which does not convert to the type asked for (INTEGER: integers, REAL or INTEGER: float/"
        "double, TEXT: std::string, BLOB or TEXT: std::vector<uint8_t>); read it as the stored type");
}

}  // namespace burn::data
