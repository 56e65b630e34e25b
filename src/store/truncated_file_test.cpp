// A file truncated by another process while a store reads it (issue 13: SIGBUS through the memory
// map). The default load reads with positioned reads, so a file that shrinks after the header was read
// gives a burn::Error and leaves the module as it was; mmap(true) is the opt-in for immutable files.
#include <fcntl.h>
#include <unistd.h>

#include "store/store_test_util.hpp"

namespace burn::store {
namespace {

using testing::expect_error;
using testing::TempFile;

struct Wide {
    Param<Tensor<2>> a;
    Param<Tensor<2>> b;
    BURN_MODULE(Wide, a, b)
};

Wide make(float v) {
    return Wide{Tensor<2>::full({256, 256}, v), Tensor<2>::full({256, 256}, v)};
}

void truncate_to(const std::filesystem::path& p, off_t size) {
    int fd = ::open(p.c_str(), O_WRONLY);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::ftruncate(fd, size), 0);
    ::close(fd);
}

template <class Store>
void check_truncation(const std::string& file_name) {
    TempFile file(file_name);
    Wide src = make(1.0f);
    Store out(file.path);
    src.save_into(out);
    const auto full = std::filesystem::file_size(file.path);

    Store in(file.path);
    ASSERT_EQ(in.keys().size(), 2u);                       // the header is read and the file is open
    truncate_to(file.path, static_cast<off_t>(full / 2));  // another process shrinks it
    Wide dst = make(5.0f);
    expect_error([&] { dst.load_from(in); }, "truncated or rewritten while being read");
    EXPECT_EQ(dst.a.val().into_data().to_vec<float>()[0], 5.0f);
    EXPECT_EQ(dst.b.val().into_data().to_vec<float>().back(), 5.0f);

    // A fresh store over the truncated file refuses it from its header's ranges.
    Store again(file.path);
    EXPECT_THROW(dst.load_from(again), Error);
    // mmap(true) reads the same intact file as the default.
    Store rewrite(file.path);
    src.save_into(rewrite);
    Store mapped = Store(file.path).mmap(true);
    EXPECT_TRUE(dst.load_from(mapped).is_success());
    EXPECT_EQ(dst.a.val().into_data().to_vec<float>()[0], 1.0f);
}

TEST(TruncatedFile, BurnpackDefaultLoadGivesAnErrorNotSigbus) {
    check_truncation<BurnpackStore>("trunc.bpk");
}

TEST(TruncatedFile, SafetensorsDefaultLoadGivesAnErrorNotSigbus) {
    check_truncation<SafetensorsStore>("trunc.safetensors");
}

TEST(TruncatedFile, PytorchDefaultLoadReadsACopy) {
    // The whole file is read into memory when the store reads it: truncating afterwards changes
    // nothing for that store.
    TempFile file("trunc.pt");
    auto bytes = testing::read_bytes(testing::fixture("mlp_legacy.pt"));
    testing::write_bytes(file.path, bytes);
    PytorchStore in(file.path);
    auto entries = in.entries();
    truncate_to(file.path, 64);
    for (const auto& e : entries) EXPECT_NO_THROW(e.read()) << e.name;
}

}  // namespace
}  // namespace burn::store
