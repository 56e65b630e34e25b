
#include "amp/autocast_internal.hpp"
#include "burn/tensor/ops.hpp"
#include "burn/tensor/tensor.hpp"
#include "ops/common.hpp"
#include "ops/decompose.hpp"
#include "ops/op_kinds.hpp"

namespace burn::ops::detail {

namespace {
/// Every op's output shape passes here before a backend sees it: no kernel ever gets a shape whose
/// element or byte count overflows (creation, views, broadcasts, matmul/conv/pool outputs, cat, ...).
/// An elementwise row's output is the shape of its inputs (infer and the frontends check that they
/// share one) in an input's dtype or bool: no larger than a tensor that exists, so it is not checked
/// again (those rows are most of the ops a model runs).
void check_output(const OpCall& call) {
    if (static_cast<int>(call.op) < kNumElementwiseOps) return;
    const char* name = op_name(call.op).data();
    check_shape(call.shape, name, size_of(call.dtype));
    for (const TensorMeta& m : call.extra_outs) check_shape(m.shape, name, size_of(m.dtype));
}

[[noreturn]] void throw_unsupported(const OpCall& call, const Backend& backend, const Device& device) {
    BURN_THROW_KIND(device, "[", call.op, "] not supported by the ", backend.name(), " backend for dtype ",
                    call.dtype, " on ", device);
}

[[noreturn, gnu::noinline, gnu::cold]] void throw_mixed_devices(const OpCall& call,
                                                                const TensorRefs& inputs) {
    ::burn::detail::Text os;
    os << "[" << call.op << "] inputs are on different devices:";
    for (std::size_t j = 0; j < inputs.size(); ++j) os << (j ? ", " : " ") << inputs[j]->device;
    os << "; move them with .to_device(device) first";
    BURN_THROW_KIND(device, os.str());
}

/// A row the backend does not support: its decomposition into primitive rows (decompose.hpp), run
/// through the frontend on the same device, or today's error for a primitive.
TensorRefs run_decomposed(const OpCall& call, TensorRefs inputs, const Backend& backend,
                          const Device& device) {
    const Decomposition decompose = decomposition(call.op);
    if (!decompose) throw_unsupported(call, backend, device);
    std::vector<TensorAny> in;
    in.reserve(inputs.size());
    for (TensorRef& t : inputs) in.emplace_back(std::move(t));
    std::vector<TensorAny> out = decompose(call, in);
    // The decomposition must give what infer promised the frontend (every recorded output's meta).
    const std::vector<TensorMeta> want = call.outputs();
    for (std::size_t i = 0; i < out.size() && i < want.size(); ++i) {
        BURN_CHECK(out[i].dtype() == want[i].dtype && out[i].shape() == want[i].shape, "[", call.op,
                   "] the decomposition gave output ", i, " as ", out[i].dtype(), " ", out[i].shape(),
                   " but the call records ", want[i], ": a bug in the decomposition or in the row's infer");
    }
    TensorRefs refs;
    refs.reserve(out.size());
    for (TensorAny& t : out) refs.push_back(std::move(t).ref());
    return refs;
}
}  // namespace

TensorRefs run(const OpCall& call, TensorRefs inputs) {
    check_output(call);
    for (const TensorRef& in : inputs)
        if (!in) ::burn::detail::throw_undefined_tensor();
    Device device = inputs.empty() ? Device::cpu() : inputs[0]->device;
    for (std::size_t i = 1; i < inputs.size(); ++i)
        if (inputs[i]->device != device) throw_mixed_devices(call, inputs);
    if (autocast::detail::g_state != 0) [[unlikely]] {  // an autocast::Guard is active on this thread
        if (std::optional<TensorRefs> out = autocast::detail::guard_run(call, inputs)) return std::move(*out);
    }
    Backend& backend = device.backend();
    if (!backend.supports(call, inputs)) return run_decomposed(call, std::move(inputs), backend, device);
    return backend.execute(call, std::move(inputs));
}

TensorAny run1(const OpCall& call, TensorRefs inputs) {
    return TensorAny(run(call, std::move(inputs))[0]);
}

TensorAny run_on(const Device& device, const OpCall& call, bool output_checked) {
    if (!output_checked) check_output(call);
    Backend& backend = device.backend();
    if (!backend.supports(call, {}))
        throw_unsupported(call, backend, device);  // creation rows are primitives
    return TensorAny(backend.execute(call, {})[0]);
}

}  // namespace burn::ops::detail

namespace burn::detail {

void check_tensor(const TensorAny& t, int rank, const char* kind_name, bool kind_ok) {
    if (!t.defined()) return;
    BURN_CHECK_KIND(t.rank() == rank, shape, "[Tensor] a tensor of shape ", t.shape(), " (rank ", t.rank(),
                    ") cannot be held as a Tensor<", rank, ">; reshape it first");
    BURN_CHECK_KIND(kind_ok, dtype, "[Tensor] a ", t.dtype(), " tensor cannot be held as a ", kind_name,
                    " tensor; cast it first");
}

std::string format_tensor(const TensorAny& t, const char* kind_name) {
    ::burn::detail::Text os;
    if (!t.defined()) return "Tensor { undefined }";
    os << "Tensor {\n  data:\n"
       << ops::into_data(t) << ",\n  shape:  " << t.shape() << ",\n  device:  " << t.device()
       << ",\n  kind:  " << kind_name << ",\n  dtype:  " << t.dtype() << ",\n}";
    return os.str();
}

}  // namespace burn::detail
