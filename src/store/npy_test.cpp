// NumPy .npy files: every fixture that real NumPy wrote (tests/fixtures/npy/make_fixtures.py) parses
// to the values NumPy reads back (expected.json), encode_npy reproduces np.save's bytes exactly, every
// dtype round-trips, and damaged or hostile files give a burn::Error naming the problem, never a crash.
#include "burn/store/npy.hpp"

#include <nlohmann/json.hpp>

#include "store/store_test_util.hpp"

namespace burn::store::npy_test {
namespace {

using testing::expect_error;
using testing::TempFile;

std::filesystem::path npy_fixture(const std::string& name) {
    return burn::testing::fixture_root() / "npy" / name;
}

nlohmann::json expected() {
    auto bytes = testing::read_bytes(npy_fixture("expected.json"));
    return nlohmann::json::parse(bytes.begin(), bytes.end());
}

TensorData parse(const std::vector<uint8_t>& bytes) {
    return parse_npy(bytes, "test.npy");
}

/// A .npy file with this header text (no padding added) and data bytes.
std::vector<uint8_t> npy_file(const std::string& header, std::size_t data_bytes, int major = 1) {
    std::vector<uint8_t> out = {0x93, 'N', 'U', 'M', 'P', 'Y', static_cast<uint8_t>(major), 0};
    const std::size_t n = header.size();
    out.push_back(static_cast<uint8_t>(n & 0xff));
    out.push_back(static_cast<uint8_t>((n >> 8) & 0xff));
    if (major != 1) {
        out.push_back(static_cast<uint8_t>((n >> 16) & 0xff));
        out.push_back(static_cast<uint8_t>((n >> 24) & 0xff));
    }
    out.insert(out.end(), header.begin(), header.end());
    out.resize(out.size() + data_bytes, 0);
    return out;
}

std::string header_with(const std::string& descr, const std::string& shape) {
    return "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }\n";
}

TEST(Npy, FixturesWrittenByNumpyParseToNumpysValues) {
    const auto exp = expected();
    ASSERT_GE(exp.size(), 10u);
    for (const auto& [name, e] : exp.items()) {
        SCOPED_TRACE(name);
        const TensorData d = read_npy(npy_fixture(name).string());
        EXPECT_EQ(d.dtype(), dtype_from_name(e["dtype"].get<std::string>()));
        Dims shape;
        for (const auto& s : e["shape"]) shape.push_back(s.get<int64_t>());
        ASSERT_EQ(d.shape(), shape);
        const auto& values = e["values"];
        ASSERT_EQ(static_cast<std::size_t>(d.numel()), values.size());
        if (d.dtype() == DType::i64) {
            EXPECT_EQ(d.to_vec<int64_t>(), values.get<std::vector<int64_t>>());
        } else {
            for (std::size_t i = 0; i < values.size(); ++i)
                EXPECT_EQ(d.value_as_double(static_cast<int64_t>(i)), values[i].get<double>())
                    << "element " << i;
        }
    }
}

TEST(Npy, FixtureSpotChecks) {
    // A few values written out here as well, so that a wrong expected.json cannot hide a bug.
    EXPECT_EQ(read_npy(npy_fixture("f32_2x3.npy").string()),
              TensorData(std::vector<float>{0, 1, 2, 3, 4, 5}, Dims{2, 3}));
    const TensorData scalar = read_npy(npy_fixture("f64_scalar.npy").string());
    EXPECT_EQ(scalar.shape().rank(), 0);
    EXPECT_EQ(scalar.to_vec<double>(), std::vector<double>{2.5});
    EXPECT_EQ(read_npy(npy_fixture("i64_be.npy").string()).to_vec<int64_t>(),
              (std::vector<int64_t>{-(int64_t{1} << 62), -1, 0, (int64_t{1} << 62) + 3}));
    EXPECT_EQ(read_npy(npy_fixture("bool.npy").string()).to_vec<bool>(),
              (std::vector<bool>{true, false, true, true}));
    // np.asfortranarray(np.arange(24).reshape(2, 3, 4) - 5): row-major after the read.
    const TensorData f = read_npy(npy_fixture("fortran_i4.npy").string());
    EXPECT_EQ(f.shape(), (Dims{2, 3, 4}));
    std::vector<int32_t> want(24);
    for (int i = 0; i < 24; ++i) want[static_cast<std::size_t>(i)] = i - 5;
    EXPECT_EQ(f.to_vec<int32_t>(), want);
    EXPECT_EQ(read_npy(npy_fixture("empty_0x3.npy").string()).shape(), (Dims{0, 3}));
    EXPECT_EQ(read_npy(npy_fixture("v3_i2.npy").string()).to_vec<int16_t>(),
              (std::vector<int16_t>{-3, 0, 300}));
}

TEST(Npy, EncodeMatchesNumpyBytesExactly) {
    const auto numpy = testing::read_bytes(npy_fixture("f32_2x3.npy"));
    const auto ours = encode_npy(TensorData(std::vector<float>{0, 1, 2, 3, 4, 5}, Dims{2, 3}));
    EXPECT_EQ(ours, numpy);
    EXPECT_EQ((ours.size() - 6 * 4) % 64, 0u);  // the data starts on a 64-byte boundary
    EXPECT_EQ(ours[ours.size() - 6 * 4 - 1], '\n');
    // Every file np.save wrote in little-endian C order: scalar, 1-D, empty, 1-byte dtypes.
    int compared = 0;
    const auto exp = expected();
    for (const auto& [name, e] : exp.items()) {
        if (!e["np_save"].get<bool>()) continue;
        const auto file = testing::read_bytes(npy_fixture(name));
        EXPECT_EQ(encode_npy(parse_npy(file, name)), file) << name;
        ++compared;
    }
    EXPECT_GE(compared, 6);
}

TEST(Npy, RoundTripEveryDtype) {
    const DType all[] = {DType::f32, DType::f64, DType::f16, DType::bf16, DType::i64,
                         DType::i32, DType::i16, DType::i8,  DType::u8,   DType::boolean};
    std::mt19937 rng(5);
    for (DType d : all) {
        for (const Dims& shape : {Dims{3, 7}, Dims{}, Dims{5}, Dims{0, 3}, Dims{2, 1, 3, 1, 2}}) {
            SCOPED_TRACE(::testing::Message() << name(d) << " " << shape);
            const TensorData data = testing::random_data(d, shape, rng);
            const TensorData back = parse(encode_npy(data));
            // bf16 has no NumPy dtype: it is written as f32, which holds every bf16 value exactly.
            EXPECT_EQ(back, d == DType::bf16 ? data.convert(DType::f32) : data);
        }
    }
    TempFile file("roundtrip.npy");
    const std::vector<int64_t> values = {1, -2, 3, INT64_MIN, INT64_MAX, 0};
    write_npy(file.path.string(), TensorData(values, Dims{3, 2}));
    const TensorData back = read_npy(file.path.string());
    EXPECT_EQ(back.shape(), (Dims{3, 2}));
    EXPECT_EQ(back.to_vec<int64_t>(), values);
    write_npy(file.path.string(), TensorData(std::vector<float>{7.5f}, Dims{}));  // replaces it
    EXPECT_EQ(read_npy(file.path.string()).to_vec<float>(), std::vector<float>{7.5f});
}

TEST(Npy, AcceptsHeaderVariants) {
    // Keys in any order, double quotes, no trailing comma, spaces, Python 2 longs, '=' and '<u1'.
    auto a = parse(npy_file(R"({ "shape" : ( 2 , ) , "fortran_order":False,"descr":"<u1"})", 2));
    EXPECT_EQ(a.dtype(), DType::u8);
    EXPECT_EQ(a.shape(), (Dims{2}));
    EXPECT_EQ(parse(npy_file("{'descr': '=i4', 'fortran_order': False, 'shape': (2L, 1L)}", 8)).shape(),
              (Dims{2, 1}));
    EXPECT_EQ(parse(npy_file(header_with("<b1", "(3,)"), 3)).dtype(), DType::boolean);
    EXPECT_EQ(parse(npy_file(header_with("|i1", "()"), 1)).shape().rank(), 0);
    EXPECT_EQ(parse(npy_file(header_with("<f8", "(1, 2)"), 16, 2)).shape(), (Dims{1, 2}));
    // A bool byte other than 0 or 1 reads as true (stored as 1).
    auto b = npy_file(header_with("|b1", "(2,)"), 2);
    b[b.size() - 2] = 7;
    EXPECT_EQ(parse(b).bytes(), (std::vector<uint8_t>{1, 0}));
}

TEST(Npy, RejectsDamagedFiles) {
    const auto good = testing::read_bytes(npy_fixture("f32_2x3.npy"));
    // Truncated anywhere: an error, never a crash.
    for (std::size_t n = 0; n < good.size(); ++n) {
        std::vector<uint8_t> cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n));
        EXPECT_THROW(parse(cut), Error) << "truncated at " << n;
    }
    expect_error([&] { parse(std::vector<uint8_t>(good.begin(), good.begin() + 5)); }, "not a .npy file");
    expect_error([&] { parse(std::vector<uint8_t>(good.begin(), good.begin() + 9)); }, "header length field");
    expect_error([&] { parse(std::vector<uint8_t>(good.begin(), good.begin() + 40)); }, "beyond the end");
    expect_error([&] { parse(std::vector<uint8_t>(good.begin(), good.end() - 1)); },
                 "truncated: the data has");
    auto tail = good;
    tail.push_back(0);
    expect_error([&] { parse(tail); }, "1 trailing bytes");
    auto long_header = good;
    long_header[8] = long_header[9] = 0xff;
    expect_error([&] { parse(long_header); }, "the header length 65535 goes beyond the end");
    auto version = good;
    version[6] = 4;
    expect_error([&] { parse(version); }, "unsupported .npy format version 4.0");
    auto magic = good;
    magic[1] = 'X';
    expect_error([&] { parse(magic); }, "not a .npy file");
    expect_error([&] { read_npy("/nonexistent/dir/x.npy"); }, "/nonexistent/dir/x.npy");
}

TEST(Npy, RejectsBadHeaders) {
    auto rejects = [](const std::string& header, std::size_t data, const std::string& text) {
        SCOPED_TRACE(header);
        expect_error([&] { parse(npy_file(header, data)); }, text);
        expect_error([&] { parse(npy_file(header, data)); }, "test.npy");  // names the file
    };
    rejects("[1, 2]\n", 0, "the header is a list, not a dict");
    rejects("'descr'\n", 0, "the header is a string, not a dict");
    rejects("{'descr': '<f4' 'shape': (1,)}", 4, "expected ',' or '}'");
    rejects("{'descr': '<f4', 'fortran_order': False, 'shape': (1,)} x", 4, "after the end of the dict");
    rejects("{'descr': '<f4, 'fortran_order': False}", 4, "malformed header");
    rejects("{'descr': '<f4', 'fortran_order': False, 'shape': (1,", 4, "malformed header");
    rejects("{'descr': 'f\\x34', 'fortran_order': False, 'shape': (1,)}", 4, "escape sequences");
    rejects("{'descr': '<f4', 'fortran_order': false, 'shape': (1,)}", 4, "unknown name 'false'");
    rejects("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}", 4, "unexpected key 'x'");
    rejects("{'descr': '<f4', 'shape': (1,)}", 4, "no 'fortran_order' key");
    rejects("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (1,)}", 4, "appears twice");
    rejects("{1: '<f4'}", 4, "a dict key is an integer");
    rejects("{'descr': '<f4', 'fortran_order': 1, 'shape': (1,)}", 4, "'fortran_order' is an integer");
    rejects("{'descr': 4, 'fortran_order': False, 'shape': (1,)}", 4, "'descr' is an integer");
    rejects("{'descr': '<f4', 'fortran_order': False, 'shape': [1]}", 4, "'shape' is a list");
    rejects("{'descr': '<f4', 'fortran_order': False, 'shape': (1)}", 4, "'shape' is an integer");
    rejects("{'descr': '<f4', 'fortran_order': False, 'shape': ('1',)}", 4,
            "a dimension of 'shape' is a string");
    rejects("{'descr': " + std::string(200, '[') + std::string(200, ']') + "}", 0, "nest deeper");
    rejects("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }\xc3\xa9", 4, "non-ASCII");
    rejects(std::string("{'descr': '<f4'") + '\0' + ", 'fortran_order': False, 'shape': (1,), }", 4,
            "control byte");
}

TEST(Npy, RejectsBadShapesAndDtypes) {
    auto rejects = [](const std::string& descr, const std::string& shape, std::size_t data,
                      const std::string& text) {
        SCOPED_TRACE(descr + " " + shape);
        expect_error([&] { parse(npy_file(header_with(descr, shape), data)); }, text);
    };
    rejects("<f4", "(-1, 3)", 12, "negative dimension -1");
    rejects("<f4", "(4611686018427387904, 4611686018427387904)", 0, "more elements than int64");
    rejects("<f8", "(2305843009213693952,)", 0, "more bytes than int64");
    rejects("<f4", "(99999999999999999999,)", 0, "larger than int64");
    rejects("<f4", "(1000000, 1000000)", 24, "truncated: the data has 24 bytes");
    rejects("<f4", "(1, 1, 1, 1, 1, 1, 1, 1, 1)", 4, "9 dimensions; at most 8");
    rejects("<c8", "(1,)", 8, "unsupported dtype '<c8'; supported: '<f4'");
    rejects("<u4", "(1,)", 4, "unsupported dtype '<u4'");
    rejects("|O", "(1,)", 8, "unsupported dtype '|O'");
    rejects("<V2", "(1,)", 2, "astype");
    expect_error(
        [] { parse(npy_file("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,)}", 4)); },
        "structured dtypes");
    try {
        parse(npy_file(header_with("<c16", "(1,)"), 16));
        ADD_FAILURE() << "expected a DTypeError";
    } catch (const DTypeError&) {
    }
    try {
        parse(npy_file(header_with("<f4", "(-2,)"), 0));
        ADD_FAILURE() << "expected a ShapeError";
    } catch (const ShapeError&) {
    }
    // A zero dim holds nothing, whatever the others: (0, 2**40) is an empty array.
    EXPECT_EQ(parse(npy_file(header_with("<f4", "(0, 1099511627776)"), 0)).numel(), 0);
}

TEST(Npy, FuzzedFilesNeverCrash) {
    std::mt19937 rng(11);
    int parsed = 0;
    for (const char* name : {"f32_2x3.npy", "fortran_i4.npy", "v2_f32.npy", "i64_be.npy"}) {
        const auto good = testing::read_bytes(npy_fixture(name));
        for (int i = 0; i < 300; ++i) {
            try {
                parse(testing::mutate(good, rng));
                ++parsed;
            } catch (const Error&) {
            }
        }
    }
    EXPECT_GT(parsed, 0);
}

}  // namespace
}  // namespace burn::store::npy_test
