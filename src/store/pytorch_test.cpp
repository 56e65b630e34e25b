// PytorchStore: torch.save files written by Debian's python3-torch (zip and legacy formats, nested
// checkpoints, every dtype, views sharing a storage), hostile pickles (os.system, eval, object
// construction) refused without running anything, and random mutations of real files.
#include "store/pickle.hpp"
#include "store/pytorch_reader.hpp"
#include "store/store_test_util.hpp"

namespace burn::store {
namespace {

using testing::expect_error;
using testing::fixture;

void expect_same_tensors(std::map<std::string, TensorAny> a, std::map<std::string, TensorAny> b) {
    ASSERT_EQ(a.size(), b.size());
    for (auto& [k, t] : b) {
        ASSERT_TRUE(a.count(k)) << k;
        EXPECT_EQ(a[k].dtype(), t.dtype()) << k;
        EXPECT_EQ(a[k].shape(), t.shape()) << k;
        EXPECT_EQ(testing::bytes_of(a[k]), testing::bytes_of(t)) << k;
    }
}

class PytorchFormats : public ::testing::TestWithParam<const char*> {};

TEST_P(PytorchFormats, EveryDtypeMatchesTheSafetensorsCopy) {
    if (std::string(GetParam()).find("legacy") == std::string::npos && !PytorchStore::zip_supported())
        GTEST_SKIP() << "built without libzip";
    auto expected = SafetensorsStore(fixture("dtypes.safetensors")).load_tensors();
    auto got = PytorchStore(fixture(GetParam())).load_tensors();
    expect_same_tensors(got, expected);
}

TEST_P(PytorchFormats, ViewsOfOneStorageAreGatheredByStride) {
    std::string views = std::string(GetParam()) == "dtypes.pt" ? "views.pt" : "views_legacy.pt";
    if (views == "views.pt" && !PytorchStore::zip_supported()) GTEST_SKIP() << "built without libzip";
    auto expected = SafetensorsStore(fixture("views.safetensors")).load_tensors();
    auto got = PytorchStore(fixture(views)).load_tensors();
    expect_same_tensors(got, expected);
    EXPECT_EQ(got["transposed"].shape(), (Dims{6, 4}));
}

INSTANTIATE_TEST_SUITE_P(Store, PytorchFormats, ::testing::Values("dtypes.pt", "dtypes_legacy.pt"));

TEST(PytorchStore, NestedCheckpointsAndTopLevelKey) {
    for (const char* f : {"mlp_nested.pt", "mlp_nested_legacy.pt"}) {
        if (std::string(f) == "mlp_nested.pt" && !PytorchStore::zip_supported()) continue;
        auto flat = PytorchStore(fixture(f)).keys();
        EXPECT_NE(std::find(flat.begin(), flat.end(), "state_dict.fc1.weight"), flat.end()) << f;
        auto sd = PytorchStore(fixture(f)).with_top_level_key("state_dict").load_tensors();
        auto expected = SafetensorsStore(fixture("mlp.safetensors")).load_tensors();
        expect_same_tensors(sd, expected);
        expect_error([&] { PytorchStore(fixture(f)).with_top_level_key("model").keys(); },
                     "no key 'model'; the keys there are 'epoch', 'state_dict', 'best_loss', 'note'");
        expect_error([&] { PytorchStore(fixture(f)).with_top_level_key("epoch").keys(); },
                     "no dictionary of tensors");
    }
}

TEST(PytorchStore, HostilePicklesAreRefusedAndNothingRuns) {
    std::filesystem::remove("/tmp/burn-pickle-pwned");
    expect_error([] { PytorchStore(fixture("evil_legacy.pt")).keys(); },
                 "refusing the global 'posix.system'");
    if (PytorchStore::zip_supported())
        expect_error([] { PytorchStore(fixture("evil.pt")).keys(); }, "refusing the global 'posix.system'");
    expect_error([] { PytorchStore(fixture("evil_eval.pt")).keys(); }, "refusing the global 'builtins.eval'");
    EXPECT_FALSE(std::filesystem::exists("/tmp/burn-pickle-pwned"));

    // Object construction (NEWOBJ) and an unknown opcode.
    std::vector<uint8_t> newobj = {0x80, 0x02, 'c', 'c', 'o',  'l', 'l',  'e', 'c',  't',
                                   'i',  'o',  'n', 's', '\n', 'O', 'r',  'd', 'e',  'r',
                                   'e',  'd',  'D', 'i', 'c',  't', '\n', ')', 0x81, '.'};
    expect_error([&] { pickle::unpickle(newobj.data(), newobj.size(), Limits()); }, "refusing to construct");
    std::vector<uint8_t> text_int = {0x80, 0x02, 'I', '1', '\n', '.'};
    expect_error([&] { pickle::unpickle(text_int.data(), text_int.size(), Limits()); },
                 "unsupported pickle opcode");
    // A whole pickled module is refused with advice.
    std::vector<uint8_t> module = {0x80, 0x02, 'X', 6, 0, 0, 0, 'm', 'o', 'd', 'u', 'l', 'e', 0x85, 'Q', '.'};
    expect_error([&] { pickle::unpickle(module.data(), module.size(), Limits()); }, "state_dict()");
}

TEST(PytorchStore, NotAPytorchFile) {
    expect_error([] { PytorchStore(fixture("mlp.safetensors")).keys(); }, "not a torch.save file");
    expect_error([] { PytorchStore::from_bytes({'P', 'K', 5, 6, 0, 0, 0, 0}).keys(); }, "[PytorchStore]");
    expect_error([] { PytorchStore::from_bytes({}).keys(); }, "not a torch.save file");
}

TEST(PytorchStore, PickleCyclesAndDeepNestingAreBounded) {
    // d = {}; d['self'] = d  (memoized and set into itself)
    std::vector<uint8_t> cyc = {0x80, 0x02, '}', 'q', 0,   'X', 4, 0,   0,
                                0,    's',  'e', 'l', 'f', 'h', 0, 's', '.'};
    auto doc = pickle::unpickle(cyc.data(), cyc.size(), Limits());
    ASSERT_EQ(doc.root->kind, pickle::Kind::dict);
    EXPECT_EQ(doc.root->items[1], doc.root);
    detail::ByteView view{cyc.data(), cyc.size(), nullptr};
    // Not a legacy file (no magic), so the reader stops before flattening; flattening is tested through
    // a deep list instead.
    expect_error([&] { detail::read_pytorch(view, "", Limits()); }, "magic");
    // A legacy file whose object is a list nested 20000 deep: unpickling is iterative, flattening stops
    // at Limits::max_depth.
    std::vector<uint8_t> deep = {0x80, 0x02, 0x8a, 0x0a, 0x6c, 0xfc, 0x9c, 0x46, 0xf9,
                                 0x20, 0x6a, 0xa8, 0x50, 0x19, '.',  0x80, 0x02, 'M',
                                 0xe9, 0x03, '.',  0x80, 0x02, '}',  '.',  0x80, 0x02};
    for (int i = 0; i < 20000; ++i) deep.push_back(']');
    for (int i = 0; i < 19999; ++i) deep.push_back('a');
    deep.insert(deep.end(), {'.', 0x80, 0x02, ']', '.'});
    detail::ByteView deep_view{deep.data(), deep.size(), nullptr};
    expect_error([&] { detail::read_pytorch(deep_view, "", Limits()); }, "nest deeper than 128");

    // Shared sub-lists: L0 = [], Lk = [Lk-1, Lk-1] reaches 2^60 paths; each list is scanned once and
    // none leads to a tensor, so nothing is walked (pickle_bomb_test.cpp has the cases with tensors).
    std::vector<uint8_t> dag(deep.begin(), deep.begin() + 27);
    dag.insert(dag.end(), {']', 'q', 0});
    for (uint8_t k = 1; k <= 60; ++k)
        dag.insert(dag.end(), {'(', 'h', uint8_t(k - 1), 'h', uint8_t(k - 1), 'l', 'q', k});
    dag.insert(dag.end(), {'.', 0x80, 0x02, ']', '.'});
    detail::ByteView dag_view{dag.data(), dag.size(), nullptr};
    EXPECT_TRUE(detail::read_pytorch(dag_view, "", Limits()).empty());
}

TEST(PytorchStore, FuzzedFilesNeverCrash) {
    std::mt19937 rng(99);
    int parsed = 0;
    std::vector<std::string> files = {"mlp_legacy.pt", "views_legacy.pt", "lstm_nested_legacy.pt"};
    if (PytorchStore::zip_supported()) files.insert(files.end(), {"mlp.pt", "views.pt"});
    for (const auto& f : files) {
        const auto good = testing::read_bytes(fixture(f));
        for (int i = 0; i < 250; ++i) {
            auto bytes = testing::mutate(good, rng);
            try {
                auto store = PytorchStore::from_bytes(bytes);
                for (const auto& e : store.entries())
                    if (e.read) e.read();
                ++parsed;
            } catch (const Error&) {
            }
        }
    }
    EXPECT_GT(parsed, 0);
}

struct OneParam {
    Param<Tensor<1>> w;
    BURN_MODULE(OneParam, w)
};

TEST(PytorchStore, IsReadOnly) {
    OneParam m{Tensor<1>::zeros({2})};
    PytorchStore s(fixture("mlp.pt"));
    expect_error([&] { m.save_into(s); }, "read-only");
}

}  // namespace
}  // namespace burn::store
