// GradientsParams and GradientsAccumulator.
#include "burn/optim/gradients_params.hpp"

#include <algorithm>
#include <unordered_set>

namespace burn::optim {

std::optional<TensorAny> GradientsParams::get(ParamId id) const {
    auto it = grads_.find(id.value());
    if (it == grads_.end()) return std::nullopt;
    return it->second;
}

std::optional<TensorAny> GradientsParams::remove(ParamId id) {
    auto it = grads_.find(id.value());
    if (it == grads_.end()) return std::nullopt;
    TensorAny g = std::move(it->second);
    grads_.erase(it);
    return g;
}

void GradientsParams::set(ParamId id, TensorAny grad) {
    BURN_CHECK(grad.defined(), "[GradientsParams::set] undefined gradient for parameter ", id);
    grads_[id.value()] = std::move(grad);
}

void GradientsParams::check_belongs(const std::vector<ParamId>& ids, const char* op) const {
    std::unordered_set<uint64_t> known;
    for (ParamId id : ids) known.insert(id.value());
    std::vector<uint64_t> foreign;
    for (const auto& [id, g] : grads_)
        if (!known.count(id)) foreign.push_back(id);
    if (foreign.empty()) return;
    std::sort(foreign.begin(), foreign.end());
    ::burn::detail::Text names;
    for (std::size_t i = 0; i < foreign.size() && i < 4; ++i) names << (i ? ", " : "") << foreign[i];
    if (foreign.size() > 4) names << ", ...";
    BURN_THROW("[", op, "] ", foreign.size(), " of the ", grads_.size(),
               " gradients belong to parameters this module does not have (ids ", names.str(),
               "); build the gradients with GradientsParams::from_grads(loss.backward(), model) from the "
               "same model that is stepped");
}

void GradientsParams::check_from_grads(std::size_t total, std::size_t trainable, std::size_t matched) {
    BURN_CHECK(total == 0 || trainable == 0 || matched > 0, "[GradientsParams::from_grads] none of the ",
               total, " gradients belongs to one of the module's ", trainable,
               " trainable parameters: the loss was computed with another model (or with copies of the "
               "parameters made before this module); call backward() on a loss computed by this module");
}

void GradientsAccumulator::add(const std::vector<ParamId>& ids, GradientsParams grads) {
    grads.check_belongs(ids, "GradientsAccumulator::accumulate");
    for (ParamId id : ids) {
        auto g = grads.remove(id);
        if (!g) continue;
        auto sum = sum_.remove(id);
        if (!sum) {
            sum_.set(id, std::move(*g));
            continue;
        }
        BURN_CHECK_KIND(sum->shape() == g->shape(), shape,
                        "[GradientsAccumulator::accumulate] gradient of shape ", g->shape(),
                        " for parameter ", id, " whose accumulated gradient has shape ", sum->shape());
        if (g->dtype() != sum->dtype()) *g = ops::cast(std::move(*g), sum->dtype());
        sum_.set(id, ops::add(std::move(*sum), std::move(*g)));
    }
    ++count_;
}

GradientsParams GradientsAccumulator::grads() {
    GradientsParams out = std::move(sum_);
    sum_ = GradientsParams();
    count_ = 0;
    return out;
}

}  // namespace burn::optim
