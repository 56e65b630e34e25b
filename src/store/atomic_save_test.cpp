// Atomic saves clean up after a killed save (issue 13: a kill during a save left a full-size
// `.NAME.tmp-PID-...` behind): the next save of the same target removes temporaries whose process is
// gone, and leaves those of live processes (a save in progress) alone.
#include <sys/wait.h>
#include <unistd.h>

#include "store/store_test_util.hpp"

namespace burn::store {
namespace {

using testing::TempFile;

/// The id of a process that has exited (forked, exited, reaped).
pid_t dead_pid() {
    pid_t child = ::fork();
    if (child == 0) ::_exit(0);
    int status = 0;
    ::waitpid(child, &status, 0);
    return child;
}

struct Small {
    Param<Tensor<1>> w;
    BURN_MODULE(Small, w)
};

std::filesystem::path temp_of(const std::filesystem::path& target, long long pid) {
    // Built with += : GCC 12 gives a false -Wrestrict for "literal" + std::string.
    std::string name(1, '.');
    name += target.filename().string();
    name += ".tmp-";
    name += std::to_string(pid);
    name += "-0-42";
    return target.parent_path() / name;
}

template <class Store>
void check_cleanup(const std::string& name) {
    TempFile file(name);
    const auto stale = temp_of(file.path, dead_pid());
    const auto live = temp_of(file.path, ::getppid());  // the parent is alive
    std::string other_name(1, '.');
    other_name += file.path.filename().string();
    other_name += "x.tmp-1-0-0";
    const auto other = file.path.parent_path() / other_name;
    for (const auto& p : {stale, live, other}) testing::write_bytes(p, std::vector<uint8_t>(4096, 7));
    Small m{Tensor<1>::ones({3})};
    Store out(file.path);
    m.save_into(out);
    EXPECT_FALSE(std::filesystem::exists(stale)) << "a dead process's temporary is removed";
    EXPECT_TRUE(std::filesystem::exists(live)) << "a live process's temporary is left alone";
    EXPECT_TRUE(std::filesystem::exists(other)) << "another target's file is not touched";
    Small back{Tensor<1>::zeros({3})};
    Store in(file.path);
    EXPECT_TRUE(back.load_from(in).is_success());
    for (const auto& p : {live, other}) std::filesystem::remove(p);
}

TEST(AtomicSave, BurnpackRemovesStaleTemporariesOfDeadProcesses) {
    check_cleanup<BurnpackStore>("atomic.bpk");
}

TEST(AtomicSave, SafetensorsRemovesStaleTemporariesOfDeadProcesses) {
    check_cleanup<SafetensorsStore>("atomic.safetensors");
}

}  // namespace
}  // namespace burn::store
