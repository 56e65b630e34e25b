// Autocast (burn/amp/autocast.hpp): the per-thread guard, and the one routine both the guard and the
// autocast decorator run a call through (run_autocast): cast the inputs its row's policy moves, run the
// re-typed call through dispatch, cast the outputs back to the dtypes the call records.
#include "burn/amp/autocast.hpp"

#include <vector>

#include "amp/autocast_internal.hpp"
#include "burn/amp/policy.hpp"
#include "burn/backend/op_attrs.hpp"
#include "burn/core/error.hpp"
#include "burn/tensor/ops.hpp"
#include "ops/common.hpp"
#include "platform/env.hpp"

namespace burn::autocast {

namespace detail {

constinit BURN_THREAD_LOCAL uint8_t g_state = 0;

namespace {
uint8_t encode(std::optional<DType> d) {
    return d ? static_cast<uint8_t>(1 + static_cast<int>(*d)) : 0;
}
std::optional<DType> decode(uint8_t s) {
    if (s == 0) return std::nullopt;
    return static_cast<DType>(s - 1);
}
}  // namespace

std::optional<TensorRefs> guard_run(const OpCall& call, const TensorRefs& inputs) {
    const std::optional<DType> low = decode(g_state);
    if (!low || policy(call.op) == Policy::passthrough) return std::nullopt;
    // The casts and the re-typed call run with the guard off: they are this op, not new ones.
    struct Pause {
        uint8_t saved = g_state;
        Pause() { g_state = 0; }
        ~Pause() { g_state = saved; }
    } pause;
    return run_autocast(call, inputs, *low);
}

}  // namespace detail

namespace {
void check_low(DType low, const char* where) {
    BURN_CHECK_KIND(low == DType::bf16 || low == DType::f16, dtype, "[", where,
                    "] autocast runs matmul, conv and attention in bf16 or f16, not ", low,
                    "; pass DType::bf16 or DType::f16");
}
}  // namespace

Guard::Guard(std::optional<DType> low) : previous_(detail::decode(detail::g_state)) {
    if (low) check_low(*low, "autocast::Guard");
    detail::g_state = detail::encode(low);
}

Guard::~Guard() {
    detail::g_state = detail::encode(previous_);
}

std::optional<DType> active() {
    return detail::decode(detail::g_state);
}

Device decorate(const Device& device, DType low) {
    check_low(low, "Device::autocast");
    return device.decorate(low == DType::bf16 ? "autocast_bf16" : "autocast_f16");
}

std::optional<DType> device_dtype(const Device& device) {
    if (device.has_decorator("autocast_bf16")) return DType::bf16;
    if (device.has_decorator("autocast_f16")) return DType::f16;
    return std::nullopt;
}

namespace {
platform::EnvSwitch g_low_activations("BURN_AMP_LOW_ACTIVATIONS", false);
}  // namespace

std::optional<DType> activation_dtype(const Device& device, DType input) {
    if (!g_low_activations.on()) return std::nullopt;
    std::optional<DType> low = active();
    if (!low) low = device_dtype(device);
    if (low && input != DType::f32 && input != *low) return std::nullopt;
    return low;
}

void set_low_activations(bool on) {
    g_low_activations.set(on);
}

bool low_activations() {
    return g_low_activations.on();
}

std::optional<TensorRefs> run_autocast(const OpCall& call, const TensorRefs& inputs, DType low) {
    const Policy p = policy(call.op);
    if (p == Policy::passthrough) return std::nullopt;
    auto target = [&](std::size_t i) {
        const DType d = inputs[i]->dtype;
        return p == Policy::low && keeps_float32(call.op, i) ? d : compute_dtype(p, d, low);
    };
    bool any = false;
    for (std::size_t i = 0; i < inputs.size(); ++i) any |= inputs[i] && target(i) != inputs[i]->dtype;
    if (!any) return std::nullopt;

    std::vector<TensorMeta> in_metas;
    TensorRefs cast_in;
    in_metas.reserve(inputs.size());
    cast_in.reserve(inputs.size());
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        TensorAny x(inputs[i]);
        const DType d = target(i);
        if (d != x.dtype()) x = ops::cast(std::move(x), d);
        in_metas.push_back({x.dtype(), x.shape()});
        cast_in.push_back(std::move(x).ref());
    }
    const std::vector<TensorMeta> want = call.outputs();
    if (call.op == OpId::matmul && want[0].dtype != in_metas[0].dtype && is_float(want[0].dtype)) {
        // The low product written straight in the recorded dtype (one GEMM, no cast of its output
        // where the backend has the kernel; matmul + cast where not).
        TensorAny a(std::move(cast_in[0])), b(std::move(cast_in[1]));
        return TensorRefs{ops::matmul_widen(std::move(a), std::move(b), want[0].dtype).ref()};
    }
    OpCall typed = call;
    typed.extra_outs.clear();
    infer_call(typed, in_metas);
    TensorRefs out = ops::detail::run(typed, std::move(cast_in));
    for (std::size_t i = 0; i < out.size() && i < want.size(); ++i)
        if (out[i]->dtype != want[i].dtype)
            out[i] = ops::cast(TensorAny(std::move(out[i])), want[i].dtype).ref();
    return out;
}

}  // namespace burn::autocast
