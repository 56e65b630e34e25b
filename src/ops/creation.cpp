// Creation ops and host transfer.
#include <limits>

#include "burn/tensor/tensor.hpp"
#include "core/registry.hpp"
#include "ops/common.hpp"
#include "ops/infer.hpp"

namespace burn::ops {

using namespace detail;

TensorAny from_data(const TensorData& data, const Device& device) {
    check_shape(data.shape(), "from_data", size_of(data.dtype()));
    return TensorAny(device.backend().from_host(data, device));
}

TensorData into_data(const TensorAny& x) {
    check_defined(x, "into_data");
    return x.device().backend().to_host(x.ref());
}

TensorAny full(const Dims& shape, double value, DType dtype, const Device& device) {
    check_shape(shape, "full", size_of(dtype));
    return run_on(device, make_prechecked(OpId::fill, attrs::Fill{value, dtype, shape}, dtype, shape),
                  /*output_checked=*/true);
}

TensorAny empty(const Dims& shape, DType dtype, const Device& device) {
    return full(shape, 0.0, dtype, device);
}

TensorAny arange(int64_t start, int64_t end, int64_t step, DType dtype, const Device& device) {
    BURN_CHECK(step != 0, "[arange] step must not be zero");
    BURN_CHECK_KIND(!is_bool(dtype), dtype, "[arange] cannot make a bool range");
    // ceil((end - start) / step) in 128-bit arithmetic: end - start overflows int64 for wide ranges.
    int64_t n = 0;
    if ((step > 0 && end > start) || (step < 0 && end < start)) {
        const wide span = wide(end) - start, s = step;
        const wide count = (span + s + (step > 0 ? -1 : 1)) / s;
        BURN_CHECK_KIND(count <= INT64_MAX, shape, "[arange] the range ", start, "..", end, " step ", step,
                        " has more elements than int64 can count");
        n = static_cast<int64_t>(count);
    }
    if (n > 0 && !is_float(dtype)) {
        // The kernels compute start + step * i in double: integer results must fit the dtype and be exact
        // there (|value| <= 2^53), or the range would wrap or round silently.
        const wide last = wide(start) + wide(step) * (n - 1);
        const wide exact = wide(1) << 53;
        wide lo = -exact, hi = exact;
        switch (dtype) {
            case DType::i32:
                lo = INT32_MIN, hi = INT32_MAX;
                break;
            case DType::i16:
                lo = INT16_MIN, hi = INT16_MAX;
                break;
            case DType::i8:
                lo = INT8_MIN, hi = INT8_MAX;
                break;
            case DType::u8:
                lo = 0, hi = UINT8_MAX;
                break;
            default:
                break;
        }
        const auto fits = [&](wide v) { return v >= lo && v <= hi; };
        BURN_CHECK_KIND(fits(start) && fits(last), dtype, "[arange] the range ", start, "..", end, " step ",
                        step, " has values (first ", start, ", last ", static_cast<long double>(last),
                        ") that ", dtype, " cannot hold exactly; use a wider dtype or a float range");
    }
    return run_on(device, make(OpId::arange, attrs::Arange{static_cast<double>(start),
                                                           static_cast<double>(step), dtype, n}));
}

TensorAny eye(int64_t n, DType dtype, const Device& device) {
    BURN_CHECK_KIND(n >= 0, shape, "[eye] size must be non-negative, got ", n);
    auto r = arange(0, n, 1, DType::i64, device);
    auto mask = equal(unsqueeze_dim(r, 1), unsqueeze_dim(r, 0));
    return cast(std::move(mask), dtype);
}

TensorAny random(const Dims& shape, const Distribution& dist, DType dtype, const Device& device) {
    check_shape(shape, "random", size_of(dtype));
    BURN_CHECK(dist.kind != Distribution::Kind::normal || dist.b >= 0,
               "[random] normal std must be >= 0, got ", dist.b);
    BURN_CHECK(dist.kind != Distribution::Kind::bernoulli || (dist.a >= 0 && dist.a <= 1),
               "[random] bernoulli probability must be in [0, 1], got ", dist.a);
    auto stream = burn::detail::next_random(device, shape.numel());
    auto c = make(OpId::random, attrs::Random{static_cast<int64_t>(dist.kind), stream.key, stream.offset,
                                              dist.a, dist.b, dtype, shape});
    return run_on(device, c);
}

namespace {
/// Strips x's decorators down to its physical device's tensor, then wraps it in each of device's
/// decorators from the innermost: moving between decorations of one device never copies.
TensorAny rewrap(const TensorAny& x, const Device& device) {
    TensorRef t = x.ref();
    for (Device d = x.device(); d.num_decorators() > 0; d = d.below()) t = d.backend().unwrap(t);
    const auto names = device.decorators();
    Device level = device.base();
    for (const auto& name : names) {
        level = level.decorate(name);
        t = level.backend().wrap(std::move(t), level);
    }
    return TensorAny(std::move(t));
}
}  // namespace

TensorAny to_device(TensorAny x, const Device& device) {
    check_defined(x, "to_device");
    if (x.device() == device) return x;
    if (x.device().base() == device.base()) return rewrap(x, device);
    return from_data(into_data(x), device);
}

TensorAny inner_of(const TensorAny& x) {
    if (!x.defined() || !x.device().is_autodiff()) return x;
    return rewrap(x, x.device().inner());
}

}  // namespace burn::ops

namespace burn::detail {

TensorData int_data(const std::vector<int64_t>& values, const Dims& shape, DType dtype, const char* op) {
    BURN_CHECK_KIND(is_int(dtype), dtype, "[", op, "] needs an int dtype (i64, i32, i16, i8, u8), got ",
                    dtype);
    return visit_dtype(dtype, [&](auto tag) -> TensorData {
        using T = decltype(tag);
        if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
            constexpr int64_t lo = std::numeric_limits<T>::min();
            constexpr int64_t hi = static_cast<int64_t>(std::numeric_limits<T>::max());
            std::vector<T> out;
            out.reserve(values.size());
            for (std::size_t i = 0; i < values.size(); ++i) {
                const int64_t v = values[i];
                BURN_CHECK_KIND(v >= lo && v <= hi, dtype, "[", op, "] value ", v, " (element ", i,
                                ") does not fit ", dtype, " (", lo, "..", hi,
                                "); nothing is truncated: pass DType::i64 to keep 64-bit values");
                out.push_back(static_cast<T>(v));
            }
            return TensorData(out, shape);
        } else {
            BURN_THROW_KIND(dtype, "[", op, "] needs an int dtype, got ", dtype);
        }
    });
}

}  // namespace burn::detail

// ---- infer (burn/backend/op_attrs.hpp): the output metas of fill, arange, random

namespace burn::op_infer {

Outs infer_fill(const OpCall& c, Metas in) {
    check_arity(c, in, 0, 0);
    const auto a = c.attrs<attrs::Fill>();
    return {{a.dtype, a.shape}};
}

Outs infer_arange(const OpCall& c, Metas in) {
    check_arity(c, in, 0, 0);
    const auto a = c.attrs<attrs::Arange>();
    BURN_CHECK_KIND(!is_bool(a.dtype), dtype, "[arange] cannot make a bool range");
    BURN_CHECK_KIND(a.n >= 0, shape, "[arange] invalid length ", a.n);
    return {{a.dtype, Dims{a.n}}};
}

Outs infer_random(const OpCall& c, Metas in) {
    check_arity(c, in, 0, 0);
    const auto a = c.attrs<attrs::Random>();
    return {{a.dtype, a.shape}};
}

}  // namespace burn::op_infer
