// SqliteDatasetWriter with the SQLite C library (compiled only when CMake finds it: BURN_SQLITE).
#include "burn/data/sqlite_writer.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <map>
#include <mutex>

namespace burn::data {

namespace fs = std::filesystem;

struct SqliteDatasetWriter::Impl {
    struct Table {
        std::vector<std::string> columns;
        std::vector<std::size_t> types;  // SqliteValue's index of each column's first value
        sqlite3_stmt* insert = nullptr;  // INSERT INTO "split" (row_id, "c1", ...) VALUES (?, ?, ...)
        std::size_t rows = 0;
    };
    fs::path file, tmp;
    bool overwrite = false;
    bool completed = false;
    sqlite3* db = nullptr;
    mutable std::mutex mutex;
    std::map<std::string, Table> tables;

    void close() {
        for (auto& [name, t] : tables) {
            sqlite3_finalize(t.insert);
            t.insert = nullptr;
        }
        sqlite3_close(db);
        db = nullptr;
    }
    ~Impl() {
        close();
        if (!completed) {
            std::error_code ec;
            fs::remove(tmp, ec);
        }
    }
};

namespace sqlite_writer_impl {  // named, not anonymous: unity builds merge anonymous namespaces

const char* kType[] = {"", "INTEGER", "REAL", "TEXT", "BLOB"};  // by SqliteValue's index

std::string quoted(const std::string& name) {
    std::string out = "\"";
    for (char c : name) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

void exec(SqliteDatasetWriter::Impl& w, const std::string& sql) {
    char* why = nullptr;
    if (sqlite3_exec(w.db, sql.c_str(), nullptr, nullptr, &why) != SQLITE_OK) {
        const std::string message = why ? why : sqlite3_errmsg(w.db);
        sqlite3_free(why);
        BURN_THROW_KIND(io, "[SqliteDatasetWriter] '", w.tmp.string(), "': ", message, " (running: ", sql,
                        ")");
    }
}

void bind(SqliteDatasetWriter::Impl& w, sqlite3_stmt* stmt, int i, const SqliteValue& v) {
    int rc = SQLITE_OK;
    switch (v.index()) {
        case 0:
            rc = sqlite3_bind_null(stmt, i);
            break;
        case 1:
            rc = sqlite3_bind_int64(stmt, i, static_cast<sqlite3_int64>(std::get<int64_t>(v)));
            break;
        case 2:
            rc = sqlite3_bind_double(stmt, i, std::get<double>(v));
            break;
        case 3: {
            const auto& s = std::get<std::string>(v);
            rc = sqlite3_bind_text64(stmt, i, s.data(), s.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
            break;
        }
        default: {
            const auto& b = std::get<std::vector<uint8_t>>(v);
            // an empty vector's data() may be null, which SQLite would store as NULL
            rc = b.empty() ? sqlite3_bind_zeroblob(stmt, i, 0)
                           : sqlite3_bind_blob64(stmt, i, b.data(), b.size(), SQLITE_TRANSIENT);
        }
    }
    if (rc != SQLITE_OK)
        BURN_THROW_KIND(io, "[SqliteDatasetWriter] '", w.tmp.string(), "': ", sqlite3_errmsg(w.db));
}

std::string names(const std::vector<std::string>& columns) {
    std::string out;
    for (const auto& c : columns) out += (out.empty() ? "'" : ", '") + c + "'";
    return out;
}

/// The split's table, created from its first row.
SqliteDatasetWriter::Impl::Table& table_for(SqliteDatasetWriter::Impl& w, const std::string& split,
                                            const SqliteColumns& row) {
    auto it = w.tables.find(split);
    if (it != w.tables.end()) return it->second;
    SqliteDatasetWriter::Impl::Table t;
    std::string create = "CREATE TABLE " + quoted(split) + " (row_id INTEGER PRIMARY KEY";
    std::string insert = "INSERT INTO " + quoted(split) + " (row_id", values = "?";
    for (const auto& [name, value] : row) {
        t.columns.push_back(name);
        t.types.push_back(value.index());
        create += ", " + quoted(name) + (value.index() ? std::string(" ") + kType[value.index()] : "");
        insert += ", " + quoted(name);
        values += ", ?";
    }
    exec(w, create + ")");
    insert += ") VALUES (" + values + ")";
    if (sqlite3_prepare_v2(w.db, insert.c_str(), -1, &t.insert, nullptr) != SQLITE_OK)
        BURN_THROW_KIND(io, "[SqliteDatasetWriter] '", w.tmp.string(), "': ", sqlite3_errmsg(w.db),
                        " (running: ", insert, ")");
    return w.tables.emplace(split, std::move(t)).first->second;
}

/// Each table column's position in the row; throws naming the missing, extra or retyped columns.
std::vector<std::size_t> row_order(const SqliteDatasetWriter::Impl::Table& t, const std::string& split,
                                   const SqliteColumns& row) {
    std::vector<std::size_t> order;
    std::vector<std::string> missing;
    for (std::size_t c = 0; c < t.columns.size(); ++c) {
        auto it =
            std::find_if(row.begin(), row.end(), [&](const auto& kv) { return kv.first == t.columns[c]; });
        if (it == row.end()) {
            missing.push_back(t.columns[c]);
            continue;
        }
        order.push_back(static_cast<std::size_t>(it - row.begin()));
        const std::size_t type = it->second.index(), declared = t.types[c];
        const bool fits = type == 0 || declared == 0 || type == declared || (declared == 2 && type == 1);
        BURN_CHECK_KIND(
            fits, io, "[SqliteDatasetWriter] split '", split, "' column '", t.columns[c], "' is ",
            kType[declared], " (from the split's first row) but this row gives ", type ? kType[type] : "NULL",
            "; give every row of a column the same type (NULL is allowed; integers go into REAL)");
    }
    BURN_CHECK_KIND(
        missing.empty() && row.size() == t.columns.size(), io, "[SqliteDatasetWriter] split '", split,
        "' has the columns ", names(t.columns), " (from its first row); this row ",
        missing.empty() ? "has more (" + std::to_string(row.size()) + " columns)" : "lacks " + names(missing),
        ". Every row of a split has the same columns");
    return order;
}

void check_row(const std::string& split, const SqliteColumns& row) {
    BURN_CHECK(!split.empty(),
               "[SqliteDatasetWriter] the split (the table's name) is empty; use e.g. \"train\"");
    BURN_CHECK(!row.empty(), "[SqliteDatasetWriter] a row of split '", split,
               "' has no columns; give (name, value) pairs");
    for (std::size_t i = 0; i < row.size(); ++i) {
        const auto& name = row[i].first;
        BURN_CHECK(!name.empty() && name != "row_id", "[SqliteDatasetWriter] split '", split, "' column ", i,
                   " is named '", name,
                   "': column names are non-empty and 'row_id' is the writer's own "
                   "(the row's number); rename it");
        for (std::size_t j = 0; j < i; ++j)
            BURN_CHECK(row[j].first != name, "[SqliteDatasetWriter] split '", split, "' row names column '",
                       name, "' twice");
    }
}

}  // namespace sqlite_writer_impl

namespace swi = sqlite_writer_impl;

bool SqliteDatasetWriter::available() {
    return true;
}

SqliteDatasetWriter::SqliteDatasetWriter(const fs::path& file, bool overwrite)
    : impl_(std::make_unique<Impl>()) {
    Impl& w = *impl_;
    w.file = file;
    w.tmp = fs::path(file.string() + ".tmp");
    w.overwrite = overwrite;
    std::error_code ec;
    BURN_CHECK_KIND(overwrite || !fs::exists(file, ec), io, "[SqliteDatasetWriter] '", file.string(),
                    "' exists; pass overwrite = true to replace it, or write to another path");
    fs::remove(w.tmp, ec);  // left by an interrupted run
    const int rc = sqlite3_open_v2(w.tmp.string().c_str(), &w.db,
                                   SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        const std::string why = w.db ? sqlite3_errmsg(w.db) : sqlite3_errstr(rc);
        BURN_THROW_KIND(io, "[SqliteDatasetWriter] cannot create '", w.tmp.string(), "': ", why,
                        " (does the folder exist and is it writable?)");
    }
    swi::exec(w, "BEGIN");
}

SqliteDatasetWriter::~SqliteDatasetWriter() = default;
SqliteDatasetWriter::SqliteDatasetWriter(SqliteDatasetWriter&&) noexcept = default;
SqliteDatasetWriter& SqliteDatasetWriter::operator=(SqliteDatasetWriter&&) noexcept = default;

std::size_t SqliteDatasetWriter::write(const std::string& split, const SqliteColumns& row) {
    swi::check_row(split, row);
    Impl& w = *impl_;
    std::lock_guard<std::mutex> lock(w.mutex);
    BURN_CHECK(
        !w.completed, "[SqliteDatasetWriter] '", w.file.string(),
        "' is completed: rows cannot be added after set_completed() (open a new writer with overwrite = "
        "true to write the file again)");
    auto& t = swi::table_for(w, split, row);
    const auto order = swi::row_order(t, split, row);
    sqlite3_reset(t.insert);
    sqlite3_clear_bindings(t.insert);
    swi::bind(w, t.insert, 1, SqliteValue(static_cast<int64_t>(t.rows + 1)));
    for (std::size_t c = 0; c < order.size(); ++c)
        swi::bind(w, t.insert, static_cast<int>(c + 2), row[order[c]].second);
    if (sqlite3_step(t.insert) != SQLITE_DONE)
        BURN_THROW_KIND(io, "[SqliteDatasetWriter] writing row ", t.rows + 1, " of split '", split, "' to '",
                        w.tmp.string(), "': ", sqlite3_errmsg(w.db));
    return t.rows++;
}

std::size_t SqliteDatasetWriter::len(const std::string& split) const {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    auto it = impl_->tables.find(split);
    return it == impl_->tables.end() ? 0 : it->second.rows;
}

void SqliteDatasetWriter::set_completed() {
    Impl& w = *impl_;
    std::lock_guard<std::mutex> lock(w.mutex);
    if (w.completed) return;
    swi::exec(w, "COMMIT");
    w.close();
    std::error_code ec;
    BURN_CHECK_KIND(w.overwrite || !fs::exists(w.file, ec), io, "[SqliteDatasetWriter] '", w.file.string(),
                    "' appeared while writing and overwrite is off; write again with overwrite = true to "
                    "replace it");
    fs::rename(w.tmp, w.file, ec);
    BURN_CHECK_KIND(!ec, io, "[SqliteDatasetWriter] cannot move '", w.tmp.string(), "' to '", w.file.string(),
                    "': ", ec.message());
    w.completed = true;
}

bool SqliteDatasetWriter::is_completed() const {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    return impl_->completed;
}

const fs::path& SqliteDatasetWriter::file() const {
    return impl_->file;
}

}  // namespace burn::data
