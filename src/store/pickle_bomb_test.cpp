// Pickles whose cost is out of proportion to their size (issue 13): a 390-byte "billion laughs" of
// shared lists, and a legacy file referencing one 300k-item list 20,000 times (132 s in keys()). The
// flattener scans each container once and walks only what leads to tensors, within a bounded number
// of items; the unpickler bounds the items it copies. The properties checked do not depend on time.
#include "store/pickle.hpp"
#include "store/pytorch_reader.hpp"
#include "store/store_test_util.hpp"

namespace burn::store {
namespace {

using testing::expect_error;

/// A legacy torch.save stream around one object pickle (protocol 2), built opcode by opcode.
struct Legacy {
    static constexpr uint8_t kHead[] = {0x80, 0x02, 0x8a, 0x0a, 0x6c, 0xfc, 0x9c, 0x46, 0xf9,
                                        0x20, 0x6a, 0xa8, 0x50, 0x19, '.',  0x80, 0x02, 'M',
                                        0xe9, 0x03, '.',  0x80, 0x02, '}',  '.',  0x80, 0x02};
    std::vector<uint8_t> b{std::begin(kHead), std::end(kHead)};
    Legacy& op(std::initializer_list<uint8_t> ops) {
        b.insert(b.end(), ops);
        return *this;
    }
    Legacy& str(const std::string& s) {
        op({'X'});
        uint32_t n = static_cast<uint32_t>(s.size());
        for (int k = 0; k < 4; ++k) b.push_back(static_cast<uint8_t>(n >> (8 * k)));
        b.insert(b.end(), s.begin(), s.end());
        return *this;
    }
    Legacy& global(const std::string& module, const std::string& name) {
        op({'c'});
        b.insert(b.end(), module.begin(), module.end());
        b.push_back('\n');
        b.insert(b.end(), name.begin(), name.end());
        b.push_back('\n');
        return *this;
    }
    Legacy& memo_put(uint32_t i) {
        return op({'r', uint8_t(i), uint8_t(i >> 8), uint8_t(i >> 16), uint8_t(i >> 24)});
    }
    Legacy& memo_get(uint32_t i) {
        return op({'j', uint8_t(i), uint8_t(i >> 8), uint8_t(i >> 16), uint8_t(i >> 24)});
    }
    /// A one-element f32 tensor on storage key "0".
    Legacy& tensor() {
        global("torch._utils", "_rebuild_tensor_v2").op({'(', '('}).str("storage");
        global("torch", "FloatStorage").str("0").str("cpu").op({'K', 1, 't', 'Q', 'K', 0, '(', 'K', 1, 't'});
        return op({'(', 'K', 1, 't', 't', 'R'});
    }
    std::vector<uint8_t> finish() {
        op({'.', 0x80, 0x02, ']', '.'});  // an empty storage key list: keys() reads no data
        return b;
    }
};

std::vector<std::string> keys_of(const std::vector<uint8_t>& bytes) {
    return PytorchStore::from_bytes(bytes).keys();
}

/// L0 = [leaf, 1, 1, ..., 1] (10 items), L(k) = [L(k-1)] * 10, the object is L(9): 10^9 paths.
std::vector<uint8_t> billion_laughs(bool tensor_leaf) {
    Legacy p;
    p.op({']', '('});
    if (tensor_leaf)
        p.tensor();
    else
        p.op({'K', 1});
    for (int i = 0; i < 9; ++i) p.op({'K', 1});
    p.op({'e'}).memo_put(0);
    for (uint32_t k = 1; k <= 9; ++k) {
        p.op({'0', ']', '('});  // pop the previous list, build the next
        for (int i = 0; i < 10; ++i) p.memo_get(k - 1);
        p.op({'e'}).memo_put(k);
    }
    return p.finish();
}

TEST(PickleBombs, BillionLaughsWithoutTensorsIsHandled) {
    auto bytes = billion_laughs(false);
    EXPECT_LT(bytes.size(), 600u);
    EXPECT_TRUE(keys_of(bytes).empty());  // each shared list is scanned once, none leads to a tensor
}

TEST(PickleBombs, BillionLaughsOfTensorsStopsAtTheTensorLimit) {
    expect_error([&] { keys_of(billion_laughs(true)); }, "more than 100000 tensors (Limits::max_tensors)");
}

/// One list of n ints (plus a tensor first when asked), referenced from a dict under `refs` keys.
std::vector<uint8_t> shared_list(int n, int refs, bool tensor) {
    Legacy p;
    p.op({']', '('});
    if (tensor) p.tensor();
    for (int i = 0; i < n; ++i) p.op({'K', uint8_t(i)});
    p.op({'e'}).memo_put(0).op({'0', '}', '('});
    for (int r = 0; r < refs; ++r) {
        std::string key(1, 'k');
        key += std::to_string(r);
        p.str(key).memo_get(0);
    }
    p.op({'u'});
    return p.finish();
}

TEST(PickleBombs, OneHugeListReferencedManyTimesIsWalkedOnce) {
    auto plain = shared_list(300000, 20000, false);
    EXPECT_LT(plain.size(), 1u << 20);
    EXPECT_TRUE(keys_of(plain).empty());
    auto with_tensor = shared_list(300000, 20000, true);
    auto keys = keys_of(with_tensor);
    ASSERT_EQ(keys.size(), 20000u);  // k0.0 ... k19999.0: only the tensor is walked per reference
    EXPECT_EQ(keys.front(), "k0.0");
}

TEST(PickleBombs, CopiesOfASharedListAreBounded) {
    // torch.Size(L) copies L's items; repeating it on one memoised 300k list copies without bound.
    Legacy p;
    p.op({']', '('});
    for (int i = 0; i < 300000; ++i) p.op({'K', 1});
    p.op({'e'}).memo_put(0).op({']', '('});
    for (int r = 0; r < 20000; ++r) p.global("torch", "Size").op({'(', 'j', 0, 0, 0, 0, 't', 'R'});
    p.op({'e'});
    expect_error([&] { keys_of(p.finish()); }, "container items copied");
}

}  // namespace
}  // namespace burn::store
