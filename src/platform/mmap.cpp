#include "platform/mmap.hpp"

#include <cerrno>
#include <cstring>

#include "burn/core/error.hpp"
#include "platform/files.hpp"

#if defined(__unix__) || defined(__APPLE__)
#define BURN_POSIX_MMAP 1
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace burn::platform {

std::shared_ptr<const MappedFile> MappedFile::open(const std::filesystem::path& path, std::string_view op) {
    std::shared_ptr<MappedFile> m(new MappedFile());
#ifdef BURN_POSIX_MMAP
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        struct stat st {};
        if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
            m->size_ = static_cast<std::size_t>(st.st_size);
            if (m->size_ == 0) {
                ::close(fd);
                return m;
            }
            void* p = ::mmap(nullptr, m->size_, PROT_READ, MAP_PRIVATE, fd, 0);
            ::close(fd);
            if (p != MAP_FAILED) {
                m->data_ = static_cast<const uint8_t*>(p);
                m->mapped_ = true;
                return m;
            }
        } else {
            ::close(fd);
        }
    }
#endif
    // Not mappable (a directory, a pipe, a missing file, no mmap): read_file reports why.
    m->fallback_ = read_file(path, op);
    m->data_ = reinterpret_cast<const uint8_t*>(m->fallback_.data());
    m->size_ = m->fallback_.size();
    return m;
}

MappedFile::~MappedFile() {
#ifdef BURN_POSIX_MMAP
    if (mapped_) ::munmap(const_cast<uint8_t*>(data_), size_);
#endif
}

}  // namespace burn::platform
