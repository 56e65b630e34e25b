// Gradient checkpointing as a custom op: forward on the inner device (no graph), backward recomputes
// the region on the autodiff device and back-propagates the output gradients through it.
#include "burn/autodiff/custom_op.hpp"
#include "burn/autodiff/gradients.hpp"
#include "burn/tensor/ops.hpp"

namespace burn::autodiff {

std::vector<TensorAny> checkpoint(
    const std::string& name, const std::function<std::vector<TensorAny>(const std::vector<TensorAny>&)>& fn,
    const std::vector<TensorAny>& inputs) {
    BURN_CHECK(!inputs.empty(), "[checkpoint '", name, "'] needs at least one input");
    CustomOp op;
    op.name = name;
    op.forward = fn;  // runs on inner tensors: nothing is recorded
    op.backward = [fn, name](const std::vector<TensorAny>& in, const std::vector<TensorAny>&,
                             const std::vector<TensorAny>& grad_out) {
        const Device ad = in.at(0).device().autodiff();
        std::vector<TensorAny> leaves;
        for (const auto& x : in)
            leaves.push_back(is_float(x.dtype()) ? ops::require_grad(ops::to_device(x, ad))
                                                 : ops::to_device(x, ad));
        std::vector<TensorAny> out = fn(leaves);  // recompute, recording this time
        BURN_CHECK(out.size() == grad_out.size(), "[checkpoint '", name, "'] the region returned ",
                   out.size(), " outputs on recompute but ", grad_out.size(), " before");
        // backward of sum(out_i * g_i) gives the vector-Jacobian products for every input.
        TensorAny total;
        for (std::size_t i = 0; i < out.size(); ++i) {
            if (!grad_out[i].defined()) continue;
            TensorAny term = ops::sum(ops::mul(out[i], ops::to_device(grad_out[i], ad)));
            total = total.defined() ? ops::add(total, term) : term;
        }
        std::vector<TensorAny> grads(in.size());
        if (!total.defined()) return grads;
        Gradients g = ops::backward(total);
        for (std::size_t i = 0; i < in.size(); ++i)
            if (auto gi = ops::grad(leaves[i], g)) grads[i] = *gi;
        return grads;
    };
    return autodiff::apply(op, inputs);  // qualified: ADL would also find std::apply (vector<TensorAny>)
}

}  // namespace burn::autodiff
