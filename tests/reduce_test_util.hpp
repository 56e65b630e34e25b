#pragma once
// Helpers of the reduction tests: tensors from double values through strided views, naive double
// references along one dim of a rank-3 tensor, and tolerant comparison.
#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace reduce_test {

using namespace burn;

inline const double kNaN = std::numeric_limits<double>::quiet_NaN();
inline const double kInf = std::numeric_limits<double>::infinity();

inline TensorAny make(const std::vector<double>& v, const Dims& shape, DType dt) {
    return ops::from_data(TensorData(v, shape).convert(dt), Device());
}

inline std::vector<double> host(const TensorAny& t) {
    TensorData d = ops::into_data(t);
    std::vector<double> out(static_cast<std::size_t>(d.numel()));
    for (int64_t i = 0; i < d.numel(); ++i) out[static_cast<std::size_t>(i)] = d.value_as_double(i);
    return out;
}

/// An int64 value wrapped into an integer dtype, as the kernels' int accumulators do.
inline double wrap(DType dt, int64_t v) {
    return visit_dtype(dt, [&](auto tag) -> double {
        using T = decltype(tag);
        if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) return double(static_cast<T>(v));
        return double(v);
    });
}

enum class View { contiguous, permute, flip, step, expand };
inline const View kViews[] = {View::contiguous, View::permute, View::flip, View::step, View::expand};
using Gen = std::function<double(std::mt19937&)>;

inline Gen uniform(double lo, double hi) {
    return [=](std::mt19937& r) { return std::uniform_real_distribution<double>(lo, hi)(r); };
}
inline Gen ints(int lo, int hi) {
    return [=](std::mt19937& r) { return double(std::uniform_int_distribution<int>(lo, hi)(r)); };
}

inline std::vector<double> random_values(int64_t n, const Gen& gen, std::mt19937& rng) {
    std::vector<double> v(static_cast<std::size_t>(n));
    for (auto& x : v) x = gen(rng);
    return v;
}

/// A rank-3 tensor of logical shape s built through the given view of a differently shaped base.
inline TensorAny make_view(View view, const Dims& s, DType dt, const Gen& gen, std::mt19937& rng) {
    switch (view) {
        case View::contiguous:
            return make(random_values(s.numel(), gen, rng), s, dt);
        case View::permute: {
            Dims b{s[1], s[2], s[0]};
            return ops::permute(make(random_values(b.numel(), gen, rng), b, dt), Dims{2, 0, 1});
        }
        case View::flip:
            return ops::flip(make(random_values(s.numel(), gen, rng), s, dt), Dims{0, 2});
        case View::step: {
            Dims b{s[0], 2 * s[1], s[2] + 1};
            return ops::slice(make(random_values(b.numel(), gen, rng), b, dt),
                              {all, SliceArg(0, std::nullopt, 2), SliceArg(1, std::nullopt)});
        }
        case View::expand: {
            Dims b{s[0], 1, s[2]};
            return ops::expand(make(random_values(b.numel(), gen, rng), b, dt), s);
        }
    }
    return {};
}

struct Geo {
    int64_t outer = 1, n = 1, inner = 1;
};
inline Geo geo(const Dims& s, int d) {
    Geo g;
    for (int i = 0; i < d; ++i) g.outer *= s[i];
    g.n = s[d];
    for (int i = d + 1; i < s.rank(); ++i) g.inner *= s[i];
    return g;
}

/// Applies f(values along the dim) -> one result per (outer, inner) position.
inline std::vector<double> ref_reduce(const std::vector<double>& h, const Dims& s, int d,
                                      const std::function<double(const std::vector<double>&)>& f) {
    Geo g = geo(s, d);
    std::vector<double> out;
    for (int64_t o = 0; o < g.outer; ++o)
        for (int64_t i = 0; i < g.inner; ++i) {
            std::vector<double> line;
            for (int64_t k = 0; k < g.n; ++k)
                line.push_back(h[static_cast<std::size_t>((o * g.n + k) * g.inner + i)]);
            out.push_back(f(line));
        }
    return out;
}

/// Applies f(line) -> line of the same length, for scans and softmax.
inline std::vector<double> ref_map(const std::vector<double>& h, const Dims& s, int d,
                                   const std::function<std::vector<double>(const std::vector<double>&)>& f) {
    Geo g = geo(s, d);
    std::vector<double> out(h.size());
    for (int64_t o = 0; o < g.outer; ++o)
        for (int64_t i = 0; i < g.inner; ++i) {
            std::vector<double> line;
            for (int64_t k = 0; k < g.n; ++k)
                line.push_back(h[static_cast<std::size_t>((o * g.n + k) * g.inner + i)]);
            auto r = f(line);
            for (int64_t k = 0; k < g.n; ++k)
                out[static_cast<std::size_t>((o * g.n + k) * g.inner + i)] = r[k];
        }
    return out;
}

inline double rtol_of(DType dt) {
    switch (dt) {
        case DType::f32:
            return 1e-5;
        case DType::f64:
            return 1e-12;
        case DType::f16:
            return 2e-3;
        case DType::bf16:
            return 1.6e-2;
        default:
            return 0;
    }
}

/// |got - want| <= rtol * scale + tiny; NaN matches NaN; infinities must match exactly.
inline void expect_close(const std::vector<double>& got, const std::vector<double>& want,
                         const std::vector<double>& scale, double rtol, const std::string& what) {
    ASSERT_EQ(got.size(), want.size()) << what;
    for (std::size_t i = 0; i < got.size(); ++i) {
        if (std::isnan(want[i])) {
            EXPECT_TRUE(std::isnan(got[i])) << what << " at " << i << ": got " << got[i] << ", want NaN";
        } else if (std::isinf(want[i])) {
            EXPECT_EQ(got[i], want[i]) << what << " at " << i;
        } else {
            EXPECT_LE(std::fabs(got[i] - want[i]), rtol * scale[i] + 1e-300)
                << what << " at " << i << ": got " << got[i] << ", want " << want[i];
        }
    }
}

inline double sum_of(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return s;
}
inline double abs_sum(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += std::fabs(x);
    return s;
}
inline int64_t first_extreme(const std::vector<double>& v, bool max) {
    int64_t best = 0;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (std::isnan(v[best])) break;
        if (std::isnan(v[i]) || (max ? v[i] > v[best] : v[i] < v[best])) best = static_cast<int64_t>(i);
    }
    return best;
}

inline std::string label(DType dt, View v, const Dims& s, int64_t dim) {
    return detail::msg(dt, " view ", static_cast<int>(v), " shape ", s, " dim ", dim);
}

inline Dims kept(Dims s, int d) {
    s[d] = 1;
    return s;
}

/// Runs every value/index reduction and cumsum for one dtype on one shape, for every dim and view.

template <class F>
inline void expect_error(F&& f, const std::string& needle) {
    try {
        f();
        ADD_FAILURE() << "no error; expected one containing " << needle;
    } catch (const burn::Error& e) {
        EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
}

}  // namespace reduce_test
