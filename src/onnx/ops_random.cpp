// ONNX random generators: RandomUniform(Like), RandomNormal(Like) (opset 1), Bernoulli (opset 15),
// Multinomial (opset 7). They draw from burn's counter-based Philox streams (ops::random), on the
// device. Without a `seed` attribute a node draws from the device's generator (Device::seed), so each
// run gives new values; with one it draws from a Generator seeded from it, so the node gives the same
// values on every run (and on every device and thread count). The values differ from NumPy's
// generator, which made ONNX's reference outputs, so those cases cannot match: the tests
// (onnx_random_test.cpp) check shapes, dtypes, ranges and statistics instead. The loader never folds
// these nodes into constants (model.cpp, is_random).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>

#include "burn/core/generator.hpp"
#include "onnx/op_util.hpp"

namespace burn::onnx::detail {

namespace {

using Outs = std::vector<TensorAny>;

// Multinomial compares every sample with every class's cumulative probability: at most this many
// comparisons in one step (larger draws go in chunks of samples).
constexpr int64_t kMultinomialChunk = int64_t{1} << 24;

/// The node's generator when it has a `seed` (a float attribute: its bits, so 1.0 and 1.5 differ).
std::optional<Generator> seeded(const OpContext& c) {
    if (!c.has_attr("seed")) return std::nullopt;
    const double s = c.attr_float("seed", 0.0);
    uint64_t bits = 0;
    std::memcpy(&bits, &s, sizeof bits);
    return Generator(bits);
}

/// f(): under the node's seeded generator when it has one.
template <class F>
TensorAny draw(const OpContext& c, F f) {
    std::optional<Generator> gen = seeded(c);
    if (!gen) return f();
    GeneratorScope scope(*gen);
    return f();
}

/// The `dtype` attribute (an ONNX TensorProto code), or def when absent.
DType dtype_attr(const OpContext& c, DType def) {
    if (!c.has_attr("dtype")) return def;
    const auto code = static_cast<int32_t>(c.attr_int("dtype"));
    const std::optional<DType> dt = dtype_of_onnx(code);
    c.check(dt.has_value(), "attribute 'dtype' is ", onnx_type_name(code), ", which burn cannot hold");
    return *dt;
}

DType float_dtype_attr(const OpContext& c, DType def) {
    const DType dt = dtype_attr(c, def);
    c.check(is_float(dt), "the output's dtype must be a float type (attribute 'dtype', or the input's), got ",
            dt);
    return dt;
}

Dims shape_attr(const OpContext& c) {
    c.check(c.has_attr("shape"), "needs the attribute 'shape'");
    const std::vector<int64_t> shape = c.attr_ints("shape");
    for (int64_t d : shape) c.check(d >= 0, "attribute 'shape' has a negative dim: ", dims_of(shape));
    return dims_of(shape);
}

/// Uniform on [low, high): values that round up to high in a narrow dtype are moved to low.
TensorAny uniform(const OpContext& c, const Dims& shape, DType dt) {
    const double low = c.attr_float("low", 0.0), high = c.attr_float("high", 1.0);
    c.check(std::isfinite(low) && std::isfinite(high) && low <= high, "needs finite low <= high, got low ",
            low, ", high ", high);
    TensorAny y =
        draw(c, [&] { return ops::random(shape, Distribution::Uniform(low, high), dt, c.device()); });
    if (high > low) y = ops::mask_fill(y, ops::greater_equal_elem(y, high), low);
    return y;
}

TensorAny normal(const OpContext& c, const Dims& shape, DType dt) {
    const double mean = c.attr_float("mean", 0.0), scale = c.attr_float("scale", 1.0);
    c.check(std::isfinite(mean) && std::isfinite(scale) && scale >= 0,
            "needs a finite mean and scale >= 0, got mean ", mean, ", scale ", scale);
    return draw(c, [&] { return ops::random(shape, Distribution::Normal(mean, scale), dt, c.device()); });
}

Outs random_uniform(const OpContext& c) {
    return {uniform(c, shape_attr(c), float_dtype_attr(c, DType::f32))};
}
Outs random_uniform_like(const OpContext& c) {
    const TensorAny& x = c.in(0);
    return {uniform(c, x.shape(), float_dtype_attr(c, x.dtype()))};
}
Outs random_normal(const OpContext& c) {
    return {normal(c, shape_attr(c), float_dtype_attr(c, DType::f32))};
}
Outs random_normal_like(const OpContext& c) {
    const TensorAny& x = c.in(0);
    return {normal(c, x.shape(), float_dtype_attr(c, x.dtype()))};
}

/// The dtype the uniforms are drawn in for probabilities p: f32 at least (f16 rounds u up to 1).
DType draw_dtype(DType p) {
    return p == DType::f64 ? DType::f64 : DType::f32;
}

/// Bernoulli: 1 where a uniform u in [0, 1) is below p, else 0.
Outs bernoulli(const OpContext& c) {
    const TensorAny& p = c.in(0);
    c.check(is_float(p.dtype()), "input must hold float probabilities, got ", p.dtype(), " ", p.shape());
    const DType dt = dtype_attr(c, p.dtype()), ud = draw_dtype(p.dtype());
    TensorAny u =
        draw(c, [&] { return ops::random(p.shape(), Distribution::Uniform(0, 1), ud, c.device()); });
    return {ops::cast(ops::lower(u, ops::cast(ops::detach(p), ud)), dt)};
}

/// Multinomial: sample_size draws per row of [batch, classes] unnormalised log-probabilities. A draw
/// u * total in [0, total) picks the first class whose cumulative probability exceeds it.
Outs multinomial(const OpContext& c) {
    const TensorAny& x = c.in(0);
    c.check(is_float(x.dtype()) && x.rank() == 2, "input must be float [batch_size, class_size], got ",
            x.dtype(), " ", x.shape());
    const int64_t nb = x.shape()[0], nc = x.shape()[1], ns = c.attr_int("sample_size", 1);
    c.check(nc >= 1, "input has no classes: ", x.shape());
    c.check(ns >= 0, "attribute 'sample_size' must be >= 0, got ", ns);
    const DType dt = dtype_attr(c, DType::i32);
    c.check(dt == DType::i32 || dt == DType::i64, "attribute 'dtype' must be INT32 or INT64, got ", dt);
    const DType ud = draw_dtype(x.dtype());
    const TensorAny cdf = ops::cumsum(ops::softmax(ops::cast(ops::detach(x), ud), 1), 1);  // [B, C]
    const TensorAny total = ops::reshape(ops::narrow(cdf, 1, nc - 1, 1), Dims{nb, 1, 1});
    const TensorAny cdf3 = ops::reshape(cdf, Dims{nb, 1, nc});
    const TensorAny u = draw(c, [&] {
        return ops::random(Dims{nb, ns, 1}, Distribution::Uniform(0, 1), ud, c.device());
    });
    const TensorAny target = ops::mul(u, total);  // [B, S, 1]
    const int64_t chunk = std::max<int64_t>(1, kMultinomialChunk / std::max<int64_t>(1, nb * nc));
    std::vector<TensorAny> parts;
    for (int64_t s = 0; s < ns; s += chunk) {
        const TensorAny t = ops::narrow(target, 1, s, std::min(chunk, ns - s));
        const TensorAny below = ops::cast(ops::lower_equal(cdf3, t), DType::i64);  // [B, len, C]
        parts.push_back(ops::clamp(ops::sum_dim(below, 2), 0, static_cast<double>(nc - 1)));
    }
    if (parts.empty()) return {ops::full(Dims{nb, 0}, 0, dt, c.device())};
    const TensorAny idx = parts.size() == 1 ? parts[0] : ops::cat(parts, 1);
    return {ops::cast(ops::reshape(idx, Dims{nb, ns}), dt)};
}

}  // namespace

void add_random_ops(OpTable& t) {
    t.add("RandomUniform", 1, random_uniform);
    t.add("RandomUniformLike", 1, random_uniform_like);
    t.add("RandomNormal", 1, random_normal);
    t.add("RandomNormalLike", 1, random_normal_like);
    t.add("Bernoulli", 15, bernoulli);
    t.add("Multinomial", 7, multinomial);
}

}  // namespace burn::onnx::detail
