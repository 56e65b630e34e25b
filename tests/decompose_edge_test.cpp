// Decompositions at the edges the op database's sample domains do not reach: tiny, huge and
// half-way values, infinities and NaN for the float rows; the extremes of each integer dtype; the
// window rules of max_pool2d (the last NaN wins, a window of -inf keeps its first real position).
// Each case runs the CPU kernel and the row's decomposition (decompose_devices.hpp) on the same input.
#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <cmath>
#include <functional>
#include <limits>
#include <sstream>

#include "decompose_devices.hpp"
#include "op_db.hpp"
#include "ops/decompose.hpp"

namespace burn::decompose_edge_test {
namespace {

using Fn = std::function<TensorAny(const std::vector<TensorAny>&)>;

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

/// The kernel's and the decomposition's outputs of fn(inputs), each output's host data.
struct Pair {
    std::vector<TensorData> kernel, decomposed;
};

Pair both(const testing::DecomposeDevices& devices, OpId op, const std::vector<TensorData>& inputs,
          const std::function<std::vector<TensorAny>(const std::vector<TensorAny>&)>& fn) {
    auto run = [&](const Device& d) {
        std::vector<TensorAny> in;
        for (const auto& x : inputs) in.push_back(ops::from_data(x, d));
        std::vector<TensorData> out;
        for (const TensorAny& t : fn(in)) out.push_back(ops::into_data(t));
        return out;
    };
    Pair p;
    p.kernel = run(Device::cpu());
    const int before = devices.target_hits();
    p.decomposed = devices.decomposing(op, run);
    EXPECT_GT(devices.target_hits(), before) << op << " was not decomposed";
    return p;
}

/// "" when equal within tol (NaN matches NaN).
std::string mismatch(const TensorData& got, const TensorData& want, opdb::Tol tol, const TensorData& input) {
    std::ostringstream os;
    os.precision(9);
    if (got.dtype() != want.dtype() || got.shape() != want.shape()) {
        os << "decomposition " << got.dtype() << ' ' << got.shape() << ", kernel " << want.dtype() << ' '
           << want.shape();
        return os.str();
    }
    for (int64_t i = 0; i < got.numel(); ++i) {
        const double a = got.value_as_double(i), b = want.value_as_double(i);
        if ((std::isnan(a) && std::isnan(b)) || a == b) continue;
        if (!std::isnan(a) && !std::isnan(b) && std::abs(a - b) <= tol.atol + tol.rtol * std::abs(b))
            continue;
        os << "\n  x = " << (i < input.numel() ? input.value_as_double(i) : kNan) << ": decomposition " << a
           << ", kernel " << b;
    }
    return os.str();
}

TensorAny filled(const TensorAny& like, double v) {
    return ops::full(like.shape(), v, like.dtype(), like.device());
}

opdb::Tol tol_for(DType dt) {
    opdb::Tol t = opdb::default_tol(dt);
    return {2 * t.rtol, 2 * t.atol};
}

const std::vector<double> kFloatEdges = {0,    -0.0, 1e-30, -1e-30, 1e-8,  -1e-8, 1e-4, 0.5, -0.5,  1.5,
                                         -1.5, 2.5,  -2.5,  0.99,   -0.99, 1,     -1,   3,   -3.25, 9.5,
                                         20,   -20,  21,    80,     -80,   88,    -89,  100, -100,  700,
                                         1e4,  -1e4, 1e30,  -1e30,  kInf,  -kInf, kNan};

TEST(DecomposeEdges, FloatUnaryRows) {
    const testing::DecomposeDevices devices;
    const std::vector<std::pair<OpId, std::function<TensorAny(TensorAny)>>> rows = {
        {OpId::neg, [](TensorAny x) { return ops::neg(x); }},
        {OpId::abs, [](TensorAny x) { return ops::abs(x); }},
        {OpId::sign, [](TensorAny x) { return ops::sign(x); }},
        {OpId::recip, [](TensorAny x) { return ops::recip(x); }},
        {OpId::square, [](TensorAny x) { return ops::square(x); }},
        {OpId::log1p, [](TensorAny x) { return ops::log1p(x); }},
        {OpId::cos, [](TensorAny x) { return ops::cos(x); }},
        {OpId::tan, [](TensorAny x) { return ops::tan(x); }},
        {OpId::tanh, [](TensorAny x) { return ops::tanh(x); }},
        {OpId::sinh, [](TensorAny x) { return ops::sinh(x); }},
        {OpId::cosh, [](TensorAny x) { return ops::cosh(x); }},
        {OpId::asin, [](TensorAny x) { return ops::asin(x); }},
        {OpId::acos, [](TensorAny x) { return ops::acos(x); }},
        {OpId::atan, [](TensorAny x) { return ops::atan(x); }},
        {OpId::asinh, [](TensorAny x) { return ops::asinh(x); }},
        {OpId::acosh, [](TensorAny x) { return ops::acosh(x); }},
        {OpId::atanh, [](TensorAny x) { return ops::atanh(x); }},
        {OpId::log2, [](TensorAny x) { return ops::log2(x); }},
        {OpId::rsqrt, [](TensorAny x) { return ops::rsqrt(x); }},
        {OpId::deg2rad, [](TensorAny x) { return ops::deg2rad(x); }},
        {OpId::rad2deg, [](TensorAny x) { return ops::rad2deg(x); }},
        {OpId::hypot, [](TensorAny x) { return ops::hypot(x, ops::flip(x, {0})); }},
        {OpId::ceil, [](TensorAny x) { return ops::ceil(x); }},
        {OpId::round, [](TensorAny x) { return ops::round(x); }},
        {OpId::trunc, [](TensorAny x) { return ops::trunc(x); }},
        {OpId::relu, [](TensorAny x) { return ops::relu(x); }},
        {OpId::leaky_relu, [](TensorAny x) { return ops::leaky_relu(x, 0.01); }},
        {OpId::sigmoid, [](TensorAny x) { return ops::sigmoid(x); }},
        {OpId::silu, [](TensorAny x) { return ops::silu(x); }},
        {OpId::gelu, [](TensorAny x) { return ops::gelu(x); }},
        {OpId::gelu_tanh, [](TensorAny x) { return ops::gelu_tanh(x); }},
        {OpId::softplus, [](TensorAny x) { return ops::softplus(x, 1, 20); }},
        {OpId::softplus, [](TensorAny x) { return ops::softplus(x, 2, 5); }},
        {OpId::clamp, [](TensorAny x) { return ops::clamp(x, -1.5, 2.25); }},
        {OpId::powi_scalar, [](TensorAny x) { return ops::powi_scalar(x, 3); }},
        {OpId::powi_scalar, [](TensorAny x) { return ops::powi_scalar(x, -2); }},
        {OpId::is_nan, [](TensorAny x) { return ops::is_nan(x); }},
        {OpId::is_inf, [](TensorAny x) { return ops::is_inf(x); }},
        {OpId::is_finite, [](TensorAny x) { return ops::is_finite(x); }},
        {OpId::gelu_backward, [](TensorAny x) { return ops::gelu_backward(x, filled(x, 0.75)); }},
        {OpId::relu_backward, [](TensorAny x) { return ops::relu_backward(x, filled(x, 0.75)); }},
    };
    for (DType dt : opdb::kFloat) {
        const TensorData x = opdb::data_of(Dims{static_cast<int64_t>(kFloatEdges.size())}, kFloatEdges, dt);
        for (const auto& [op, fn] : rows) {
            SCOPED_TRACE(::testing::Message() << op << " " << dt);
            Pair p = both(devices, op, {x}, [&fn = fn](const std::vector<TensorAny>& in) {
                return std::vector<TensorAny>{fn(in[0])};
            });
            const std::string diff = mismatch(p.decomposed[0], p.kernel[0], tol_for(p.kernel[0].dtype()), x);
            EXPECT_TRUE(diff.empty()) << diff;
        }
    }
}

TEST(DecomposeEdges, FloatBinaryRows) {
    const testing::DecomposeDevices devices;
    std::vector<double> a, b;
    for (double u : {-kInf, -2.0, -0.0, 0.0, 1.5, kInf, kNan})
        for (double v : {-kInf, -2.0, -0.0, 0.0, 1.5, kInf, kNan}) {
            a.push_back(u);
            b.push_back(v);
        }
    const std::vector<std::pair<OpId, std::function<TensorAny(TensorAny, TensorAny)>>> rows = {
        {OpId::max_pair, [](TensorAny x, TensorAny y) { return ops::max_pair(x, y); }},
        {OpId::min_pair, [](TensorAny x, TensorAny y) { return ops::min_pair(x, y); }},
        {OpId::not_equal, [](TensorAny x, TensorAny y) { return ops::not_equal(x, y); }},
        {OpId::lower, [](TensorAny x, TensorAny y) { return ops::lower(x, y); }},
        {OpId::greater_equal, [](TensorAny x, TensorAny y) { return ops::greater_equal(x, y); }},
        {OpId::lower_equal, [](TensorAny x, TensorAny y) { return ops::lower_equal(x, y); }},
        {OpId::fmod, [](TensorAny x, TensorAny y) { return ops::fmod(x, y); }},
    };
    for (DType dt : opdb::kFloat) {
        const Dims s{static_cast<int64_t>(a.size())};
        const TensorData x = opdb::data_of(s, a, dt), y = opdb::data_of(s, b, dt);
        for (const auto& [op, fn] : rows) {
            SCOPED_TRACE(::testing::Message() << op << " " << dt);
            Pair p = both(devices, op, {x, y}, [&fn = fn](const std::vector<TensorAny>& in) {
                return std::vector<TensorAny>{fn(in[0], in[1])};
            });
            EXPECT_TRUE(mismatch(p.decomposed[0], p.kernel[0], {}, x).empty())
                << mismatch(p.decomposed[0], p.kernel[0], {}, x);
        }
    }
}

TEST(DecomposeEdges, IntegerRows) {
    const testing::DecomposeDevices devices;
    const std::vector<std::pair<OpId, std::function<TensorAny(TensorAny)>>> rows = {
        {OpId::neg, [](TensorAny x) { return ops::neg(x); }},
        {OpId::abs, [](TensorAny x) { return ops::abs(x); }},
        {OpId::sign, [](TensorAny x) { return ops::sign(x); }},
        {OpId::square, [](TensorAny x) { return ops::square(x); }},
        {OpId::relu, [](TensorAny x) { return ops::relu(x); }},
        {OpId::clamp, [](TensorAny x) { return ops::clamp(x, -1.5, 2.5); }},
        {OpId::clamp, [](TensorAny x) { return ops::clamp(x, -1000, 1000); }},
        {OpId::powi_scalar, [](TensorAny x) { return ops::powi_scalar(x, 0); }},
        {OpId::powi_scalar, [](TensorAny x) { return ops::powi_scalar(x, 3); }},  // 127^3 fits i32
        {OpId::powi_scalar, [](TensorAny x) { return ops::powi_scalar(x, -1); }},
        {OpId::powi_scalar, [](TensorAny x) { return ops::powi_scalar(x, -2); }},
        {OpId::relu_backward, [](TensorAny x) { return ops::relu_backward(x, filled(x, 7)); }},
        {OpId::fmod, [](TensorAny x) { return ops::fmod(x, ops::flip(x, {0})); }},
        {OpId::is_finite, [](TensorAny x) { return ops::is_finite(x); }},
        {OpId::max_pair, [](TensorAny x) { return ops::max_pair(x, ops::flip(x, {0})); }},
        {OpId::min_pair, [](TensorAny x) { return ops::min_pair(x, ops::flip(x, {0})); }},
        {OpId::mean_dim, [](TensorAny x) { return ops::mean_dim(x, 0); }},
        {OpId::min_dim, [](TensorAny x) { return ops::min_dim(x, 0); }},
        {OpId::argmin, [](TensorAny x) { return ops::argmin(x, 0); }},
        {OpId::argmax, [](TensorAny x) { return ops::argmax(x, 0); }},
    };
    for (DType dt : opdb::kInt) {
        std::vector<double> v = {-128, -127, -3, -1, 0, 1, 2, 3, 100, 100, 127, -128};
        if (dt == DType::u8) v = {0, 1, 2, 3, 100, 128, 200, 254, 255, 255, 0, 7};
        // No i32/i64 extremes: negating, squaring or raising them overflows, which is undefined behaviour in
        // the kernels (UBSan stops the ASan suite); the 8-bit types wrap through int promotion.
        const TensorData x = opdb::data_of(Dims{static_cast<int64_t>(v.size())}, v, dt);
        for (const auto& [op, fn] : rows) {
            SCOPED_TRACE(::testing::Message() << op << " " << dt);
            Pair p = both(devices, op, {x}, [&fn = fn](const std::vector<TensorAny>& in) {
                return std::vector<TensorAny>{fn(in[0])};
            });
            EXPECT_TRUE(p.decomposed[0] == p.kernel[0]) << mismatch(p.decomposed[0], p.kernel[0], {}, x);
        }
    }
}

TEST(DecomposeEdges, BoolReductions) {
    const testing::DecomposeDevices devices;
    const TensorData f = opdb::data_of(Dims{2, 4}, {0, kNan, -0.0, 0, 0, 0, 0, 0}, DType::f32);
    const TensorData e = opdb::data_of(Dims{3, 0}, {}, DType::f32);
    for (const TensorData& x : {f, e})
        for (OpId op : {OpId::any_dim, OpId::all_dim})
            for (int64_t d : {0, 1}) {
                SCOPED_TRACE(::testing::Message() << op << " dim " << d << " of " << x.shape());
                Pair p = both(devices, op, {x}, [op, d](const std::vector<TensorAny>& in) {
                    return std::vector<TensorAny>{op == OpId::any_dim ? ops::any_dim(in[0], d)
                                                                      : ops::all_dim(in[0], d)};
                });
                EXPECT_TRUE(p.decomposed[0] == p.kernel[0]) << mismatch(p.decomposed[0], p.kernel[0], {}, x);
            }
}

TEST(DecomposeEdges, MaxPoolWindowRules) {
    const testing::DecomposeDevices devices;
    // NaN twice in the first windows (the kernel keeps the last), a block of -inf (the first real
    // position wins), ties (the first maximum wins).
    const std::vector<double> v = {1,     kNan,  2,    kNan, 5,     -kInf, -kInf, 3, 3, -kInf, -kInf, 0,
                                   kNan,  -kInf, 4,    4,    -kInf, -kInf, -kInf, 7, 2, 2,     -kInf, -kInf,
                                   -kInf, 1,     kNan, 0,    -kInf, -kInf, -kInf, 9, 9, 9,     -1,    -kInf};
    const TensorData x = opdb::data_of(Dims{1, 1, 6, 6}, v, DType::f32);
    struct Case {
        std::array<std::size_t, 2> k, s, p, d;
        bool ceil;
    };
    for (const Case& c :
         {Case{{2, 2}, {2, 2}, {0, 0}, {1, 1}, false}, Case{{3, 3}, {2, 2}, {1, 1}, {1, 1}, true},
          Case{{2, 3}, {1, 2}, {1, 1}, {2, 1}, false}, Case{{3, 2}, {3, 1}, {1, 0}, {1, 2}, true}})
        for (DType dt : opdb::kFloat) {
            SCOPED_TRACE(::testing::Message()
                         << "kernel " << c.k[0] << "x" << c.k[1] << " stride " << c.s[0] << "x" << c.s[1]
                         << " pad " << c.p[0] << "x" << c.p[1] << " " << dt);
            Pair p = both(devices, OpId::max_pool2d, {x.convert(dt)}, [&c](const std::vector<TensorAny>& in) {
                auto [values, indices] = ops::max_pool2d_with_indices(in[0], c.k, c.s, c.p, c.d, c.ceil);
                return std::vector<TensorAny>{values, indices};
            });
            EXPECT_TRUE(mismatch(p.decomposed[0], p.kernel[0], {}, x).empty())
                << mismatch(p.decomposed[0], p.kernel[0], {}, x);
            EXPECT_TRUE(p.decomposed[1] == p.kernel[1]) << mismatch(p.decomposed[1], p.kernel[1], {}, x);
        }
}

}  // namespace
}  // namespace burn::decompose_edge_test
