#pragma once
// Shared by the optimizer tests: the fixture files and a three-parameter model.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "burn/burn.hpp"
#include "burn/config/value.hpp"
#include "fixture_root.hpp"

namespace burn::optim_test {

/// tests/fixtures/optim/<name>, made by scripts/gen_optim_fixtures.py.
inline config::Value load_fixture(const std::string& name) {
    auto path = burn::testing::fixture_root() / "optim" / name;
    std::ifstream in(path);
    EXPECT_TRUE(in.good()) << "missing fixture " << path
                           << "; run /usr/bin/python3 scripts/gen_optim_fixtures.py";
    std::stringstream text;
    text << in.rdbuf();
    return config::parse(text.str(), path.string());
}

inline std::vector<double> doubles(const config::Value& array) {
    std::vector<double> out;
    for (std::size_t i = 0; i < array.size(); ++i) out.push_back(array[i].as_double());
    return out;
}

/// The fixtures' model: paths "weight" [3, 4], "bias" [5], "extra" [2, 3, 2].
struct Model {
    Param<Tensor<2>> weight;
    Param<Tensor<1>> bias;
    Param<Tensor<3>> extra;
    BURN_MODULE(Model, weight, bias, extra)
};

inline TensorAny tensor_of(const std::vector<double>& values, const Dims& shape, const Device& device,
                           DType dtype) {
    return ops::cast(ops::from_data(TensorData(values, shape), device), dtype);
}

/// The parameters' values in declaration order, as doubles.
inline std::vector<std::vector<double>> values_of(const Model& m) {
    std::vector<std::vector<double>> out;
    m.visit_params([&](const std::string&, const auto& p) {
        TensorData data = ops::into_data(ops::cast(p.val().handle(), DType::f64));
        out.push_back(data.to_vec<double>());
    });
    return out;
}

/// |a - b| <= rel * |b| + abs elementwise; returns the largest relative error seen.
inline double expect_close(const std::vector<double>& got, const std::vector<double>& want, double rel,
                           double abs, const std::string& what) {
    EXPECT_EQ(got.size(), want.size()) << what;
    double worst = 0.0;
    for (std::size_t i = 0; i < got.size() && i < want.size(); ++i) {
        double err = std::abs(got[i] - want[i]);
        worst = std::max(worst, err / std::max(std::abs(want[i]), 1e-300));
        EXPECT_LE(err, rel * std::abs(want[i]) + abs)
            << what << " element " << i << ": got " << got[i] << ", torch " << want[i];
    }
    return worst;
}

}  // namespace burn::optim_test
