// LoRA adapters on Linear (nn/lora.hpp): attach, merge, unmerge.
#include "burn/nn/lora.hpp"

#include <cmath>

namespace burn::nn {

void attach_lora(Linear& l, const LoraConfig& c) {
    BURN_CHECK(l.weight.val().defined(),
               "[apply_lora] a Linear has no weight (a default-constructed layer); ",
               "build it with LinearConfig::init first");
    BURN_CHECK(c.rank > 0 && std::isfinite(c.alpha),
               "[apply_lora] rank must be positive and alpha finite, got ", c.rank, " and ", c.alpha);
    const Device device = l.weight.val().device();
    const auto d_out = static_cast<std::size_t>(l.weight.val().dims()[0]);
    const auto d_in = static_cast<std::size_t>(l.weight.val().dims()[1]);
    LoraAdapter a;
    a.lora_a = Param<Tensor<2>>(c.initializer.init<2>({c.rank, d_in}, static_cast<int64_t>(d_in),
                                                      static_cast<int64_t>(c.rank), device));
    a.lora_b = Param<Tensor<2>>(Tensor<2>::zeros({d_out, c.rank}, device, l.weight.val().dtype()));
    a.scaling = c.alpha / static_cast<double>(c.rank);
    if (c.freeze_base) {
        l.weight.set_require_grad(false);
        if (l.bias) l.bias->set_require_grad(false);
    }
    l.lora = std::move(a);
}

namespace {
/// scaling * B A, detached (merging is for inference; the adapter stays the trainable part).
Tensor<2> delta(const LoraAdapter& a) {
    return (a.lora_b.val().matmul(a.lora_a.val()) * a.scaling).detach();
}
}  // namespace

void merge_lora(Linear& l) {
    if (!l.lora || l.lora->merged) return;
    l.weight.set(l.weight.val().detach() + delta(*l.lora));
    l.lora->merged = true;
}

void unmerge_lora(Linear& l) {
    if (!l.lora || !l.lora->merged) return;
    l.weight.set(l.weight.val().detach() - delta(*l.lora));
    l.lora->merged = false;
}

}  // namespace burn::nn
