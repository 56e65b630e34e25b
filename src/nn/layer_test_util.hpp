#pragma once
// Shared helpers of the nn layer tests: PyTorch fixtures (tests/fixtures/nn_layers/*.json, written by
// scripts/gen_layer_fixtures.py) loaded with burn::config::parse, parameters copied into modules by
// path, and element-wise comparisons.
#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "fixture_root.hpp"

namespace burn::nn_test {

inline std::filesystem::path fixture_dir() {
    return burn::testing::fixture_root() / "nn_layers";
}

struct Fixture {
    std::string name;
    config::Value config;
    std::map<std::string, TensorData> tensors;

    bool has(const std::string& key) const { return tensors.count(key) != 0; }
    const TensorData& at(const std::string& key) const {
        auto it = tensors.find(key);
        if (it == tensors.end()) throw std::runtime_error("fixture " + name + " has no tensor '" + key + "'");
        return it->second;
    }
    template <std::size_t D>
    Tensor<D> floats(const std::string& key, const Device& device = Device()) const {
        return Tensor<D>::from_data(at(key), device);
    }
    template <std::size_t D>
    Tensor<D, Int> ints(const std::string& key, const Device& device = Device()) const {
        return floats<D>(key, device).int_();
    }
    template <std::size_t D>
    Tensor<D, Bool> bools(const std::string& key, const Device& device = Device()) const {
        return floats<D>(key, device).greater_elem(0.5);
    }
    double cfg(const std::string& key) const { return config.at(key).as_double(); }
    std::size_t cfg_size(const std::string& key) const {
        return static_cast<std::size_t>(config.at(key).as_uint64());
    }
};

inline Fixture load_fixture(const std::string& name) {
    std::filesystem::path path = fixture_dir() / (name + ".json");
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open fixture " + path.string());
    std::stringstream ss;
    ss << in.rdbuf();
    config::Value root = config::parse(ss.str(), path.string());
    Fixture f;
    f.name = name;
    f.config = root.at("config");
    for (const auto& [key, t] : root.at("tensors").as_object()) {
        Dims shape;
        for (const auto& d : t.at("shape").as_array()) shape.push_back(d.as_int64());
        std::vector<float> data;
        for (const auto& v : t.at("data").as_array()) data.push_back(static_cast<float>(v.as_double()));
        f.tensors.emplace(key, TensorData(data, shape));
    }
    return f;
}

/// |a - e| <= atol + rtol |e| element-wise, with the worst element in the message.
inline ::testing::AssertionResult close(const TensorData& actual, const TensorData& expected,
                                        double atol = 1e-5, double rtol = 1e-5) {
    if (actual.shape() != expected.shape())
        return ::testing::AssertionFailure()
               << "shape " << actual.shape() << " vs expected " << expected.shape();
    double worst = 0;
    int64_t at = -1;
    for (int64_t i = 0; i < actual.numel(); ++i) {
        const double a = actual.value_as_double(i), e = expected.value_as_double(i);
        const double excess = std::abs(a - e) - (atol + rtol * std::abs(e));
        if (!(excess <= 0) && (at < 0 || !(excess <= worst))) {
            worst = excess;
            at = i;
        }
    }
    if (at < 0) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure()
           << "element " << at << ": " << actual.value_as_double(at) << " vs expected "
           << expected.value_as_double(at) << " (shape " << actual.shape() << ")";
}
template <std::size_t D, class K>
::testing::AssertionResult close(const Tensor<D, K>& actual, const TensorData& expected, double atol = 1e-5,
                                 double rtol = 1e-5) {
    if (!actual.defined()) return ::testing::AssertionFailure() << "undefined tensor";
    return close(actual.into_data().convert(DType::f32), expected, atol, rtol);
}

/// Copies "param.<path>" of the fixture into every parameter of m; a missing key or a shape mismatch
/// fails the test (so the burn paths and the PyTorch mapping are checked too). Returns the count.
template <class M>
std::size_t load_params(M& m, const Fixture& f, const Device& device = Device()) {
    std::size_t n = 0;
    module::visit_params_mut(m, [&](const std::string& path, auto& p) {
        using T = typename std::remove_reference_t<decltype(p)>::value_type;
        const std::string key = "param." + path;
        if (!f.has(key)) {
            ADD_FAILURE() << f.name << ": no fixture tensor for parameter " << path;
            return;
        }
        const TensorData& d = f.at(key);
        if (d.shape() != p.val().shape()) {
            ADD_FAILURE() << f.name << ": parameter " << path << " is " << p.val().shape()
                          << " but the fixture has " << d.shape();
            return;
        }
        p.set(T(ops::from_data(d, device)));
        ++n;
    });
    return n;
}

/// Every fixture "grad.param.<path>" against the parameter's gradient.
template <class M>
void expect_param_grads(const M& m, const Fixture& f, const Gradients& grads, double atol = 1e-5,
                        double rtol = 1e-4) {
    std::size_t checked = 0;
    module::visit_params(m, [&](const std::string& path, const auto& p) {
        const std::string key = "grad.param." + path;
        if (!f.has(key)) return;
        auto g = p.val().grad(grads);
        ASSERT_TRUE(g.has_value()) << "no gradient for " << path;
        EXPECT_TRUE(close(*g, f.at(key), atol, rtol)) << "gradient of " << path;
        ++checked;
    });
    EXPECT_GT(checked, 0u) << f.name << ": no parameter gradient was compared";
}

/// Output y against f[key], then the gradient of sum(y * f["r." + key]) for each leaf (name, tensor)
/// against f["g." + key + "." + name] (the fixtures of scripts/gen_module_extra_fixtures.py).
template <std::size_t D>
void expect_output_and_grads(const Fixture& f, const std::string& key, const Tensor<D>& y,
                             const std::vector<std::pair<std::string, TensorAny>>& leaves, double atol = 1e-5,
                             double rtol = 1e-4) {
    EXPECT_TRUE(close(y, f.at(key), atol, rtol)) << key;
    auto grads = (y * f.floats<D>("r." + key, y.device())).sum().backward();
    for (const auto& [name, leaf] : leaves) {
        auto g = ops::grad(leaf, grads);
        ASSERT_TRUE(g.has_value()) << key << ": no gradient for " << name;
        EXPECT_TRUE(close(ops::into_data(*g).convert(DType::f32), f.at("g." + key + "." + name), atol, rtol))
            << key << ": gradient of " << name;
    }
}

/// Runs fn, which must throw a burn::Error whose message contains every one of parts.
template <class Fn>
void expect_error_mentions(Fn&& fn, const std::vector<std::string>& parts) {
    try {
        fn();
        ADD_FAILURE() << "no error was thrown";
    } catch (const Error& e) {
        const std::string msg = e.what();
        for (const auto& p : parts)
            EXPECT_NE(msg.find(p), std::string::npos) << "'" << p << "' not in: " << msg;
    }
}

/// The same values as x, reached through a transposed view of a copy (non-contiguous).
template <std::size_t D>
Tensor<D> as_view(const Tensor<D>& x) {
    Tensor<D> t(ops::contiguous(x.swap_dims(0, D - 1).handle()));
    return t.swap_dims(0, D - 1);
}

}  // namespace burn::nn_test
