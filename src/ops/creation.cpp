// Creation ops and host transfer.
#include "autodiff/graph.hpp"
#include "core/registry.hpp"
#include "ops/common.hpp"

namespace burn::ops {

using namespace detail;

namespace {
void check_shape(const Dims& shape, const char* op) {
    for (int64_t d : shape)
        BURN_CHECK_KIND(d >= 0, shape, "[", op, "] negative dimension in shape ", shape);
}
}  // namespace

TensorAny from_data(const TensorData& data, const Device& device) {
    check_shape(data.shape(), "from_data");
    return TensorAny(device.backend().from_host(data, device));
}

TensorData into_data(const TensorAny& x) {
    check_defined(x, "into_data");
    return x.device().backend().to_host(x.ref());
}

TensorAny full(const Dims& shape, double value, DType dtype, const Device& device) {
    check_shape(shape, "full");
    return run_on(device, call(OpId::fill, dtype, shape, {}, value));
}

TensorAny empty(const Dims& shape, DType dtype, const Device& device) { return full(shape, 0.0, dtype, device); }

TensorAny arange(int64_t start, int64_t end, int64_t step, DType dtype, const Device& device) {
    BURN_CHECK(step != 0, "[arange] step must not be zero");
    int64_t n = 0;
    if ((step > 0 && end > start) || (step < 0 && end < start))
        n = (end - start + step + (step > 0 ? -1 : 1)) / step;
    BURN_CHECK_KIND(!is_bool(dtype), dtype, "[arange] cannot make a bool range");
    return run_on(device, call(OpId::arange, dtype, Dims{n}, {}, static_cast<double>(start),
                               static_cast<double>(step)));
}

TensorAny eye(int64_t n, DType dtype, const Device& device) {
    BURN_CHECK_KIND(n >= 0, shape, "[eye] size must be non-negative, got ", n);
    auto r = arange(0, n, 1, DType::i64, device);
    auto mask = equal(unsqueeze_dim(r, 1), unsqueeze_dim(r, 0));
    return cast(std::move(mask), dtype);
}

TensorAny random(const Dims& shape, const Distribution& dist, DType dtype, const Device& device) {
    check_shape(shape, "random");
    BURN_CHECK(dist.kind != Distribution::Kind::normal || dist.b >= 0, "[random] normal std must be >= 0, got ",
               dist.b);
    BURN_CHECK(dist.kind != Distribution::Kind::bernoulli || (dist.a >= 0 && dist.a <= 1),
               "[random] bernoulli probability must be in [0, 1], got ", dist.a);
    auto stream = burn::detail::next_random(device, shape.numel());
    auto c = call(OpId::random, dtype, shape,
                  {static_cast<int64_t>(dist.kind), static_cast<int64_t>(stream.key),
                   static_cast<int64_t>(stream.offset)},
                  dist.a, dist.b);
    return run_on(device, c);
}

TensorAny to_device(TensorAny x, const Device& device) {
    check_defined(x, "to_device");
    if (x.device() == device) return x;
    // Same physical device with or without autodiff: unwrap or re-wrap without copying.
    if (x.device().inner() == device.inner()) {
        TensorAny inner = inner_of(std::move(x));
        if (!device.is_autodiff()) return inner;
        return TensorAny(std::make_shared<autodiff::AdTensor>(std::move(inner).ref(), device, nullptr, 0, nullptr));
    }
    return from_data(into_data(x), device);
}

}  // namespace burn::ops
