// Stores and adapters written outside the library: a ModuleStore implemented from scratch (an in-memory map),
// a StoreBuilder store (so the shared pipeline's filters and adapters apply), and ChainAdapter composing
// adapters: order matters on save and load, and BurnToPytorch + HalfPrecision together write PyTorch's names
// in f16 and read them back into a float32 module under the strict dtype policy.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "burn/burn.hpp"

using namespace burn;

// File-local names in a namespace named after the file (a unity batch shares one translation unit).
namespace custom_store_test {

struct Tiny {
    nn::Linear fc;
    nn::LayerNorm norm;
    BURN_MODULE(Tiny, fc, norm)
};

Tiny make_tiny(const Device& d) {
    return Tiny{nn::LinearConfig{3, 2}.init(d), nn::LayerNormConfig{2}.init(d)};
}

/// Every tensor of m by path, as doubles.
std::map<std::string, std::vector<double>> values(const Tiny& m) {
    std::map<std::string, std::vector<double>> out;
    m.visit_params([&](const std::string& p, const auto& x) {
        out[p] = x.val().cast(DType::f64).template to_vec<double>();
    });
    return out;
}

/// A ModuleStore from scratch: host copies by path; a load reports missing paths and shape mismatches.
class MapStore final : public store::ModuleStore {
  public:
    std::map<std::string, TensorData> data;
    int saves = 0, loads = 0;

    void save(const std::vector<store::TensorSnapshot>& snapshots) override {
        ++saves;
        data.clear();
        for (const auto& s : snapshots) data.emplace(s.path, ops::into_data(s.tensor));
    }
    std::pair<store::ApplyResult, std::vector<store::LoadedTensor>> load(
        const std::vector<store::TensorSlot>& slots) override {
        ++loads;
        store::ApplyResult report;
        std::vector<store::LoadedTensor> out;
        std::map<std::string, bool> used;
        for (std::size_t i = 0; i < slots.size(); ++i) {
            auto it = data.find(slots[i].path);
            if (it == data.end()) {
                report.missing.push_back(slots[i].path);
                continue;
            }
            used[it->first] = true;
            if (!(it->second.shape() == slots[i].shape)) {
                report.errors.push_back({slots[i].path, "shape mismatch"});
                continue;
            }
            TensorData d = it->second.convert(slots[i].dtype);
            out.push_back({i, ops::from_data(d, slots[i].device), std::nullopt});
            report.applied.push_back(slots[i].path);
        }
        for (const auto& [path, d] : data)
            if (!used.count(path)) report.unused.push_back(path);
        return {report, out};
    }
};

/// A StoreBuilder store over memory: entries in, entries out (filters, remapping and adapters apply).
class MemoryStore final : public store::StoreBuilder<MemoryStore> {
  public:
    std::vector<std::pair<std::string, TensorData>> saved;  // what write_entries received, in order

  protected:
    std::vector<store::TensorEntry> read_entries() override {
        std::vector<store::TensorEntry> out;
        for (const auto& [name, d] : saved) {
            TensorData copy = d;
            out.push_back({name, d.dtype(), d.shape(), std::nullopt, [copy] { return copy; }, ""});
        }
        return out;
    }
    void write_entries(std::vector<store::TensorEntry> entries) override {
        saved.clear();
        for (auto& e : entries) saved.emplace_back(e.name, e.read());
    }
    const char* store_name() const override { return "MemoryStore"; }
};

/// Renames a leading `from` to `to` on save, and back on load.
class PrefixAdapter final : public store::Adapter {
  public:
    PrefixAdapter(std::string from, std::string to) : from_(std::move(from)), to_(std::move(to)) {}
    const char* name() const override { return "prefix"; }
    std::vector<store::TensorEntry> adapt_save(std::vector<store::TensorEntry> entries) const override {
        for (auto& e : entries)
            if (e.name.starts_with(from_)) e.name = to_ + e.name.substr(from_.size());
        return entries;
    }
    std::vector<store::TensorEntry> adapt_load(std::vector<store::TensorEntry> entries,
                                               const std::set<std::string>&,
                                               store::ApplyResult&) const override {
        for (auto& e : entries)
            if (e.name.starts_with(to_)) e.name = from_ + e.name.substr(to_.size());
        return entries;
    }

  private:
    std::string from_, to_;
};

std::vector<std::string> names(const MemoryStore& s) {
    std::vector<std::string> out;
    for (const auto& [n, d] : s.saved) out.push_back(n);
    return out;
}

TEST(StoreCustom, AModuleStoreFromScratchRoundTripsAndReports) {
    const Device d = Device::cpu();
    d.seed(3);
    Tiny a = make_tiny(d);
    MapStore st;
    a.save_into(st);
    EXPECT_EQ(st.saves, 1);
    ASSERT_EQ(st.data.size(), 4u);
    EXPECT_TRUE(st.data.count("fc.weight") && st.data.count("fc.bias") && st.data.count("norm.gamma") &&
                st.data.count("norm.beta"));
    Tiny b = make_tiny(d);  // other values
    ASSERT_NE(values(a), values(b));
    auto report = b.load_from(st);
    EXPECT_EQ(st.loads, 1);
    EXPECT_TRUE(report.is_success()) << report;
    EXPECT_EQ(report.applied.size(), 4u);
    EXPECT_EQ(values(b), values(a));

    // A missing tensor: the module's load refuses and changes nothing.
    st.data.erase("norm.beta");
    st.data.emplace("extra", ops::into_data(Tensor<1>::zeros({1}, d).handle()));
    Tiny c = make_tiny(d);
    const auto c_before = values(c);
    EXPECT_THROW(c.load_from(st), Error);
    EXPECT_EQ(values(c), c_before);
    auto [r, loaded] = st.load({{"norm.beta", Dims{2}, DType::f32, d, 0, false, ""}});
    EXPECT_EQ(r.missing, std::vector<std::string>{"norm.beta"});
    EXPECT_EQ(r.unused.size(), 4u);
    EXPECT_TRUE(loaded.empty());
}

TEST(StoreCustom, ChainAdapterRunsItsAdaptersInOrder) {
    const Device d = Device::cpu();
    Tiny a = make_tiny(d);
    auto first = std::make_shared<PrefixAdapter>("fc.", "dense.");
    auto second = std::make_shared<PrefixAdapter>("dense.", "layer0.");
    MemoryStore ab;
    ab.with_save_adapter(std::make_shared<store::ChainAdapter>(
        std::vector<std::shared_ptr<const store::Adapter>>{first, second}));
    a.save_into(ab);
    // fc. -> dense. -> layer0.
    EXPECT_EQ(names(ab),
              (std::vector<std::string>{"layer0.weight", "layer0.bias", "norm.gamma", "norm.beta"}));
    MemoryStore ba;
    ba.with_save_adapter(std::make_shared<store::ChainAdapter>(
        std::vector<std::shared_ptr<const store::Adapter>>{second, first}));
    a.save_into(ba);
    // the second adapter sees fc. first and leaves it; the first then makes it dense.
    EXPECT_EQ(names(ba), (std::vector<std::string>{"dense.weight", "dense.bias", "norm.gamma", "norm.beta"}));

    // Loading undoes the renames when the chain runs them in the reverse order: layer0. -> dense. -> fc.
    ab.with_load_adapter(std::make_shared<store::ChainAdapter>(
        std::vector<std::shared_ptr<const store::Adapter>>{second, first}));
    Tiny b = make_tiny(d);
    EXPECT_TRUE(b.load_from(ab).is_success());
    EXPECT_EQ(values(b), values(a));
    // In the save order it stops at dense.: the module's fc. tensors are missing.
    ab.with_load_adapter(std::make_shared<store::ChainAdapter>(
        std::vector<std::shared_ptr<const store::Adapter>>{first, second}));
    Tiny c = make_tiny(d);
    auto r = c.load_from(ab.allow_partial(true));
    EXPECT_EQ(r.missing, (std::vector<std::string>{"fc.weight", "fc.bias"}));
    EXPECT_EQ(r.applied.size(), 2u);
}

TEST(StoreCustom, ChainOfPytorchNamesAndHalfPrecision) {
    const Device d = Device::cpu();
    Tiny a = make_tiny(d);
    a.fc.weight.set(Tensor<2>::from_floats({{0.1, 1.0 / 3, 1.0}, {-2.5, 1000.1, -0.7}}, d));
    a.norm.gamma.set(Tensor<1>::from_floats({0.1, -0.7}, d));
    MemoryStore st;
    st.with_save_adapter(std::make_shared<store::ChainAdapter>(
        std::vector<std::shared_ptr<const store::Adapter>>{std::make_shared<store::BurnToPytorchAdapter>(),
                                                           std::make_shared<store::HalfPrecisionAdapter>()}));
    a.save_into(st);
    // PyTorch's LayerNorm names, every tensor in f16.
    EXPECT_EQ(names(st), (std::vector<std::string>{"fc.weight", "fc.bias", "norm.weight", "norm.bias"}));
    for (const auto& [n, data] : st.saved) EXPECT_EQ(data.dtype(), DType::f16) << n;

    // Strict dtypes: without the half-precision adapter in the load chain the f16 file does not load.
    st.dtype_policy(store::DTypePolicy::strict);
    st.with_load_adapter(std::make_shared<store::PytorchAdapter>());
    Tiny b = make_tiny(d);
    EXPECT_THROW(b.load_from(st), Error);
    st.with_load_adapter(
        std::make_shared<store::ChainAdapter>(std::vector<std::shared_ptr<const store::Adapter>>{
            std::make_shared<store::PytorchAdapter>(), std::make_shared<store::HalfPrecisionAdapter>()}));
    auto report = b.load_from(st);
    EXPECT_TRUE(report.is_success()) << report;
    // The nearest f16 values (10-bit mantissa): 0.1 -> 1638 / 2^14, 1/3 -> 2730 / 2^13, 1000.1 -> 1000
    // (spacing 0.5), -0.7 -> -1434 / 2^11.
    auto v = values(b);
    EXPECT_EQ(v["fc.weight"],
              (std::vector<double>{0.0999755859375, 0.333251953125, 1.0, -2.5, 1000.0, -0.7001953125}));
    EXPECT_EQ(v["norm.gamma"], (std::vector<double>{0.0999755859375, -0.7001953125}));
}

}  // namespace custom_store_test
