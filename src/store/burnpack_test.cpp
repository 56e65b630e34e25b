// BurnpackStore: bit-exact round trips for every dtype (module and record APIs), metadata and typed
// scalars, in-memory and embedded bytes, atomic writes, and hostile files (truncation, bad magic,
// absurd lengths, bad ranges, overlaps, misalignment, deep CBOR, random mutations).
#include <nlohmann/json.hpp>

#include "store/burnpack_format.hpp"
#include "store/format.hpp"
#include "store/store_test_util.hpp"

namespace burn::store {
namespace {

using testing::expect_error;
using testing::TempFile;

struct AllDtypes {
    Param<Tensor<2>> f32;
    Param<Tensor<1>> f64;
    Param<Tensor<3>> f16;
    Param<Tensor<1>> bf16;
    Buffer<Tensor<1, Int>> i64;
    Buffer<Tensor<2, Int>> i32;
    Buffer<Tensor<1, Int>> i16;
    Buffer<Tensor<1, Int>> i8;
    Buffer<Tensor<1, Int>> u8;
    Buffer<Tensor<1, Bool>> flags;
    Buffer<Tensor<2>> empty;
    BURN_MODULE(AllDtypes, f32, f64, f16, bf16, i64, i32, i16, i8, u8, flags, empty)
};

AllDtypes random_module(uint32_t seed) {
    std::mt19937 rng(seed);
    Device d;
    auto t = [&](DType dt, Dims shape) { return ops::from_data(testing::random_data(dt, shape, rng), d); };
    return AllDtypes{Tensor<2>(t(DType::f32, {3, 5})),    Tensor<1>(t(DType::f64, {7})),
                     Tensor<3>(t(DType::f16, {2, 3, 4})), Tensor<1>(t(DType::bf16, {9})),
                     Tensor<1, Int>(t(DType::i64, {4})),  Tensor<2, Int>(t(DType::i32, {2, 2})),
                     Tensor<1, Int>(t(DType::i16, {5})),  Tensor<1, Int>(t(DType::i8, {6})),
                     Tensor<1, Int>(t(DType::u8, {300})), Tensor<1, Bool>(t(DType::boolean, {11})),
                     Tensor<2>(t(DType::f32, {0, 4}))};
}

void expect_same_bytes(const AllDtypes& a, const AllDtypes& b) {
    auto sa = module::snapshots(a), sb = module::snapshots(b);
    ASSERT_EQ(sa.size(), sb.size());
    for (std::size_t i = 0; i < sa.size(); ++i) {
        EXPECT_EQ(sa[i].tensor.dtype(), sb[i].tensor.dtype()) << sa[i].path;
        EXPECT_EQ(sa[i].tensor.shape(), sb[i].tensor.shape()) << sa[i].path;
        EXPECT_EQ(testing::bytes_of(sa[i].tensor), testing::bytes_of(sb[i].tensor)) << sa[i].path;
    }
}

TEST(BurnpackStore, RoundTripEveryDtypeBitExact) {
    TempFile file("all.bpk");
    AllDtypes saved = random_module(1);
    BurnpackStore out(file.path);
    saved.save_into(out);

    AllDtypes loaded = random_module(2);
    BurnpackStore in(file.path);
    ApplyResult r = loaded.load_from(in);
    EXPECT_TRUE(r.is_success()) << r;
    EXPECT_EQ(r.applied.size(), 11u);
    EXPECT_TRUE(r.unused.empty() && r.missing.empty() && r.skipped.empty());
    expect_same_bytes(saved, loaded);
    // Parameters stay parameters; the loaded values are distinct tensors from the saved ones.
    EXPECT_FALSE(saved.f32.val().handle().same(loaded.f32.val().handle()));
}

TEST(BurnpackStore, LayoutAlignsTensorsAndRecordsParamIds) {
    AllDtypes m = random_module(3);
    auto mem = BurnpackStore::in_memory();
    m.save_into(mem);
    std::vector<uint8_t> bytes = mem.bytes();
    ASSERT_GE(bytes.size(), 10u);
    EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + 4), "NRUB");  // 0x4255524E little-endian
    EXPECT_EQ(bytes[4] | (bytes[5] << 8), 1);
    auto contents = detail::parse_burnpack(bytes.data(), bytes.size(), Limits());
    ASSERT_EQ(contents.tensors.size(), 11u);
    for (const auto& t : contents.tensors) EXPECT_EQ(t.start % 256, 0u) << t.name;
    auto infos = mem.tensors();
    EXPECT_EQ(infos.front().name, "f32");  // file order is module order
    ASSERT_TRUE(infos.front().param_id.has_value());
    EXPECT_EQ(*infos.front().param_id, m.f32.id().value());
}

TEST(BurnpackStore, FromBytesAndStaticMemory) {
    AllDtypes m = random_module(4);
    auto mem = BurnpackStore::in_memory();
    m.save_into(mem);
    const std::vector<uint8_t> bytes = mem.bytes();

    AllDtypes a = random_module(5), b = random_module(6);
    auto owned = BurnpackStore::from_bytes(bytes);
    EXPECT_TRUE(a.load_from(owned).is_success());
    expect_same_bytes(m, a);
    auto embedded = BurnpackStore::from_static(bytes.data(), bytes.size());
    EXPECT_TRUE(b.load_from(embedded).is_success());
    expect_same_bytes(m, b);
    expect_error([&] { m.save_into(owned); }, "cannot save");
}

TEST(BurnpackStore, MetadataAndTypedScalars) {
    TempFile file("meta.bpk");
    BurnpackStore out(file.path);
    out.metadata("model", "mlp").metadata("epoch", "3");
    out.scalar("step", int64_t{-42})
        .scalar("count", uint64_t{1} << 63)
        .scalar("lr", 1e-3)
        .scalar("done", true);
    random_module(7).save_into(out);

    BurnpackStore in(file.path);
    auto md = in.read_metadata();
    EXPECT_EQ(md.at("model"), "mlp");
    EXPECT_EQ(md.at("epoch"), "3");
    auto sc = in.read_scalars();
    EXPECT_EQ(sc.at("step"), Scalar(int64_t{-42}));
    EXPECT_EQ(sc.at("step").kind(), Scalar::Kind::i64);
    EXPECT_EQ(sc.at("count").as_u64(), uint64_t{1} << 63);
    EXPECT_EQ(sc.at("count").kind(), Scalar::Kind::u64);
    EXPECT_EQ(sc.at("lr").as_f64(), 1e-3);
    EXPECT_TRUE(sc.at("done").as_bool());
    expect_error([&] { sc.at("lr").as_i64(); }, "[Scalar]");
    expect_error([&] { sc.at("count").as_i64(); }, "does not fit i64");
}

TEST(BurnpackStore, RecordsForOptimizerState) {
    std::mt19937 rng(8);
    Record rec;
    rec.tensors["state.17.moment_1"] =
        ops::from_data(testing::random_data(DType::f32, {4, 3}, rng), Device());
    rec.tensors["state.17.moment_2"] =
        ops::from_data(testing::random_data(DType::bf16, {4, 3}, rng), Device());
    rec.tensors["state.17.step"] = ops::from_data(testing::random_data(DType::i64, {1}, rng), Device());
    rec.scalars["scheduler.step"] = int64_t{1000};
    rec.scalars["scheduler.lr"] = 0.5;
    rec.metadata["optimizer"] = "adam";

    auto mem = BurnpackStore::in_memory();
    mem.save_record(rec);
    auto in = BurnpackStore::from_bytes(mem.bytes());
    Record back = in.load_record();
    ASSERT_EQ(back.tensors.size(), 3u);
    for (const auto& [k, t] : rec.tensors) {
        ASSERT_TRUE(back.tensors.count(k)) << k;
        EXPECT_EQ(back.tensors[k].dtype(), t.dtype());
        EXPECT_EQ(testing::bytes_of(back.tensors[k]), testing::bytes_of(t)) << k;
    }
    EXPECT_EQ(back.scalars, rec.scalars);
    EXPECT_EQ(back.metadata, rec.metadata);
}

TEST(BurnpackStore, FailedSaveLeavesTheOldFileIntact) {
    TempFile file("atomic.bpk");
    AllDtypes first = random_module(9);
    BurnpackStore out(file.path);
    first.save_into(out);
    const auto before = testing::read_bytes(file.path);

    // A tensor that fails while the file is being produced (a device error, say).
    struct Throwing : Adapter {
        const char* name() const override { return "throwing"; }
        std::vector<TensorEntry> adapt_save(std::vector<TensorEntry> e) const override {
            e.back().read = []() -> TensorData { BURN_THROW("[test] the device went away"); };
            return e;
        }
    };
    BurnpackStore failing(file.path);
    failing.with_save_adapter(std::make_shared<Throwing>());
    expect_error([&] { random_module(10).save_into(failing); }, "device went away");
    EXPECT_EQ(testing::read_bytes(file.path), before);
    for (const auto& f : std::filesystem::directory_iterator(file.path.parent_path()))
        EXPECT_EQ(f.path().filename().string().find(".burn-store-" + std::to_string(::getpid()) +
                                                    "-atomic.bpk.tmp"),
                  std::string::npos)
            << "temporary file left behind: " << f.path();

    BurnpackStore keep(file.path);
    keep.overwrite(false);
    expect_error([&] { random_module(11).save_into(keep); }, "overwrite(false)");
    EXPECT_EQ(testing::read_bytes(file.path), before);
    BurnpackStore nowhere(file.path.parent_path() / "no-such-dir" / "x.bpk");
    expect_error([&] { first.save_into(nowhere); }, "does not exist");
}

TEST(BurnpackStore, MissingFileIsAnIoError) {
    AllDtypes m = random_module(12);
    BurnpackStore in("/nonexistent/burn/model.bpk");
    EXPECT_THROW(m.load_from(in), IoError);
}

// ---------------------------------------------------------------- hostile files

struct SmallPack {
    Param<Tensor<2>> w;
    Buffer<Tensor<1, Int>> n;
    BURN_MODULE(SmallPack, w, n)
};

std::vector<uint8_t> small_file() {
    SmallPack s{Tensor<2>::from_floats({{1, 2}, {3, 4}}), Tensor<1, Int>::from_ints({5, 6, 7})};
    auto mem = BurnpackStore::in_memory();
    mem.metadata("k", "v").scalar("s", 1.5);
    s.save_into(mem);
    return mem.bytes();
}

/// A file whose CBOR metadata is replaced by meta (tensor data kept after it, realigned).
std::vector<uint8_t> with_metadata(const nlohmann::json& meta, std::size_t data_bytes = 512) {
    std::vector<uint8_t> cbor = nlohmann::json::to_cbor(meta);
    std::vector<uint8_t> out = {'N', 'R', 'U', 'B', 1, 0};
    uint32_t n = static_cast<uint32_t>(cbor.size());
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(n >> (8 * i)));
    out.insert(out.end(), cbor.begin(), cbor.end());
    out.resize(detail::align_up(out.size(), 256) + data_bytes, 0);
    return out;
}

void expect_rejected(const std::vector<uint8_t>& bytes, const std::string& text) {
    expect_error([&] { detail::parse_burnpack(bytes.data(), bytes.size(), Limits()); }, text);
}

nlohmann::json tensor_meta(const char* dtype, std::vector<uint64_t> shape, uint64_t start, uint64_t end) {
    return {{"dtype", dtype}, {"shape", shape}, {"data_offsets", {start, end}}, {"param_id", nullptr}};
}

TEST(BurnpackStore, RejectsHostileFiles) {
    auto good = small_file();
    for (std::size_t n = 0; n < good.size(); ++n) {
        std::vector<uint8_t> cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n));
        EXPECT_THROW(detail::parse_burnpack(cut.data(), cut.size(), Limits()), Error) << "truncated at " << n;
    }
    auto bad = good;
    bad[0] = 'X';
    expect_rejected(bad, "not a Burnpack file");
    bad = good;
    bad[4] = 9;
    expect_rejected(bad, "version 9 is not supported");
    bad = good;
    bad[6] = bad[7] = bad[8] = bad[9] = 0xff;
    expect_rejected(bad, "exceeds the limit");
    bad = good;
    bad[9] = 0;
    bad[8] = 0x10;  // a metadata length past the end
    expect_rejected(bad, "past the end");

    using J = nlohmann::json;
    expect_rejected(with_metadata(J::array()), "not a CBOR map");
    expect_rejected(with_metadata(J{{"tensors", {{"w", tensor_meta("f32", {2, 2}, 0, 16)}}}}, 8),
                    "truncated");
    expect_rejected(with_metadata(J{{"tensors", {{"w", tensor_meta("f32", {2, 2}, 512, 528)}}}}),
                    "truncated");
    expect_rejected(with_metadata(J{{"tensors", {{"w", tensor_meta("f32", {2, 3}, 0, 16)}}}}),
                    "needs 24 bytes");
    expect_rejected(
        with_metadata(J{{"tensors", {{"w", tensor_meta("f32", {1ull << 40, 1ull << 40}, 0, 16)}}}}),
        "overflows");
    expect_rejected(with_metadata(J{{"tensors", {{"w", tensor_meta("f32", {1ull << 33}, 0, 16)}}}}),
                    "over the limit");
    expect_rejected(with_metadata(J{{"tensors", {{"w", tensor_meta("f32", {2}, 20, 12)}}}}), "spans bytes");
    expect_rejected(with_metadata(J{{"tensors", {{"w", tensor_meta("f32", {2}, 8, 16)}}}}),
                    "256-byte boundary");
    expect_rejected(with_metadata(J{{"tensors", {{"w", tensor_meta("c64", {2}, 0, 8)}}}}), "c64");
    expect_rejected(
        with_metadata(J{{"tensors", {{"w", tensor_meta("f32", {1, 1, 1, 1, 1, 1, 1, 1, 1}, 0, 4)}}}}),
        "rank");
    expect_rejected(
        with_metadata(
            J{{"tensors", {{"a", tensor_meta("f32", {64}, 0, 256)}, {"b", tensor_meta("f32", {2}, 0, 8)}}}}),
        "overlap");
    expect_rejected(with_metadata(J{{"tensors", {{"w", {{"dtype", "f32"}}}}}}), "no shape");
    expect_rejected(with_metadata(J{{"tensors", J::object()}, {"scalars", {{"s", {{"str", "x"}}}}}}),
                    "scalar 's'");
    J deep = J::array();
    for (int i = 0; i < 300; ++i) deep = J::array({deep});
    expect_rejected(with_metadata(J{{"tensors", J::object()}, {"x", deep}}), "nesting deeper");

    Limits few;
    few.max_tensors = 1;
    auto two = with_metadata(
        J{{"tensors", {{"a", tensor_meta("f32", {1}, 0, 4)}, {"b", tensor_meta("f32", {1}, 256, 260)}}}});
    expect_error([&] { detail::parse_burnpack(two.data(), two.size(), few); }, "over the limit of 1");
}

TEST(BurnpackStore, FailedLoadLeavesTheModelUntouched) {
    AllDtypes m = random_module(13);
    AllDtypes before = m;
    auto bytes = small_file();
    auto in = BurnpackStore::from_bytes(bytes);
    expect_error([&] { m.load_from(in); }, "nothing was applied");
    expect_same_bytes(before, m);
    bytes[0] = 0;
    auto corrupt = BurnpackStore::from_bytes(bytes);
    expect_error([&] { m.load_from(corrupt); }, "not a Burnpack file");
    expect_same_bytes(before, m);
}

TEST(BurnpackStore, FuzzedFilesNeverCrash) {
    const auto good = small_file();
    std::mt19937 rng(2024);
    int parsed = 0;
    for (int i = 0; i < 600; ++i) {
        auto bytes = testing::mutate(good, rng);
        try {
            auto store = BurnpackStore::from_bytes(bytes);
            for (const auto& e : store.entries()) e.read();
            store.read_scalars();
            ++parsed;
        } catch (const Error&) {
        }
    }
    EXPECT_GT(parsed, 0);  // some mutations only touch tensor data and still parse
}

}  // namespace
}  // namespace burn::store

namespace burn::store {
namespace {

// tests/fixtures/store/dtypes.bpk was written by this version of the writer: ten 2x3 tensors of
// every dtype filled from std::mt19937(5) (bool as rng() % 2), scalars and metadata. Reading it guards
// the format against accidental changes.
TEST(BurnpackStore, GoldenFileStillReads) {
    auto rec = BurnpackStore(testing::fixture("dtypes.bpk")).load_record();
    std::mt19937 rng(5);
    const DType all[] = {DType::f32, DType::f64, DType::f16, DType::bf16, DType::i64,
                         DType::i32, DType::i16, DType::i8,  DType::u8,   DType::boolean};
    ASSERT_EQ(rec.tensors.size(), 10u);
    for (DType d : all) {
        std::vector<uint8_t> b(6 * size_of(d));
        for (auto& x : b) x = static_cast<uint8_t>(d == DType::boolean ? rng() % 2 : rng());
        const auto& t = rec.tensors.at(std::string(name(d)));
        EXPECT_EQ(t.dtype(), d);
        EXPECT_EQ(t.shape(), (Dims{2, 3}));
        EXPECT_EQ(testing::bytes_of(t), b) << name(d);
    }
    EXPECT_EQ(rec.scalars.at("step"), Scalar(int64_t{7}));
    EXPECT_EQ(rec.scalars.at("count"), Scalar(uint64_t{3}));
    EXPECT_EQ(rec.scalars.at("lr"), Scalar(0.01));
    EXPECT_EQ(rec.scalars.at("done"), Scalar(false));
    EXPECT_EQ(rec.metadata.at("note"), "fixture");
}

// tests/fixtures/store/rust_burn.bpk is laid out as Rust burn 0.22's burn-pack writes a file
// (scripts/gen_burnpack_rust_fixture.py encodes its CBOR by hand): DType spellings "F32", "F16",
// "I64", "Flex32", {"Bool": "Native"} and the older unit "Bool", scalars {"Int" | "UInt" | "Float" |
// "Bool": value}, param_id present or left out.
TEST(BurnpackStore, ReadsFilesWrittenByRustBurn) {
    BurnpackStore in(testing::fixture("rust_burn.bpk"));
    auto rec = in.load_record();
    ASSERT_EQ(rec.tensors.size(), 7u);
    auto values = [&](const std::string& n) {
        return ops::into_data(ops::cast(rec.tensors.at(n), DType::f64)).to_vec<double>();
    };
    EXPECT_EQ(values("head.weight"), (std::vector<double>{1, 2, 3, 4, 5, 6}));
    EXPECT_EQ(rec.tensors.at("head.weight").shape(), (Dims{3, 2}));
    EXPECT_EQ(values("head.bias"), (std::vector<double>{0.5, -1.5}));
    EXPECT_EQ(rec.tensors.at("mask").dtype(), DType::boolean);
    EXPECT_EQ(values("mask"), (std::vector<double>{1, 0, 0, 1}));
    EXPECT_EQ(values("legacy_mask"), (std::vector<double>{1, 0, 1}));
    EXPECT_EQ(rec.tensors.at("scale").dtype(), DType::f16);
    EXPECT_EQ(values("scale"), (std::vector<double>{0.25, -2.0}));
    EXPECT_EQ(rec.tensors.at("steps").dtype(), DType::i64);
    EXPECT_EQ(values("steps"), (std::vector<double>{-7, 1099511627776.0}));
    EXPECT_EQ(rec.tensors.at("wide").dtype(), DType::f32);  // Flex32 is stored as f32
    EXPECT_EQ(rec.scalars.at("delta"), Scalar(int64_t{-2}));
    EXPECT_EQ(rec.scalars.at("epoch"), Scalar(uint64_t{3}));
    EXPECT_EQ(rec.scalars.at("lr"), Scalar(0.5));
    EXPECT_EQ(rec.scalars.at("done"), Scalar(true));
    EXPECT_EQ(rec.metadata.at("producer"), "burn");
    std::map<std::string, std::optional<uint64_t>> ids;
    for (const auto& t : in.tensors()) ids[t.name] = t.param_id;
    EXPECT_EQ(ids.at("head.weight"), std::optional<uint64_t>(11));
    EXPECT_EQ(ids.at("mask"), std::optional<uint64_t>(12));
    EXPECT_FALSE(ids.at("head.bias").has_value());
}

// What this writer puts in the CBOR metadata is what Rust burn's serde reads: its DType and Scalar
// spellings, no null param_id, no empty maps.
TEST(BurnpackStore, WritesRustBurnsSpellings) {
    Record rec;
    rec.tensors["w"] = ops::from_data(TensorData(std::vector<float>{1, 2}, {2}), Device());
    rec.tensors["m"] =
        ops::cast(ops::from_data(TensorData(std::vector<float>{1, 0}, {2}), Device()), DType::boolean);
    rec.tensors["h"] = ops::cast(rec.tensors["w"], DType::bf16);
    rec.scalars["i"] = Scalar(int64_t{-4});
    rec.scalars["u"] = Scalar(uint64_t{4});
    rec.scalars["f"] = Scalar(0.25);
    rec.scalars["b"] = Scalar(false);
    auto mem = BurnpackStore::in_memory();
    mem.save_record(rec);
    const std::vector<uint8_t> bytes = mem.bytes();
    const uint32_t meta_len = bytes[6] | (bytes[7] << 8) | (bytes[8] << 16) | (uint32_t(bytes[9]) << 24);
    const auto meta = nlohmann::json::from_cbor(bytes.begin() + 10, bytes.begin() + 10 + meta_len);
    EXPECT_EQ(meta["tensors"]["w"]["dtype"], "F32");
    EXPECT_EQ(meta["tensors"]["h"]["dtype"], "BF16");
    EXPECT_EQ(meta["tensors"]["m"]["dtype"], (nlohmann::json{{"Bool", "Native"}}));
    EXPECT_FALSE(meta["tensors"]["w"].contains("param_id"));
    EXPECT_EQ(meta["scalars"]["i"], (nlohmann::json{{"Int", -4}}));
    EXPECT_EQ(meta["scalars"]["u"], (nlohmann::json{{"UInt", 4}}));
    EXPECT_EQ(meta["scalars"]["f"], (nlohmann::json{{"Float", 0.25}}));
    EXPECT_EQ(meta["scalars"]["b"], (nlohmann::json{{"Bool", false}}));
    EXPECT_FALSE(meta.contains("metadata"));
    auto back = BurnpackStore::from_bytes(bytes).load_record();
    EXPECT_EQ(back.scalars, rec.scalars);
    EXPECT_EQ(back.tensors.at("m").dtype(), DType::boolean);
}

TEST(BurnpackStore, RejectsRustDtypesThisBuildLacksByName) {
    auto one = [](const nlohmann::json& dtype) {
        nlohmann::json meta = {
            {"tensors", {{"q", {{"dtype", dtype}, {"shape", {1}}, {"data_offsets", {0, 4}}}}}}};
        std::vector<uint8_t> cbor = nlohmann::json::to_cbor(meta);
        std::vector<uint8_t> f = {0x4E, 0x52, 0x55, 0x42, 1, 0};
        for (int k = 0; k < 4; ++k) f.push_back(static_cast<uint8_t>(cbor.size() >> (8 * k)));
        f.insert(f.end(), cbor.begin(), cbor.end());
        f.resize((f.size() + 255) / 256 * 256 + 4, 0);
        try {
            BurnpackStore::from_bytes(f).load_record();
        } catch (const burn::Error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(one("U32").find("dtype U32, which this build has no tensors of"), std::string::npos)
        << one("U32");
    EXPECT_NE(one(nlohmann::json{{"Bool", "U32"}}).find("one byte per element"), std::string::npos);
    EXPECT_NE(one("Q8").find("unknown dtype 'Q8'"), std::string::npos) << one("Q8");
}

struct RustHead {
    nn::Linear head;
    BURN_MODULE(RustHead, head)
};

// Rust burn's Linear weight is [d_input, d_output]: a file it wrote (producer "burn") loads transposed
// into this project's [d_output, d_input] without asking; burn_linear_layout(true) writes that layout
// (and marks the file so this reader transposes it back).
TEST(BurnpackStore, RustBurnsLinearLayoutLoadsAndSavesTransposed) {
    RustHead m{nn::LinearConfig{3, 2}.init()};
    ApplyResult r = m.load_from(BurnpackStore(testing::fixture("rust_burn.bpk")).with_regex("^head\\."));
    ASSERT_TRUE(r.is_success()) << r;
    EXPECT_EQ(m.head.weight.val().shape(), (Dims{2, 3}));
    EXPECT_EQ(m.head.weight.val().to_vec<float>(), (std::vector<float>{1, 3, 5, 2, 4, 6}));
    EXPECT_EQ(m.head.bias->val().to_vec<float>(), (std::vector<float>{0.5f, -1.5f}));

    auto rust = BurnpackStore::in_memory().burn_linear_layout(true);
    m.save_into(rust);
    auto rec = BurnpackStore::from_bytes(rust.bytes()).load_record();
    EXPECT_EQ(rec.tensors.at("head.weight").shape(), (Dims{3, 2}));
    EXPECT_EQ(ops::into_data(rec.tensors.at("head.weight")).to_vec<float>(),
              (std::vector<float>{1, 2, 3, 4, 5, 6}));
    RustHead back{nn::LinearConfig{3, 2}.init()};
    auto again = BurnpackStore::from_bytes(rust.bytes());
    ASSERT_TRUE(back.load_from(again).is_success());
    EXPECT_EQ(back.head.weight.val().to_vec<float>(), m.head.weight.val().to_vec<float>());

    auto plain = BurnpackStore::in_memory();  // the default keeps this project's layout
    m.save_into(plain);
    EXPECT_EQ(BurnpackStore::from_bytes(plain.bytes()).load_record().tensors.at("head.weight").shape(),
              (Dims{2, 3}));
}

}  // namespace
}  // namespace burn::store
