// SqliteDatasetWriter in a build without SQLite (sqlite_writer.cpp is compiled instead when CMake finds it).
#include "burn/data/sqlite_writer.hpp"

namespace burn::data {

struct SqliteDatasetWriter::Impl {
    std::filesystem::path file;
};

bool SqliteDatasetWriter::available() {
    return false;
}

SqliteDatasetWriter::SqliteDatasetWriter(const std::filesystem::path& file, bool) {
    BURN_THROW(
        "[SqliteDatasetWriter] cannot write '", file.string(),
        "': this build of burn has no SQLite. Install it (apt-get install libsqlite3-dev) and configure "
        "again (BURN_SQLITE=AUTO or ON)");
}

SqliteDatasetWriter::~SqliteDatasetWriter() = default;
SqliteDatasetWriter::SqliteDatasetWriter(SqliteDatasetWriter&&) noexcept = default;
SqliteDatasetWriter& SqliteDatasetWriter::operator=(SqliteDatasetWriter&&) noexcept = default;

std::size_t SqliteDatasetWriter::write(const std::string&, const SqliteColumns&) {
    return 0;
}

std::size_t SqliteDatasetWriter::len(const std::string&) const {
    return 0;
}

void SqliteDatasetWriter::set_completed() {}

bool SqliteDatasetWriter::is_completed() const {
    return false;
}

const std::filesystem::path& SqliteDatasetWriter::file() const {
    return impl_->file;
}

}  // namespace burn::data
