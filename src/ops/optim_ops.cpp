// Frontend of the fused optimizer ops: validation, then one OpCall whose hyper-parameters travel as a
// small f64 tensor (so the call itself is the same every step, and a device keeps them on device).
#include "ops/optim_ops.hpp"

#include <cmath>

#include "ops/common.hpp"
#include "ops/infer.hpp"

namespace burn::ops {

using namespace detail;

std::array<TensorAny, 3> adam_step(TensorAny param, TensorAny grad, TensorAny exp_avg, TensorAny exp_avg_sq,
                                   const AdamStepHyper& h) {
    const char* op = "adam_step";
    const TensorAny* all[] = {&param, &grad, &exp_avg, &exp_avg_sq};
    const char* names[] = {"param", "grad", "exp_avg", "exp_avg_sq"};
    for (const TensorAny* t : all) check_defined(*t, op);
    check_float(param, op);
    for (int i = 1; i < 4; ++i) {
        const TensorAny& t = *all[i];
        BURN_CHECK_KIND(t.dtype() == param.dtype(), dtype, "[adam_step] ", names[i], " is ", describe(t),
                        " but param is ", describe(param), "; cast them to one dtype");
        BURN_CHECK_KIND(t.shape() == param.shape(), shape, "[adam_step] ", names[i], " is ", describe(t),
                        " but param is ", describe(param), "; every state has the parameter's shape");
        BURN_CHECK_KIND(t.device() == param.device(), device, "[adam_step] ", names[i], " is ", describe(t),
                        " but param is ", describe(param));
    }
    bool ok = h.beta_1 >= 0 && h.beta_1 <= 1 && h.beta_2 >= 0 && h.beta_2 <= 1 &&
              std::isfinite(h.step_size) && std::isfinite(h.eps) && h.eps >= 0 && std::isfinite(h.decay) &&
              std::isfinite(h.l2);
    BURN_CHECK(ok, "[adam_step] invalid hyper-parameters: betas ", h.beta_1, ", ", h.beta_2,
               " (in [0, 1]), step size ", h.step_size, ", eps ", h.eps, " (>= 0), decay ", h.decay, ", l2 ",
               h.l2, " (finite)");
    TensorAny hyper = from_data(
        TensorData(std::vector<double>{h.beta_1, h.beta_2, h.step_size, h.eps, h.decay, h.l2}, Dims{6}),
        param.device());
    auto c = make(OpId::adam_step, attrs::None{}, metas(param, grad, exp_avg, exp_avg_sq, hyper));
    TensorRefs out = run(c, take(std::move(param), std::move(grad), std::move(exp_avg), std::move(exp_avg_sq),
                                 std::move(hyper)));
    return {TensorAny(std::move(out[0])), TensorAny(std::move(out[1])), TensorAny(std::move(out[2]))};
}

}  // namespace burn::ops

// ---- infer (burn/backend/op_attrs.hpp): the output metas of adam_step

namespace burn::op_infer {

Outs infer_adam_step(const OpCall& c, Metas in) {
    check_arity(c, in, 5, 5);
    (void)c.attrs<attrs::None>();
    const TensorMeta& param = in[0];
    check_float(c, param, "param");
    const char* names[] = {"param", "grad", "exp_avg", "exp_avg_sq"};
    for (int i = 1; i < 4; ++i) {
        BURN_CHECK_KIND(in[static_cast<std::size_t>(i)] == param, shape, "[adam_step] ", names[i], " is ",
                        describe(in[static_cast<std::size_t>(i)]), " but param is ", describe(param),
                        "; every state has the parameter's dtype and shape");
    }
    BURN_CHECK_KIND(in[4].dtype == DType::f64 && in[4].shape == Dims{6}, shape,
                    "[adam_step] hyper must be f64 [6] {beta_1, beta_2, step_size, eps, decay, l2}, got ",
                    describe(in[4]));
    return {param, param, param};
}

}  // namespace burn::op_infer
