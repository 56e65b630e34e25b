// SqliteTable with the SQLite C library (compiled only when CMake finds it: BURN_SQLITE).
#include <sqlite3.h>

#include <algorithm>
#include <mutex>

#include "burn/data/sqlite.hpp"

namespace burn::data {

struct SqliteTable::Impl {
    sqlite3* db = nullptr;
    sqlite3_stmt* select = nullptr;  // SELECT * FROM "table" WHERE row_id = ?
    std::mutex mutex;
    std::string file, table;
    std::shared_ptr<const std::vector<std::string>> columns;
    std::size_t len = 0;
    ~Impl() {
        sqlite3_finalize(select);
        sqlite3_close(db);
    }
};

namespace {

std::string quoted_identifier(const std::string& name) {
    std::string out = "\"";
    for (char c : name) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

sqlite3* open_readonly(const std::filesystem::path& file) {
    std::error_code ec;
    BURN_CHECK_KIND(std::filesystem::is_regular_file(file, ec), io, "[SqliteDataset] '", file.string(),
                    "' does not exist or is not a file; give the path of a SQLite database");
    sqlite3* db = nullptr;
    const int rc =
        sqlite3_open_v2(file.string().c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        const std::string why = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
        sqlite3_close(db);
        BURN_THROW_KIND(io, "[SqliteDataset] cannot open '", file.string(), "': ", why);
    }
    return db;
}

sqlite3_stmt* prepare(sqlite3* db, const std::string& sql, const std::string& file) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK)
        BURN_THROW_KIND(io, "[SqliteDataset] '", file, "': ", sqlite3_errmsg(db),
                        " (is it a SQLite database? running: ", sql, ")");
    return stmt;
}

}  // namespace

bool SqliteTable::available() {
    return true;
}

std::vector<std::string> SqliteTable::tables(const std::filesystem::path& file) {
    sqlite3* db = open_readonly(file);
    std::vector<std::string> out;
    sqlite3_stmt* stmt = nullptr;
    const char* sql = "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name";
    if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) == SQLITE_OK)
        while (sqlite3_step(stmt) == SQLITE_ROW)
            out.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)));
    const bool ok = stmt != nullptr;
    const std::string why = ok ? "" : sqlite3_errmsg(db);
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    BURN_CHECK_KIND(ok, io, "[SqliteDataset] '", file.string(), "' is not a readable SQLite database: ", why);
    return out;
}

SqliteTable::SqliteTable(const std::filesystem::path& file, const std::string& table) {
    const auto names = tables(file);
    if (std::find(names.begin(), names.end(), table) == names.end()) {
        std::string list;
        for (const auto& n : names) list += (list.empty() ? "'" : ", '") + n + "'";
        BURN_THROW_KIND(io, "[SqliteDataset] '", file.string(), "' has no table '", table,
                        "' (its tables: ", list.empty() ? std::string("none") : list,
                        "); the split names the table");
    }
    auto impl = std::make_shared<Impl>();
    impl->file = file.string();
    impl->table = table;
    impl->db = open_readonly(file);
    const std::string from = " FROM " + quoted_identifier(table);
    impl->select = prepare(impl->db, "SELECT *" + from + " WHERE row_id = ?", impl->file);
    auto columns = std::make_shared<std::vector<std::string>>();
    for (int i = 0; i < sqlite3_column_count(impl->select); ++i)
        columns->emplace_back(sqlite3_column_name(impl->select, i));
    impl->columns = columns;
    sqlite3_stmt* count = prepare(impl->db, "SELECT COUNT(*)" + from, impl->file);
    if (sqlite3_step(count) == SQLITE_ROW)
        impl->len = static_cast<std::size_t>(sqlite3_column_int64(count, 0));
    sqlite3_finalize(count);
    impl_ = std::move(impl);
}

std::size_t SqliteTable::len() const {
    return impl_->len;
}

const std::vector<std::string>& SqliteTable::columns() const {
    return *impl_->columns;
}

SqliteRow SqliteTable::row(std::size_t index) const {
    Impl& s = *impl_;
    const std::string where = "'" + s.file + "' table '" + s.table + "' row_id " + std::to_string(index + 1);
    std::vector<SqliteValue> values;
    int rc;
    {
        std::lock_guard<std::mutex> lock(s.mutex);
        sqlite3_reset(s.select);
        sqlite3_bind_int64(s.select, 1, static_cast<sqlite3_int64>(index + 1));
        rc = sqlite3_step(s.select);
        if (rc == SQLITE_ROW) {
            for (int i = 0; i < sqlite3_column_count(s.select); ++i) {
                switch (sqlite3_column_type(s.select, i)) {
                    case SQLITE_INTEGER:
                        values.emplace_back(static_cast<int64_t>(sqlite3_column_int64(s.select, i)));
                        break;
                    case SQLITE_FLOAT:
                        values.emplace_back(sqlite3_column_double(s.select, i));
                        break;
                    case SQLITE_TEXT: {
                        const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(s.select, i));
                        values.emplace_back(
                            std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(s.select, i))));
                        break;
                    }
                    case SQLITE_BLOB: {
                        const auto* p = static_cast<const uint8_t*>(sqlite3_column_blob(s.select, i));
                        values.emplace_back(std::vector<uint8_t>(p, p + sqlite3_column_bytes(s.select, i)));
                        break;
                    }
                    default:
                        values.emplace_back(std::monostate{});
                }
            }
        }
        if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
            const std::string why = sqlite3_errmsg(s.db);
            sqlite3_reset(s.select);
            BURN_THROW_KIND(io, "[SqliteDataset] reading ", where, ": ", why);
        }
        sqlite3_reset(s.select);
    }
    BURN_CHECK_KIND(rc == SQLITE_ROW, io, "[SqliteDataset] ", where, " does not exist: the table has ", s.len,
                    " rows, and item i is the row with row_id i + 1, so row_id must run from 1 to ", s.len);
    return SqliteRow(s.columns, std::move(values), where);
}

}  // namespace burn::data
