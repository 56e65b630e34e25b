// The random ops (ops_random.cpp): RandomUniform(Like), RandomNormal(Like), Bernoulli, Multinomial.
// ONNX's node cases of these ops hold NumPy's random values, which burn's Philox streams cannot match,
// so these tests check what the spec promises instead: shapes, dtypes, ranges, sample statistics
// (10,000 samples, tolerances of about five standard errors), and that a seed fixes the values.
// Models are built in memory with protobuf.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <burn/burn.hpp>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "burn/onnx/model.hpp"

namespace burn::onnx::random_test {
namespace {

using ::onnx::TensorProto;

/// One node of op_type (opset 17) with one graph input x (when x_type != 0) and one output y.
struct OneNode {
    ::onnx::ModelProto m;
    ::onnx::NodeProto* node = nullptr;

    OneNode(const std::string& op_type, int x_type = 0, std::vector<int64_t> x_shape = {}) {
        m.set_ir_version(8);
        m.add_opset_import()->set_version(17);
        auto* g = m.mutable_graph();
        g->set_name("g");
        node = g->add_node();
        node->set_op_type(op_type);
        node->set_name("r");
        if (x_type != 0) {
            auto* v = g->add_input();
            v->set_name("x");
            auto* t = v->mutable_type()->mutable_tensor_type();
            t->set_elem_type(x_type);
            for (int64_t d : x_shape) t->mutable_shape()->add_dim()->set_dim_value(d);
            node->add_input("x");
        }
        node->add_output("y");
        g->add_output()->set_name("y");
    }
    OneNode& i(const std::string& name, int64_t v) {
        auto* a = node->add_attribute();
        a->set_name(name);
        a->set_type(::onnx::AttributeProto::INT);
        a->set_i(v);
        return *this;
    }
    OneNode& f(const std::string& name, float v) {
        auto* a = node->add_attribute();
        a->set_name(name);
        a->set_type(::onnx::AttributeProto::FLOAT);
        a->set_f(v);
        return *this;
    }
    OneNode& ints(const std::string& name, const std::vector<int64_t>& v) {
        auto* a = node->add_attribute();
        a->set_name(name);
        a->set_type(::onnx::AttributeProto::INTS);
        for (int64_t x : v) a->add_ints(x);
        return *this;
    }
    Model load() const {
        std::string bytes;
        m.SerializeToString(&bytes);
        return Model::from_bytes(bytes, Device::cpu(), "", "random.onnx");
    }
};

TensorAny run1(const Model& model, std::vector<TensorAny> inputs = {}) {
    return model.run(inputs).at(0);
}

std::vector<double> values(const TensorAny& y) {
    return ops::into_data(ops::cast(y, DType::f64)).to_vec<double>();
}

double mean_of(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return s / static_cast<double>(v.size());
}

double std_of(const std::vector<double>& v) {
    const double m = mean_of(v);
    double s = 0;
    for (double x : v) s += (x - m) * (x - m);
    return std::sqrt(s / static_cast<double>(v.size() - 1));
}

std::string error_of(const OneNode& n, std::vector<TensorAny> inputs = {}) {
    try {
        (void)run1(n.load(), std::move(inputs));
    } catch (const Error& e) {
        return e.what();
    }
    return "(no error)";
}

#define EXPECT_HAS(text, part) EXPECT_NE((text).find(part), std::string::npos) << (text)

TEST(OnnxRandom, UniformShapeDtypeRangeAndMoments) {
    const TensorAny y =
        run1(OneNode("RandomUniform").ints("shape", {100, 100}).f("low", -2).f("high", 3).load());
    EXPECT_EQ(y.dtype(), DType::f32);
    EXPECT_EQ(y.shape(), (Dims{100, 100}));
    const std::vector<double> v = values(y);
    for (double x : v) ASSERT_TRUE(x >= -2 && x < 3) << x;
    // mean 0.5, std 5 / sqrt(12) = 1.443; the mean's standard error is 0.0144
    EXPECT_NEAR(mean_of(v), 0.5, 0.075);
    EXPECT_NEAR(std_of(v), 5 / std::sqrt(12.0), 0.05);

    for (int code : {TensorProto::DOUBLE, TensorProto::FLOAT16}) {
        const TensorAny z = run1(OneNode("RandomUniform").ints("shape", {3, 0, 2}).i("dtype", code).load());
        EXPECT_EQ(z.dtype(), code == TensorProto::DOUBLE ? DType::f64 : DType::f16);
        EXPECT_EQ(z.shape(), (Dims{3, 0, 2}));
    }
    // f16 rounds values just below high up to it: they must still stay below high
    const std::vector<double> h =
        values(run1(OneNode("RandomUniform").ints("shape", {10000}).i("dtype", TensorProto::FLOAT16).load()));
    for (double x : h) ASSERT_TRUE(x >= 0 && x < 1) << x;
}

TEST(OnnxRandom, NormalMoments) {
    const TensorAny y = run1(OneNode("RandomNormal")
                                 .ints("shape", {10000})
                                 .f("mean", 3)
                                 .f("scale", 2)
                                 .i("dtype", TensorProto::DOUBLE)
                                 .load());
    EXPECT_EQ(y.dtype(), DType::f64);
    EXPECT_EQ(y.shape(), (Dims{10000}));
    const std::vector<double> v = values(y);
    EXPECT_NEAR(mean_of(v), 3.0, 0.1);   // standard error 0.02
    EXPECT_NEAR(std_of(v), 2.0, 0.075);  // standard error 0.014
    int within = 0;                      // about 68.3% within one std
    for (double x : v) within += std::abs(x - 3) < 2;
    EXPECT_NEAR(within / 10000.0, 0.683, 0.025);
}

TEST(OnnxRandom, LikeOpsTakeTheInputsShapeAndDtype) {
    const TensorAny x = ops::full(Dims{40, 250}, 7, DType::f64, Device::cpu());
    const TensorAny u = run1(
        OneNode("RandomUniformLike", TensorProto::DOUBLE, {40, 250}).f("low", 5).f("high", 6).load(), {x});
    EXPECT_EQ(u.dtype(), DType::f64);
    EXPECT_EQ(u.shape(), (Dims{40, 250}));
    const std::vector<double> uv = values(u);
    for (double v : uv) ASSERT_TRUE(v >= 5 && v < 6) << v;
    EXPECT_NEAR(mean_of(uv), 5.5, 0.015);

    // an integer input with dtype FLOAT: the output is f32 of the input's shape
    const TensorAny xi = ops::full(Dims{10000}, 1, DType::i64, Device::cpu());
    const TensorAny n = run1(OneNode("RandomNormalLike", TensorProto::INT64, {10000})
                                 .i("dtype", TensorProto::FLOAT)
                                 .f("mean", -1)
                                 .f("scale", 0.5)
                                 .load(),
                             {xi});
    EXPECT_EQ(n.dtype(), DType::f32);
    EXPECT_EQ(n.shape(), (Dims{10000}));
    EXPECT_NEAR(mean_of(values(n)), -1, 0.025);
    EXPECT_NEAR(std_of(values(n)), 0.5, 0.02);

    // without dtype, an integer input cannot give the (float) output's type
    EXPECT_HAS(error_of(OneNode("RandomNormalLike", TensorProto::INT64, {10000}), {xi}),
               "node 'r' (RandomNormalLike): the output's dtype must be a float type");
}

TEST(OnnxRandom, SameSeedSameValues) {
    auto uniform = [](float seed) { return OneNode("RandomUniform").ints("shape", {1000}).f("seed", seed); };
    const Model a = uniform(5).load(), b = uniform(5).load(), other = uniform(6).load();
    const TensorData a1 = ops::into_data(run1(a)), a2 = ops::into_data(run1(a));
    EXPECT_EQ(a1, a2);                           // one model, two runs
    EXPECT_EQ(a1, ops::into_data(run1(b)));      // two models, one seed
    EXPECT_NE(a1, ops::into_data(run1(other)));  // another seed

    const Model n = OneNode("RandomNormal").ints("shape", {1000}).f("seed", 1.5f).load();
    EXPECT_EQ(ops::into_data(run1(n)), ops::into_data(run1(n)));

    // without a seed every run draws new values
    const Model free = OneNode("RandomUniform").ints("shape", {1000}).load();
    EXPECT_NE(ops::into_data(run1(free)), ops::into_data(run1(free)));

    const TensorAny p = ops::full(Dims{1000}, 0.5, DType::f32, Device::cpu());
    const Model bern = OneNode("Bernoulli", TensorProto::FLOAT, {1000}).f("seed", 3).load();
    EXPECT_EQ(ops::into_data(run1(bern, {p})), ops::into_data(run1(bern, {p})));

    const TensorAny logits = ops::full(Dims{2, 4}, 0, DType::f32, Device::cpu());
    const Model multi =
        OneNode("Multinomial", TensorProto::FLOAT, {2, 4}).i("sample_size", 500).f("seed", 3).load();
    EXPECT_EQ(ops::into_data(run1(multi, {logits})), ops::into_data(run1(multi, {logits})));
}

TEST(OnnxRandom, BernoulliRate) {
    const TensorAny p = ops::full(Dims{100, 100}, 0.3, DType::f32, Device::cpu());
    const TensorAny y = run1(OneNode("Bernoulli", TensorProto::FLOAT, {100, 100}).load(), {p});
    EXPECT_EQ(y.dtype(), DType::f32);  // the input's dtype by default
    EXPECT_EQ(y.shape(), (Dims{100, 100}));
    const std::vector<double> v = values(y);
    for (double x : v) ASSERT_TRUE(x == 0 || x == 1) << x;
    EXPECT_NEAR(mean_of(v), 0.3, 0.025);  // standard error 0.0046

    // per-element probabilities 0 and 1 are exact; dtype BOOL and INT32 outputs
    const TensorAny q =
        ops::from_data(TensorData(std::vector<double>{0, 1, 0, 1, 1, 0}, Dims{6}), Device::cpu());
    const TensorAny b =
        run1(OneNode("Bernoulli", TensorProto::DOUBLE, {6}).i("dtype", TensorProto::BOOL).load(), {q});
    EXPECT_EQ(b.dtype(), DType::boolean);
    EXPECT_EQ(ops::into_data(b).to_vec<bool>(), (std::vector<bool>{false, true, false, true, true, false}));
    const TensorAny i =
        run1(OneNode("Bernoulli", TensorProto::DOUBLE, {6}).i("dtype", TensorProto::INT32).load(), {q});
    EXPECT_EQ(ops::into_data(i).to_vec<int32_t>(), (std::vector<int32_t>{0, 1, 0, 1, 1, 0}));
}

TEST(OnnxRandom, MultinomialClassFrequencies) {
    // row 0: probabilities 0.1, 0.2, 0.7, 0; row 1: uniform over the four classes (log-probabilities)
    const float ninf = -std::numeric_limits<float>::infinity();
    const TensorAny x = ops::from_data(
        TensorData(std::vector<float>{std::log(0.1f), std::log(0.2f), std::log(0.7f), ninf, 2, 2, 2, 2},
                   Dims{2, 4}),
        Device::cpu());
    const int64_t ns = 10000;
    const TensorAny y = run1(OneNode("Multinomial", TensorProto::FLOAT, {2, 4})
                                 .i("sample_size", ns)
                                 .i("dtype", TensorProto::INT64)
                                 .load(),
                             {x});
    EXPECT_EQ(y.dtype(), DType::i64);
    EXPECT_EQ(y.shape(), (Dims{2, ns}));
    const std::vector<int64_t> v = ops::into_data(y).to_vec<int64_t>();
    std::vector<double> freq(8, 0);
    for (int64_t r = 0; r < 2; ++r)
        for (int64_t s = 0; s < ns; ++s) {
            const int64_t k = v[static_cast<std::size_t>(r * ns + s)];
            ASSERT_TRUE(k >= 0 && k < 4) << k;
            freq[static_cast<std::size_t>(r * 4 + k)] += 1.0 / static_cast<double>(ns);
        }
    const std::vector<double> want{0.1, 0.2, 0.7, 0, 0.25, 0.25, 0.25, 0.25};
    for (std::size_t k = 0; k < 8; ++k)
        EXPECT_NEAR(freq[k], want[k], 0.025) << "class " << k % 4 << " of row " << k / 4;
    EXPECT_EQ(freq[3], 0);  // probability 0 is never drawn

    // the default: one int32 sample per row
    const TensorAny one = run1(OneNode("Multinomial", TensorProto::FLOAT, {2, 4}).load(), {x});
    EXPECT_EQ(one.dtype(), DType::i32);
    EXPECT_EQ(one.shape(), (Dims{2, 1}));
}

TEST(OnnxRandom, BadAttributesAreErrors) {
    EXPECT_HAS(error_of(OneNode("RandomNormal").ints("shape", {3}).f("scale", -1)),
               "node 'r' (RandomNormal): needs a finite mean and scale >= 0");
    EXPECT_HAS(error_of(OneNode("RandomUniform").ints("shape", {3}).f("low", 2).f("high", 1)),
               "needs finite low <= high");
    EXPECT_HAS(error_of(OneNode("RandomUniform").ints("shape", {3, -1})),
               "attribute 'shape' has a negative dim");
    EXPECT_HAS(error_of(OneNode("RandomUniform")), "needs the attribute 'shape'");
    EXPECT_HAS(error_of(OneNode("RandomUniform").ints("shape", {3}).i("dtype", TensorProto::INT32)),
               "must be a float type");
    const TensorAny x = ops::full(Dims{2, 3}, 0, DType::f32, Device::cpu());
    EXPECT_HAS(
        error_of(OneNode("Multinomial", TensorProto::FLOAT, {2, 3}).i("dtype", TensorProto::FLOAT), {x}),
        "attribute 'dtype' must be INT32 or INT64");
    EXPECT_HAS(error_of(OneNode("Multinomial", TensorProto::FLOAT, {2, 3}).i("sample_size", -2), {x}),
               "attribute 'sample_size' must be >= 0");
}

#undef EXPECT_HAS

}  // namespace
}  // namespace burn::onnx::random_test
