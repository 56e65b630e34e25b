#include "platform/files.hpp"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <system_error>

#include "burn/core/error.hpp"

#if defined(__unix__) || defined(__APPLE__) || defined(__EMSCRIPTEN__)
#define BURN_POSIX_FILES 1
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#else
#include <process.h>  // _getpid
#endif

namespace burn::platform {

namespace fs = std::filesystem;

namespace {

// (Strings are built with += : GCC 12 gives a false -Wrestrict for "literal" + std::string.)
std::string quoted(const fs::path& path) {
    std::string s(1, '\'');
    s += path.string();
    s += '\'';
    return s;
}

[[noreturn]] void read_failed(std::string_view op, const fs::path& path, const std::string& reason) {
    BURN_THROW_KIND(io, "[", op, "] cannot read ", quoted(path), ": ", reason);
}

[[noreturn]] void write_failed(std::string_view op, const fs::path& path, const std::string& reason) {
    BURN_THROW_KIND(io, "[", op, "] cannot write ", quoted(path), ": ", reason);
}

/// A name no other writer uses: the process id, a per-process counter and the clock.
fs::path temporary_beside(const fs::path& path) {
    static std::atomic<unsigned long long> counter{0};
#ifdef BURN_POSIX_FILES
    auto pid = static_cast<long long>(::getpid());
#else
    auto pid = static_cast<long long>(::_getpid());
#endif
    auto tick = static_cast<unsigned long long>(std::chrono::steady_clock::now().time_since_epoch().count());
    std::string name(1, '.');
    name += path.filename().string();
    name += ".tmp-";
    name += std::to_string(pid);
    name += '-';
    name += std::to_string(counter.fetch_add(1));
    name += '-';
    name += std::to_string(tick % 1000000);
    return path.parent_path() / name;
}

}  // namespace

std::string read_file(const fs::path& path, std::string_view op) {
    std::error_code ec;
    auto status = fs::status(path, ec);
    if (ec || !fs::exists(status)) {
        read_failed(op, path,
                    ec && ec != std::errc::no_such_file_or_directory ? ec.message() : "no such file");
    }
    if (fs::is_directory(status)) read_failed(op, path, "it is a directory");

    std::ifstream in(path, std::ios::binary);
    if (!in) read_failed(op, path, std::strerror(errno));
    std::string bytes;
    auto size = fs::file_size(path, ec);
    if (!ec) bytes.reserve(static_cast<std::size_t>(size));
    char buffer[1 << 16];
    while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
        bytes.append(buffer, static_cast<std::size_t>(in.gcount()));
    }
    if (in.bad()) read_failed(op, path, "read error");
    return bytes;
}

void write_file_atomic(const fs::path& path, std::string_view bytes, std::string_view op) {
    if (path.empty() || !path.has_filename()) write_failed(op, path, "not a file name");
    std::error_code ec;
    if (fs::is_directory(path, ec)) write_failed(op, path, "it is a directory");
    fs::path parent = path.parent_path();
    if (!parent.empty() && !fs::is_directory(parent, ec)) {
        write_failed(op, path, "the directory " + quoted(parent) + " does not exist");
    }

    fs::path tmp = temporary_beside(path);
#ifdef BURN_POSIX_FILES
    int fd = -1;
    for (int attempt = 0; attempt < 8 && fd < 0; ++attempt) {
        fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_TRUNC, 0666);
        if (fd < 0 && errno == EEXIST)
            tmp = temporary_beside(path);
        else if (fd < 0)
            break;
    }
    if (fd < 0)
        write_failed(op, path, std::string("cannot create a temporary file: ") + std::strerror(errno));
    std::string error;
    const char* p = bytes.data();
    std::size_t left = bytes.size();
    while (left > 0 && error.empty()) {
        ssize_t n = ::write(fd, p, left);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            error = std::strerror(errno);
            break;
        }
        p += n;
        left -= static_cast<std::size_t>(n);
    }
    // Flush to disk before the rename, so a crash cannot leave the new name pointing at empty data.
    if (error.empty() && ::fsync(fd) != 0) error = std::strerror(errno);
    if (::close(fd) != 0 && error.empty()) error = std::strerror(errno);
#else
    std::string error;
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) write_failed(op, path, "cannot create a temporary file");
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        out.flush();
        if (!out) error = "write error";
    }
#endif
    if (error.empty()) {
        fs::rename(tmp, path, ec);  // replaces an existing file atomically (MoveFileEx on Windows)
        if (ec) error = ec.message();
    }
    if (!error.empty()) {
        fs::remove(tmp, ec);
        write_failed(op, path, error);
    }
}

}  // namespace burn::platform
