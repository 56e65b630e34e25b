#include "platform/files.hpp"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <system_error>

#include "burn/core/error.hpp"
#include "platform/process.hpp"

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

long long current_pid() {
#ifdef BURN_POSIX_FILES
    return static_cast<long long>(::getpid());
#else
    return static_cast<long long>(::_getpid());
#endif
}

std::string temporary_prefix(const fs::path& path) {
    std::string prefix(1, '.');
    prefix += path.filename().string();
    prefix += ".tmp-";
    return prefix;
}

/// A name no other writer uses: the process id, a per-process counter and the clock.
fs::path temporary_beside(const fs::path& path) {
    static std::atomic<unsigned long long> counter{0};
    auto pid = current_pid();
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

/// Flushes the directory entry of a rename (POSIX: fsync on the directory); best effort.
void sync_directory(const fs::path& dir) {
#ifdef BURN_POSIX_FILES
    int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    (void)::fsync(fd);
    ::close(fd);
#else
    (void)dir;
#endif
}

}  // namespace

std::size_t remove_stale_temporaries(const fs::path& path) {
    const std::string prefix = temporary_prefix(path);
    const fs::path dir = path.parent_path().empty() ? fs::path(".") : path.parent_path();
    const long long self = current_pid();
    std::size_t removed = 0;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
        // PID digits, then '-' (the format of temporary_beside).
        std::size_t i = prefix.size();
        long long pid = 0;
        while (i < name.size() && name[i] >= '0' && name[i] <= '9' && i - prefix.size() < 18)
            pid = pid * 10 + (name[i++] - '0');
        if (i == prefix.size() || i >= name.size() || name[i] != '-') continue;
        if (pid == self || process_alive(pid)) continue;
        std::error_code rm;
        if (fs::is_regular_file(it->symlink_status(rm)) && fs::remove(it->path(), rm)) ++removed;
    }
    return removed;
}

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

std::shared_ptr<const FileReader> FileReader::open(const fs::path& path, std::string_view op) {
    std::shared_ptr<FileReader> f(new FileReader());
    f->path_ = path;
    f->op_ = std::string(op);
#ifdef BURN_POSIX_FILES
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        struct stat st {};
        if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
            f->fd_ = fd;
            f->size_ = static_cast<uint64_t>(st.st_size);
            return f;
        }
        ::close(fd);
    }
#endif
    // Not a regular file (a directory, a pipe, missing) or no pread: read_file reports why or reads it.
    f->fallback_ = read_file(path, op);
    f->size_ = f->fallback_.size();
    return f;
}

FileReader::~FileReader() {
#ifdef BURN_POSIX_FILES
    if (fd_ >= 0) ::close(fd_);
#endif
}

void FileReader::read_at(uint64_t offset, void* dst, std::size_t n) const {
    auto shrank = [&](uint64_t got) {
        read_failed(op_, path_,
                    "the file ends at byte " + std::to_string(offset + got) + ", before byte " +
                        std::to_string(offset + n) + " that it had when it was opened (" +
                        std::to_string(size_) + " bytes): it was truncated or rewritten while being read");
    };
    if (fd_ < 0) {
        if (offset > fallback_.size() || n > fallback_.size() - offset) shrank(0);
        if (n) std::memcpy(dst, fallback_.data() + offset, n);
        return;
    }
#ifdef BURN_POSIX_FILES
    auto* p = static_cast<char*>(dst);
    uint64_t got = 0;
    while (got < n) {
        ssize_t r = ::pread(fd_, p + got, n - got, static_cast<off_t>(offset + got));
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) read_failed(op_, path_, std::strerror(errno));
        if (r == 0) shrank(got);
        got += static_cast<uint64_t>(r);
    }
#endif
}

void append_file(const fs::path& path, std::string_view bytes, std::string_view op) {
    std::ofstream out(path, std::ios::binary | std::ios::app);
    if (!out) write_failed(op, path, "cannot open it for appending");
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) write_failed(op, path, "write error");
}

void write_file_atomic(const fs::path& path, std::string_view bytes, std::string_view op) {
    if (path.empty() || !path.has_filename()) write_failed(op, path, "not a file name");
    std::error_code ec;
    if (fs::is_directory(path, ec)) write_failed(op, path, "it is a directory");
    fs::path parent = path.parent_path();
    if (!parent.empty() && !fs::is_directory(parent, ec)) {
        write_failed(op, path, "the directory " + quoted(parent) + " does not exist");
    }

    remove_stale_temporaries(path);
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
        if (ec)
            error = ec.message();
        else
            sync_directory(parent);  // the rename itself is durable only once the directory is
    }
    if (!error.empty()) {
        fs::remove(tmp, ec);
        write_failed(op, path, error);
    }
}

}  // namespace burn::platform
