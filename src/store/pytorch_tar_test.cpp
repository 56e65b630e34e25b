// PytorchStore on the tar format of torch.save (PyTorch before 0.1.10): the fixtures of
// scripts/gen_pt_tar_fixtures.py, checked there with torch.load, whose values are in <stem>.json
// beside them (every dtype, views of one storage and of a storage view, a checkpoint under "model");
// archives built here member by member for each malformed case; cut, damaged and mutated archives
// fail with a burn::Error naming the file and the member, never a crash.
#include <nlohmann/json.hpp>

#include "store/pytorch_reader.hpp"
#include "store/store_test_util.hpp"

namespace burn::store {
namespace pytorch_tar_test {

using testing::expect_error;
using testing::fixture;
using Bytes = std::vector<uint8_t>;

nlohmann::json torch_values(const std::string& stem) {
    std::ifstream in(fixture(stem + ".json"));
    return nlohmann::json::parse(in);
}

/// Every tensor has torch.load's dtype, shape and values, exactly (the JSON holds each element as the
/// integer or the float64 it is; f16 and bf16 widen exactly).
void expect_torch_values(const std::map<std::string, TensorAny>& got, const nlohmann::json& want,
                         const std::string& prefix = "") {
    ASSERT_EQ(got.size(), want["tensors"].size());
    for (const auto& [key, w] : want["tensors"].items()) {
        const std::string name = key.substr(prefix.size());
        auto it = got.find(name);
        ASSERT_NE(it, got.end()) << name;
        const TensorData d = ops::into_data(it->second);
        EXPECT_EQ(std::string(burn::name(d.dtype())), w["dtype"].get<std::string>()) << name;
        EXPECT_EQ(std::vector<int64_t>(d.shape().begin(), d.shape().end()),
                  w["shape"].get<std::vector<int64_t>>())
            << name;
        const auto& values = w["values"];
        ASSERT_EQ(static_cast<std::size_t>(d.numel()), values.size()) << name;
        if (is_float(d.dtype())) {
            for (int64_t i = 0; i < d.numel(); ++i)
                EXPECT_EQ(d.value_as_double(i), values[i].get<double>()) << name << "[" << i << "]";
        } else {
            const auto ints = d.convert(DType::i64).to_vec<int64_t>();
            for (std::size_t i = 0; i < ints.size(); ++i)
                EXPECT_EQ(ints[i],
                          values[i].is_boolean() ? int64_t{values[i].get<bool>()} : values[i].get<int64_t>())
                    << name << "[" << i << "]";
        }
    }
}

TEST(PytorchTar, EveryDtypeHasTorchLoadsValues) {
    expect_torch_values(PytorchStore(fixture("tar_dtypes.pt")).load_tensors(), torch_values("tar_dtypes"));
}

TEST(PytorchTar, ViewsOfOneStorageAndOfAStorageViewAreGathered) {
    auto got = PytorchStore(fixture("tar_views.pt")).load_tensors();
    expect_torch_values(got, torch_values("tar_views"));
    // The same bytes as the zip-format file of the same views (scripts/gen_store_fixtures.py).
    auto safetensors = SafetensorsStore(fixture("views.safetensors")).load_tensors();
    for (const char* name : {"base", "row", "transposed", "column"})
        EXPECT_EQ(testing::bytes_of(got[name]), testing::bytes_of(safetensors[name])) << name;
}

struct Net {
    nn::Linear fc;
    BURN_MODULE(Net, fc)
};

TEST(PytorchTar, ACheckpointLoadsIntoAModuleByTopLevelKey) {
    const auto want = torch_values("tar_nested");
    const auto path = fixture("tar_nested.pt");
    auto keys = PytorchStore(path).keys();
    EXPECT_EQ(std::set<std::string>(keys.begin(), keys.end()),
              (std::set<std::string>{"model.fc.weight", "model.fc.bias"}));
    expect_torch_values(PytorchStore(path).with_top_level_key("model").load_tensors(), want, "model.");

    Net net{nn::LinearConfig{4, 3}.init()};
    auto result = net.load_from(PytorchStore(path).with_top_level_key("model"));
    EXPECT_TRUE(result.is_success()) << result;
    EXPECT_EQ(result.applied.size(), 2u);
    std::map<std::string, TensorAny> loaded = {{"model.fc.weight", net.fc.weight.val().handle()},
                                               {"model.fc.bias", net.fc.bias->val().handle()}};
    expect_torch_values(loaded, want);

    expect_error([&] { PytorchStore(path).with_top_level_key("state_dict").keys(); },
                 "no key 'state_dict'; the keys there are 'epoch', 'model', 'note'");
    EXPECT_EQ(PytorchStore(path).load_config_value("epoch").as_int64(), 3);
    EXPECT_EQ(PytorchStore(path).load_config_value("note").as_string(), "tar checkpoint");
}

TEST(PytorchTar, AHostilePickleMemberIsRefusedAndNothingRuns) {
    std::filesystem::remove("/tmp/burn-pickle-pwned");
    expect_error([] { PytorchStore(fixture("tar_evil.pt")).keys(); }, "refusing the global 'posix.system'");
    expect_error([] { PytorchStore(fixture("tar_evil.pt")).keys(); }, "member 'pickle' of the tar-format");
    EXPECT_FALSE(std::filesystem::exists("/tmp/burn-pickle-pwned"));
}

// ---------------------------------------------------------------- archives built member by member

/// A ustar header of this type (a regular file by default) and its data, padded to 512 bytes.
void add_member(Bytes& tar, const std::string& name, const Bytes& data, char type = '0') {
    Bytes h(512, 0);
    auto put = [&](std::size_t at, const std::string& s) { std::memcpy(h.data() + at, s.data(), s.size()); };
    auto octal = [](uint64_t v, int digits) {
        std::string s(static_cast<std::size_t>(digits), '0');
        for (int i = digits - 1; i >= 0 && v; --i, v >>= 3)
            s[static_cast<std::size_t>(i)] = char('0' + (v & 7));
        return s;
    };
    put(0, name);
    put(100, octal(0600, 7));
    put(108, octal(0, 7));
    put(116, octal(0, 7));
    put(124, octal(data.size(), 11));
    put(136, octal(1487000000, 11));
    h[156] = static_cast<uint8_t>(type);
    put(257, "ustar");  // POSIX: "ustar", NUL, version "00"
    put(263, "00");
    put(148, "        ");
    unsigned sum = 0;
    for (uint8_t c : h) sum += c;
    put(148, octal(sum, 6));
    h[154] = 0;
    tar.insert(tar.end(), h.begin(), h.end());
    tar.insert(tar.end(), data.begin(), data.end());
    tar.resize((tar.size() + 511) / 512 * 512, 0);
}

Bytes archive(const std::vector<std::pair<std::string, Bytes>>& members) {
    Bytes tar;
    for (const auto& [name, data] : members) add_member(tar, name, data);
    tar.resize(tar.size() + 1024, 0);
    return tar;
}

// Pickles (protocol 2) of the records, written opcode by opcode.
Bytes cat(std::initializer_list<Bytes> parts) {
    Bytes out;
    for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
    return out;
}
Bytes str(const std::string& s) {  // BINUNICODE
    Bytes b = {'X', uint8_t(s.size()), 0, 0, 0};
    b.insert(b.end(), s.begin(), s.end());
    return b;
}
Bytes global(const std::string& module, const std::string& name) {
    Bytes b = {'c'};
    for (char c : module + "\n" + name + "\n") b.push_back(static_cast<uint8_t>(c));
    return b;
}
Bytes pkl(const Bytes& body) {
    return cat({{0x80, 0x02}, body, {'.'}});
}
Bytes small(uint8_t v) {  // BININT1
    return {'K', v};
}
Bytes le64(int64_t v) {
    Bytes b(8);
    std::memcpy(b.data(), &v, 8);
    return b;
}
Bytes floats(std::initializer_list<float> v) {
    Bytes b(v.size() * 4);
    std::memcpy(b.data(), std::data(v), b.size());
    return b;
}

/// A storages member: one FloatStorage under key 1 holding values, then the views.
Bytes storages(const Bytes& values, int64_t numel, const Bytes& views = {']'}) {
    return cat({pkl(small(1)), pkl(cat({small(1), str("cpu"), global("torch", "FloatStorage"), {0x87}})),
                le64(numel), values, pkl(views)});
}
/// A tensors member: one tensor under key 2 viewing storage key storage.
Bytes tensors(uint8_t storage, int32_t rank, std::vector<int64_t> sizes, std::vector<int64_t> strides,
              int64_t offset = 0) {
    Bytes b =
        cat({pkl(small(1)), pkl(cat({small(2), small(storage), global("torch", "FloatTensor"), {0x87}}))});
    Bytes r(8, 0);
    std::memcpy(r.data(), &rank, 4);
    b = cat({b, r});
    for (int64_t v : sizes) b = cat({b, le64(v)});
    for (int64_t v : strides) b = cat({b, le64(v)});
    return cat({b, le64(offset)});
}
/// A pickle member: {'w': the object of persistent id pid}.
Bytes object(const Bytes& pid) {
    return pkl(cat({{'}'}, str("w"), pid, {'Q', 's'}}));
}

Bytes valid_archive(const Bytes& pid = str("2")) {
    return archive({{"storages", storages(floats({1, 2, 3}), 3)},
                    {"tensors", tensors(1, 1, {3}, {1})},
                    {"pickle", object(pid)}});
}

std::map<std::string, TensorAny> load(const Bytes& bytes) {
    return PytorchStore::from_bytes(bytes).load_tensors();
}

TEST(PytorchTar, AnArchiveBuiltHereLoads) {
    for (const Bytes& pid : {str("2"), small(2)}) {  // str(key), as torch wrote it, or the integer
        auto got = load(valid_archive(pid));
        ASSERT_EQ(got.size(), 1u);
        EXPECT_EQ(ops::into_data(got["w"]).to_vec<float>(), (std::vector<float>{1, 2, 3}));
    }
    // A storage view (key 3: elements 1..2 of storage 1) and a tensor on it.
    auto view = archive(
        {{"storages", storages(floats({1, 2, 3}), 3,
                               cat({{'(', '('}, small(3), small(1), small(1), small(2), {'t', 'l'}}))},
         {"tensors", tensors(3, 1, {2}, {1})},
         {"pickle", object(str("2"))}});
    EXPECT_EQ(ops::into_data(load(view)["w"]).to_vec<float>(), (std::vector<float>{2, 3}));

    // Names from a pax header (path=) and a GNU long name ('L'), as other tar writers give them.
    Bytes tar;
    const std::string pax = "17 path=storages\n";
    add_member(tar, "././@PaxHeader", Bytes(pax.begin(), pax.end()), 'x');
    add_member(tar, "renamed", storages(floats({1, 2, 3}), 3));
    add_member(tar, "././@LongLink", Bytes{'t', 'e', 'n', 's', 'o', 'r', 's', 0}, 'L');
    add_member(tar, "renamed too", tensors(1, 1, {3}, {1}));
    add_member(tar, "pickle", object(small(2)));
    EXPECT_EQ(ops::into_data(load(tar)["w"]).to_vec<float>(), (std::vector<float>{1, 2, 3}));
}

TEST(PytorchTar, MalformedMembersAreErrorsNamingTheMember) {
    auto fails = [](const Bytes& bytes, const std::string& text) {
        expect_error([&] { load(bytes); }, text);
    };
    const Bytes st = storages(floats({1, 2, 3}), 3), te = tensors(1, 1, {3}, {1}), ob = object(str("2"));
    fails(archive({{"storages", st}, {"pickle", ob}}), "has no member 'tensors'");
    fails(archive({{"storages", st}, {"tensors", te}, {"pickle", ob}, {"pickle", ob}}),
          "tar member 'pickle' appears twice");
    Bytes tar;
    add_member(tar, "storages", {}, '5');  // a directory
    fails(tar, "tar member 'storages' is not a regular file");
    for (const std::string& record : {std::string("99 path=x\n"), std::string("21 GNU.sparse.size=4\n")}) {
        tar.clear();
        add_member(tar, "././@PaxHeader", Bytes(record.begin(), record.end()), 'x');
        add_member(tar, "storages", st);
        fails(tar,
              record[0] == '9' ? "a malformed pax record at byte 0" : "sparse tar members are not supported");
    }
    // A storage claiming more elements than its member holds, and a member cut inside a pickle.
    fails(archive({{"storages", storages(floats({1, 2, 3}), 5)}, {"tensors", te}, {"pickle", ob}}),
          "storage '1' claims 5 elements, past the end of member 'storages'");
    fails(archive({{"storages", Bytes(st.begin(), st.begin() + 20)}, {"tensors", te}, {"pickle", ob}}),
          "member 'storages' of the tar-format torch.save file: corrupt or unsupported pickle");
    // Tensors: rank over 8, a negative size, a storage that is not there, a view past the storage.
    fails(archive({{"storages", st}, {"tensors", tensors(1, 9, {}, {})}, {"pickle", ob}}), "has rank 9");
    fails(archive({{"storages", st}, {"tensors", tensors(1, 1, {-3}, {1})}, {"pickle", ob}}),
          "tensor 2 has a negative size");
    fails(archive({{"storages", st}, {"tensors", tensors(7, 1, {3}, {1})}, {"pickle", ob}}),
          "views storage 7, which the member 'storages' does not hold");
    fails(archive({{"storages", st}, {"tensors", tensors(1, 1, {3}, {1}, 1)}, {"pickle", ob}}),
          "reaches element 3 of a storage holding 3");
    fails(archive({{"storages", st}, {"tensors", Bytes(te.begin(), te.end() - 4)}, {"pickle", ob}}),
          "member 'tensors' of the tar-format torch.save file ends inside storage offset");
    // A storage view outside its root, a persistent id naming nothing, a big-endian sys_info.
    fails(archive(
              {{"storages", storages(floats({1, 2, 3}), 3,
                                     cat({{'(', '('}, small(3), small(1), small(2), small(2), {'t', 'l'}}))},
               {"tensors", te},
               {"pickle", ob}}),
          "storage view 3 (2 elements from element 2) does not lie within storage 1");
    fails(archive({{"storages", st}, {"tensors", te}, {"pickle", object(str("9"))}}),
          "member 'pickle' of the tar-format torch.save file: the persistent id 9 names no tensor");
    fails(archive({{"sys_info", pkl(cat({{'}'}, str("little_endian"), {0x89, 's'}}))},
                   {"storages", st},
                   {"tensors", te},
                   {"pickle", ob}}),
          "big-endian");
    // The storage records accept storage types only; tensor types only in the tensors member.
    fails(archive(
              {{"storages", cat({pkl(small(1)),
                                 pkl(cat({small(1), str("cpu"), global("torch", "FloatTensor"), {0x87}}))})},
               {"tensors", te},
               {"pickle", ob}}),
          "refusing the global 'torch.FloatTensor'");
}

// ---------------------------------------------------------------- cut, damaged and mutated files

/// Each header of an archive: (offset, name, size).
std::vector<std::tuple<std::size_t, std::string, std::size_t>> headers(const Bytes& tar) {
    std::vector<std::tuple<std::size_t, std::string, std::size_t>> out;
    for (std::size_t pos = 0; pos + 512 <= tar.size() && tar[pos] != 0;) {
        std::size_t size =
            std::stoul(std::string(reinterpret_cast<const char*>(&tar[pos + 124]), 11), nullptr, 8);
        out.emplace_back(pos, std::string(reinterpret_cast<const char*>(&tar[pos])), size);
        pos += 512 + (size + 511) / 512 * 512;
    }
    return out;
}

void set_size(Bytes& tar, std::size_t header, const std::string& octal11) {
    std::memcpy(&tar[header + 124], octal11.data(), 11);
    std::memset(&tar[header + 148], ' ', 8);
    unsigned sum = 0;
    for (std::size_t i = 0; i < 512; ++i) sum += tar[header + i];
    std::snprintf(reinterpret_cast<char*>(&tar[header + 148]), 8, "%06o", sum);
}

const char* const kFixtures[] = {"tar_dtypes.pt", "tar_views.pt", "tar_nested.pt"};

TEST(PytorchTar, CutFilesFailUntilOnlyTheEndBlocksAreMissing) {
    for (const char* f : kFixtures) {
        const Bytes good = testing::read_bytes(fixture(f));
        ASSERT_GT(good.size(), 2048u) << f;
        const std::size_t end = good.size() - 1024;  // the files end with the two end-of-archive blocks
        ASSERT_TRUE(std::all_of(good.begin() + static_cast<std::ptrdiff_t>(end), good.end(),
                                [](uint8_t b) { return b == 0; }));
        const std::size_t keys = PytorchStore::from_bytes(good).keys().size();
        for (std::size_t n = 0; n < good.size(); n += (n % 512 < 2 || n % 512 > 509) ? 1 : 13) {
            auto store =
                PytorchStore::from_bytes(Bytes(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n)));
            if (n < end) {
                EXPECT_THROW(store.load_tensors(), Error) << f << " cut at " << n;
            } else {
                EXPECT_EQ(store.keys().size(), keys) << f << " cut at " << n;  // torch.load reads these too
            }
        }
    }
    // The error names the file (a path) and the member.
    testing::TempFile cut("cut-tar.pt");
    const Bytes good = testing::read_bytes(fixture("tar_views.pt"));
    std::size_t storages = 0;
    for (const auto& [at, name, size] : headers(good))
        if (name == "storages") storages = at;
    ASSERT_GT(storages, 0u);
    testing::write_bytes(cut.path,
                         Bytes(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(storages + 600)));
    expect_error([&] { PytorchStore(cut.path).keys(); },
                 "the tar-format torch.save file '" + cut.path.string() + "': tar member 'storages' has");
}

TEST(PytorchTar, DamagedHeadersFail) {
    Bytes good = testing::read_bytes(fixture("tar_views.pt"));
    for (const auto& [at, name, size] : headers(good)) {
        Bytes bad = good;
        set_size(bad, at, "77777777777");  // 8 GiB - 1, past the end
        expect_error([&] { load(bad); }, "tar member '" + name + "' has 8589934591 bytes from byte " +
                                             std::to_string(at + 512) + ", past the end of the " +
                                             std::to_string(good.size()) + "-byte file");
        bad = good;
        set_size(bad, at, "0000000009x");  // not octal
        expect_error([&] { load(bad); }, "has a malformed size");
        bad = good;
        bad[at + 3] ^= 0x20;  // the name changes, the checksum does not
        expect_error([&] { load(bad); },
                     "the tar header at byte " + std::to_string(at) + " is damaged (bad checksum");
    }
}

TEST(PytorchTar, MutatedFilesNeverCrash) {
    std::mt19937 rng(17);
    int parsed = 0, failed = 0;
    for (const char* f : kFixtures) {
        const Bytes good = testing::read_bytes(fixture(f));
        auto attempt = [&](const Bytes& bytes) {
            try {
                auto store = PytorchStore::from_bytes(bytes);
                for (const auto& e : store.entries())
                    if (e.read) e.read();
                ++parsed;
            } catch (const Error&) {
                ++failed;
            }
        };
        for (int i = 0; i < 200; ++i) attempt(testing::mutate(good, rng));
        // Every byte of the members' data set to 0xff in turn (the headers' checksums do not cover it).
        for (const auto& [at, name, size] : headers(good)) {
            if (name != "storages" && name != "tensors" && name != "pickle") continue;
            for (std::size_t i = 0; i < size; ++i) {
                Bytes bad = good;
                bad[at + 512 + i] = 0xff;
                attempt(bad);
            }
        }
    }
    EXPECT_GT(parsed, 0);
    EXPECT_GT(failed, 0);
}

}  // namespace pytorch_tar_test
}  // namespace burn::store
