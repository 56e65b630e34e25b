// libFuzzer target: the zip central-directory index PytorchStore uses to view stored entries in place
// (store/zip_index.hpp): every entry's data range must lie inside the archive, and the CRC of that
// range is computed as the reader does.
#include <cstddef>
#include <cstdint>

#include "burn/core/error.hpp"
#include "store/zip_index.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    using namespace burn::store::detail;
    try {
        ZipIndex index(data, size);
        for (const auto& name : index.names()) {
            ZipEntryData e;
            if (!index.stored(name, e)) continue;
            if (e.offset > size || e.size > size - e.offset) __builtin_trap();  // a range outside the data
            zip_crc32(data + e.offset, static_cast<std::size_t>(e.size));
        }
        ZipEntryData e;
        index.stored("archive/data.pkl", e);
    } catch (const burn::Error&) {
    }
    return 0;
}
