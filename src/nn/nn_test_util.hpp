#pragma once
// Helpers of the layer tests (conv_test.cpp, pool_test.cpp, resample_test.cpp): the PyTorch fixtures in
// tests/fixtures/nn/*.json (written by scripts/gen_conv_fixtures.py, values and gradients in float64)
// and comparisons against them.
#include <gtest/gtest.h>

#include <algorithm>
#include <burn/burn.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "fixture_root.hpp"

namespace burn::nn::testing {

struct Fixture {
    std::string name, op;
    config::Value args;
    std::map<std::string, config::Value> tensors;

    bool has(const std::string& key) const { return tensors.count(key) != 0; }
    const config::Value& at(const std::string& key) const {
        auto it = tensors.find(key);
        if (it == tensors.end()) throw std::runtime_error("fixture " + name + " has no tensor " + key);
        return it->second;
    }
    Dims shape(const std::string& key) const {
        Dims d;
        for (const auto& v : at(key).at("shape").as_array()) d.push_back(v.as_int64());
        return d;
    }
    std::vector<double> values(const std::string& key) const {
        std::vector<double> out;
        for (const auto& v : at(key).at("data").as_array()) out.push_back(v.as_double());
        return out;
    }
    /// The tensor `key` in dtype on device.
    TensorAny tensor(const std::string& key, DType dtype, const Device& device) const {
        return ops::cast(ops::from_data(TensorData(values(key), shape(key)), device), dtype);
    }
    /// args[key] as sizes ("same" padding reads as an empty list).
    std::vector<std::size_t> sizes(const std::string& key) const {
        std::vector<std::size_t> out;
        const config::Value& v = args.at(key);
        if (v.is_array())
            for (const auto& x : v.as_array()) out.push_back(static_cast<std::size_t>(x.as_int64()));
        return out;
    }
    bool flag(const std::string& key) const { return args.at(key).as_bool(); }
    bool is(const std::string& key, const std::string& value) const {
        const config::Value* v = args.find(key);
        return v && v->is_string() && v->as_string() == value;
    }
};

inline std::filesystem::path fixture_dir() {
    return burn::testing::fixture_root() / "nn";
}

/// Every case of tests/fixtures/nn/<file>.json.
inline std::vector<Fixture> load_fixtures(const std::string& file) {
    const auto path = fixture_dir() / (file + ".json");
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read fixture file " + path.string());
    std::stringstream ss;
    ss << in.rdbuf();
    const config::Value doc = config::parse(ss.str(), path.string());
    std::vector<Fixture> out;
    for (const auto& c : doc.at("cases").as_array()) {
        Fixture f;
        f.name = c.at("name").as_string();
        f.op = c.at("op").as_string();
        f.args = c.at("args");
        for (const auto& [k, v] : c.at("tensors").as_object()) f.tensors[k] = v;
        out.push_back(std::move(f));
    }
    return out;
}

/// Tolerance of a dtype against float64 references: |got - want| <= tol * (|want| + scale), where scale
/// is the largest |want| of the tensor (so values near zero are judged against the tensor's size).
inline double tol_of(DType dt) {
    return dt == DType::f64 ? 1e-10 : dt == DType::f32 ? 1e-5 : 2e-2;
}

inline void expect_close(const TensorAny& got, const Fixture& f, const std::string& key, DType dt) {
    SCOPED_TRACE(f.name + " " + key + " in " + std::string(burn::name(dt)));
    ASSERT_TRUE(got.defined()) << "no value";
    ASSERT_EQ(got.shape(), f.shape(key));
    const auto want = f.values(key);
    const auto have = ops::into_data(ops::cast(ops::inner_of(got), DType::f64)).to_vec<double>();
    double scale = 0;
    for (double w : want) scale = std::max(scale, std::abs(w));
    const double tol = tol_of(dt);
    int bad = 0;
    for (std::size_t i = 0; i < want.size(); ++i) {
        if (std::abs(have[i] - want[i]) <= tol * (std::abs(want[i]) + scale)) continue;
        if (bad++ < 5) ADD_FAILURE() << "at " << i << ": got " << have[i] << ", expected " << want[i];
    }
    EXPECT_EQ(bad, 0) << bad << " of " << want.size() << " values differ";
}

/// sum(y * gy) for the fixture's gy: the loss whose gradients the fixture holds.
inline TensorAny weighted_loss(const TensorAny& y, const Fixture& f) {
    return ops::sum(ops::mul(y, f.tensor("gy", y.dtype(), y.device())));
}

/// A parameter holding the fixture tensor `key`.
template <std::size_t D>
Param<Tensor<D>> param_of(const Fixture& f, const std::string& key, DType dt, const Device& d) {
    return Param<Tensor<D>>(Tensor<D>(f.tensor(key, dt, d)));
}

inline std::string error_of(const std::function<void()>& fn) {
    try {
        fn();
    } catch (const burn::Error& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace burn::nn::testing
