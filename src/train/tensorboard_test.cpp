// TensorBoardWriter against an event file made independently (tests/fixtures/train/scalars.tfevents:
// python3's protobuf and crc32c, scripts/gen_tensorboard_fixture.py): the same events, the same bytes.
#include "burn/train/tensorboard.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "fixture_root.hpp"
#include "platform/files.hpp"

namespace burn::train {
namespace tensorboard_test {

struct Scalar {
    double wall;
    int64_t step;
    std::string tag;
    float value;
};

const std::vector<Scalar>& scalars() {  // the generator's list
    static const std::vector<Scalar> s = {{1700000001.25, 0, "train/Loss", 2.5f},
                                          {1700000002.0, 1, "train/Loss", -0.125f},
                                          {1700000003.0, 7, "valid/Accuracy (%)", 97.25f},
                                          {1700000004.0, 300000, "epoch/train/Loss", 0.0f},
                                          {1700000005.0, 2, std::string(200, 'x'), 3.0e-8f}};
    return s;
}

std::string fixture_bytes() {
    return platform::read_file(burn::testing::fixture_root() / "train" / "scalars.tfevents");
}

TEST(TensorBoard, Crc32cCheckValue) {
    EXPECT_EQ(crc32c("123456789"), 0xE3069283u);  // the CRC-32C catalogue's check value
    EXPECT_EQ(crc32c(""), 0u);
}

TEST(TensorBoard, RecordsMatchProtobufsBytes) {
    std::string bytes = TensorBoardWriter::version_record(1700000000.5);
    for (const auto& s : scalars()) bytes += TensorBoardWriter::record(s.wall, s.step, s.tag, s.value);
    const std::string want = fixture_bytes();
    ASSERT_EQ(bytes.size(), want.size());
    EXPECT_TRUE(bytes == want) << "the encoded events differ from protobuf's";
}

TEST(TensorBoard, WriterMakesTheSameFile) {
    const auto dir =
        std::filesystem::temp_directory_path() / ("burn-tensorboard-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::path first;
    {
        TensorBoardWriter tb(dir / "run", "burn", 1700000000.5);
        first = tb.path();
        EXPECT_EQ(first.filename().string(), "events.out.tfevents.1700000000.burn");
        for (const auto& s : scalars()) tb.add_scalar(s.tag, s.value, s.step, s.wall);
        // buffered until flushed: only the version record so far
        EXPECT_EQ(platform::read_file(first).size(), TensorBoardWriter::version_record(0).size());
    }  // the destructor flushes
    EXPECT_TRUE(platform::read_file(first) == fixture_bytes());
    // A second writer in the same second gets a file of its own.
    TensorBoardWriter again(dir / "run", "burn", 1700000000.5);
    EXPECT_NE(again.path(), first);
    std::filesystem::remove_all(dir);
}

}  // namespace tensorboard_test
}  // namespace burn::train
