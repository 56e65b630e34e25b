// PytorchStore reads the tensors of zip-format torch.save files in place (store/zip_index.hpp): the
// central directory parse (zip32 and zip64, built here byte by byte from the format's description),
// the CRC check of viewed entries, and malformed archives that must leave the index empty or fall
// back to libzip, never crash.
#include "store/zip_index.hpp"

#include <gtest/gtest.h>

#include "store/store_test_util.hpp"

namespace burn::store {
namespace {

void put(std::vector<uint8_t>& b, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) b.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

/// A one-entry stored archive "a/data/0" holding `payload`, its central directory in zip64 form
/// (sizes and offset saturated, the real values in the 0x0001 extra field, a zip64 end record).
std::vector<uint8_t> zip64_archive(const std::vector<uint8_t>& payload, uint32_t crc) {
    const std::string name = "a/data/0";
    std::vector<uint8_t> b;
    put(b, 0x04034b50, 4);  // local header
    put(b, 45, 2);
    put(b, 0, 2);
    put(b, 0, 2);  // stored
    put(b, 0, 4);
    put(b, crc, 4);
    put(b, payload.size(), 4);
    put(b, payload.size(), 4);
    put(b, name.size(), 2);
    put(b, 3, 2);  // 3 bytes of padding in the extra field, as torch.save aligns its data
    b.insert(b.end(), name.begin(), name.end());
    put(b, 0, 3);
    b.insert(b.end(), payload.begin(), payload.end());
    const uint64_t cd = b.size();
    put(b, 0x02014b50, 4);  // central directory header
    put(b, 45, 2);
    put(b, 45, 2);
    put(b, 0, 2);
    put(b, 0, 2);
    put(b, 0, 4);
    put(b, crc, 4);
    put(b, 0xFFFFFFFF, 4);
    put(b, 0xFFFFFFFF, 4);
    put(b, name.size(), 2);
    put(b, 28, 2);  // the zip64 extra field
    put(b, 0, 2);
    put(b, 0, 2);
    put(b, 0, 2);
    put(b, 0, 4);
    put(b, 0xFFFFFFFF, 4);
    b.insert(b.end(), name.begin(), name.end());
    put(b, 0x0001, 2);
    put(b, 24, 2);
    put(b, payload.size(), 8);
    put(b, payload.size(), 8);
    put(b, 0, 8);  // local header offset
    const uint64_t cd_size = b.size() - cd, z = b.size();
    put(b, 0x06064b50, 4);  // zip64 end of central directory
    put(b, 44, 8);
    put(b, 45, 2);
    put(b, 45, 2);
    put(b, 0, 4);
    put(b, 0, 4);
    put(b, 1, 8);
    put(b, 1, 8);
    put(b, cd_size, 8);
    put(b, cd, 8);
    put(b, 0x07064b50, 4);  // its locator
    put(b, 0, 4);
    put(b, z, 8);
    put(b, 1, 4);
    put(b, 0x06054b50, 4);  // end of central directory, saturated
    put(b, 0, 2);
    put(b, 0, 2);
    put(b, 0xFFFF, 2);
    put(b, 0xFFFF, 2);
    put(b, 0xFFFFFFFF, 4);
    put(b, 0xFFFFFFFF, 4);
    put(b, 0, 2);
    return b;
}

TEST(ZipIndex, Zip64DirectoryAndPaddedLocalHeader) {
    if (!PytorchStore::zip_supported()) GTEST_SKIP() << "built without libzip";
    const std::vector<uint8_t> payload = {1, 2, 3, 4, 5, 6, 7, 8};
    const uint32_t crc = detail::zip_crc32(payload.data(), payload.size());
    EXPECT_EQ(crc, 0x3fca88c5u);  // CRC-32 of 01..08 (zlib.crc32(bytes(range(1, 9))))
    auto b = zip64_archive(payload, crc);
    detail::ZipIndex idx(b.data(), b.size());
    ASSERT_EQ(idx.size(), 1u);
    detail::ZipEntryData d;
    ASSERT_TRUE(idx.stored("a/data/0", d));
    EXPECT_EQ(d.offset, 30u + 8u + 3u);
    EXPECT_EQ(d.size, payload.size());
    EXPECT_EQ(d.crc, crc);
    EXPECT_FALSE(idx.stored("a/data/1", d));
    // Every truncation and every single-byte change parses without reading out of bounds.
    for (std::size_t n = 0; n < b.size(); ++n) {
        detail::ZipIndex cut(b.data(), n);
        if (cut.stored("a/data/0", d)) {
            EXPECT_LE(d.offset + d.size, n);
        }
    }
    for (std::size_t i = 0; i < b.size(); ++i) {
        auto m = b;
        m[i] ^= 0xFF;
        detail::ZipIndex bad(m.data(), m.size());
        if (bad.stored("a/data/0", d)) {
            EXPECT_LE(d.offset + d.size, m.size());
        }
    }
}

TEST(ZipIndex, TorchSaveEntriesAreViewedInPlaceAndCrcChecked) {
    if (!PytorchStore::zip_supported()) GTEST_SKIP() << "built without libzip";
    auto bytes = testing::read_bytes(testing::fixture("mlp.pt"));
    detail::ZipIndex idx(bytes.data(), bytes.size());
    std::string data_entry;
    for (const auto& n : idx.names())
        if (n.find("/data/") != std::string::npos && n.find(".pkl") == std::string::npos) data_entry = n;
    ASSERT_FALSE(data_entry.empty()) << "no tensor entry in mlp.pt";
    detail::ZipEntryData d;
    ASSERT_TRUE(idx.stored(data_entry, d)) << data_entry << " is not a stored entry";
    EXPECT_EQ(detail::zip_crc32(bytes.data() + d.offset, d.size), d.crc);

    // A flipped bit in a tensor's bytes: the load fails naming the entry, and the model is untouched.
    auto damaged = bytes;
    damaged[d.offset + d.size / 2] ^= 0x10;
    auto store = PytorchStore::from_bytes(damaged);
    bool failed = false;
    for (const auto& e : store.entries()) {
        try {
            if (e.read) e.read();
        } catch (const Error& err) {
            failed = true;
            EXPECT_NE(std::string(err.what()).find("CRC mismatch"), std::string::npos) << err.what();
            EXPECT_NE(std::string(err.what()).find(data_entry), std::string::npos) << err.what();
        }
    }
    EXPECT_TRUE(failed) << "a damaged tensor entry was read without error";
}

}  // namespace
}  // namespace burn::store
