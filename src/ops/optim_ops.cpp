// Frontend of the fused optimizer ops: validation, then one OpCall whose hyper-parameters travel as a
// small f64 tensor (so the call itself is the same every step, and a device keeps them on device).
#include "ops/optim_ops.hpp"

#include <cmath>
#include <optional>
#include <utility>

#include "ops/common.hpp"
#include "ops/infer.hpp"

namespace burn::ops {

using namespace detail;

namespace {

void check_hyper(const AdamStepHyper& h, const char* op) {
    bool ok = h.beta_1 >= 0 && h.beta_1 <= 1 && h.beta_2 >= 0 && h.beta_2 <= 1 &&
              std::isfinite(h.step_size) && std::isfinite(h.eps) && h.eps >= 0 && std::isfinite(h.decay) &&
              std::isfinite(h.l2);
    BURN_CHECK(ok, "[", op, "] invalid hyper-parameters: betas ", h.beta_1, ", ", h.beta_2,
               " (in [0, 1]), step size ", h.step_size, ", eps ", h.eps, " (>= 0), decay ", h.decay, ", l2 ",
               h.l2, " (finite)");
}

TensorAny hyper_tensor(const AdamStepHyper& h, const Device& device) {
    return from_data(
        TensorData(std::vector<double>{h.beta_1, h.beta_2, h.step_size, h.eps, h.decay, h.l2}, Dims{6}),
        device);
}

}  // namespace

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
    check_hyper(h, op);
    TensorAny hyper = hyper_tensor(h, param.device());
    auto c = make(OpId::adam_step, attrs::None{}, metas(param, grad, exp_avg, exp_avg_sq, hyper));
    TensorRefs out = run(c, take(std::move(param), std::move(grad), std::move(exp_avg), std::move(exp_avg_sq),
                                 std::move(hyper)));
    return {TensorAny(std::move(out[0])), TensorAny(std::move(out[1])), TensorAny(std::move(out[2]))};
}

namespace {

/// adam_step_multi's call and inputs, validated.
std::pair<OpCall, TensorRefs> multi_call(const std::vector<TensorAny>& params,
                                         const std::vector<TensorAny>& grads,
                                         const std::vector<TensorAny>& exp_avgs,
                                         const std::vector<TensorAny>& exp_avg_sqs, const AdamStepHyper& h) {
    const char* op = "adam_step_multi";
    const std::size_t n = params.size();
    BURN_CHECK(n >= 1 && grads.size() == n && exp_avgs.size() == n && exp_avg_sqs.size() == n, "[", op,
               "] takes one list each of params, grads, exp_avgs and exp_avg_sqs of one length >= 1, got ", n,
               ", ", grads.size(), ", ", exp_avgs.size(), " and ", exp_avg_sqs.size());
    const std::vector<TensorAny>* lists[] = {&params, &grads, &exp_avgs, &exp_avg_sqs};
    const char* names[] = {"param", "grad", "exp_avg", "exp_avg_sq"};
    std::vector<TensorMeta> in;
    TensorRefs refs;
    in.reserve(4 * n + 1);
    refs.reserve(4 * n + 1);
    for (int l = 0; l < 4; ++l) {
        for (std::size_t i = 0; i < n; ++i) {
            const TensorAny& t = (*lists[l])[i];
            check_defined(t, op);
            BURN_CHECK_KIND(t.device() == params[0].device(), device, "[", op, "] ", names[l], " ", i, " is ",
                            describe(t), " but param 0 is ", describe(params[0]),
                            "; move them to one device");
            in.push_back(meta(t));
            refs.push_back(t.ref());
        }
    }
    check_float(params[0], op);
    check_hyper(h, op);
    TensorAny hyper = hyper_tensor(h, params[0].device());
    in.push_back(meta(hyper));
    refs.push_back(std::move(hyper).ref());
    return {make(OpId::adam_step_multi, attrs::None{}, in), std::move(refs)};
}

std::array<TensorAny, 3> outputs3(TensorRefs out) {
    return {TensorAny(std::move(out[0])), TensorAny(std::move(out[1])), TensorAny(std::move(out[2]))};
}

}  // namespace

std::array<TensorAny, 3> adam_step_multi(const std::vector<TensorAny>& params,
                                         const std::vector<TensorAny>& grads,
                                         const std::vector<TensorAny>& exp_avgs,
                                         const std::vector<TensorAny>& exp_avg_sqs, const AdamStepHyper& h) {
    auto [c, refs] = multi_call(params, grads, exp_avgs, exp_avg_sqs, h);
    return outputs3(run(c, std::move(refs)));
}

std::optional<std::array<TensorAny, 3>> try_adam_step_multi(const std::vector<TensorAny>& params,
                                                            const std::vector<TensorAny>& grads,
                                                            const std::vector<TensorAny>& exp_avgs,
                                                            const std::vector<TensorAny>& exp_avg_sqs,
                                                            const AdamStepHyper& h) {
    auto [c, refs] = multi_call(params, grads, exp_avgs, exp_avg_sqs, h);
    if (!params[0].device().backend().supports(c, refs)) return std::nullopt;
    return outputs3(run(c, std::move(refs)));
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

Outs infer_adam_step_multi(const OpCall& c, Metas in) {
    (void)c.attrs<attrs::None>();
    BURN_CHECK_KIND(in.size() >= 5 && (in.size() - 1) % 4 == 0, shape,
                    "[adam_step_multi] takes 4 n + 1 inputs "
                    "(n params, grads, exp_avgs, exp_avg_sqs, then hyper), got ",
                    in.size());
    const std::size_t n = (in.size() - 1) / 4;
    const TensorMeta& p0 = in[0];
    check_float(c, p0, "param 0");
    const char* names[] = {"param", "grad", "exp_avg", "exp_avg_sq"};
    int64_t total = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const TensorMeta& p = in[i];
        for (std::size_t l = 0; l < 4; ++l) {
            const TensorMeta& t = in[l * n + i];
            BURN_CHECK_KIND(t.dtype == p0.dtype, dtype, "[adam_step_multi] ", names[l], " ", i, " is ",
                            describe(t), " but param 0 is ", describe(p0), "; cast them to one float dtype");
            BURN_CHECK_KIND(t.shape == p.shape, shape, "[adam_step_multi] ", names[l], " ", i, " is ",
                            describe(t), " but param ", i, " is ", describe(p),
                            "; every state has its parameter's shape");
        }
        total += p.shape.numel();
    }
    BURN_CHECK_KIND(
        in[4 * n].dtype == DType::f64 && in[4 * n].shape == Dims{6}, shape,
        "[adam_step_multi] hyper must be f64 [6] {beta_1, beta_2, step_size, eps, decay, l2}, got ",
        describe(in[4 * n]));
    const TensorMeta flat{p0.dtype, Dims{total}};
    return {flat, flat, flat};
}

}  // namespace burn::op_infer
