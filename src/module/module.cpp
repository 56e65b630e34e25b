#include "burn/module/module.hpp"

#include <ostream>

#include "platform/sync.hpp"

namespace burn {

ParamId ParamId::create() {
    // Unique within the process and unlikely to collide with ids loaded from files (high bits random
    // per process start, low bits a counter).
    static platform::Counter<uint64_t> counter{0};
    static const uint64_t base = [] {
        uint64_t x = reinterpret_cast<uintptr_t>(&counter) ^ 0x9E3779B97F4A7C15ull;
        x ^= x >> 33;
        x *= 0xff51afd7ed558ccdull;
        x ^= x >> 33;
        return x & 0xFFFFFFFF00000000ull;
    }();
    return ParamId(base | (counter.fetch_add(1) + 1));
}

std::ostream& operator<<(std::ostream& os, ParamId id) {
    return os << "ParamId(" << id.value() << ")";
}

detail::Text& operator<<(detail::Text& os, ParamId id) {
    return os << "ParamId(" << id.value() << ")";
}

struct detail::LazyTensor::Once {
    platform::Mutex mutex;
    TensorAny value;
};

detail::LazyTensor::LazyTensor(std::function<TensorAny()> init, Dims shape, DType dtype, Device device)
    : init_(std::move(init)),
      shape_(shape),
      dtype_(dtype),
      device_(device),
      once_(std::make_shared<Once>()) {}

TensorAny detail::LazyTensor::get() {
    platform::Lock lock(once_->mutex);
    if (!once_->value.defined()) {
        TensorAny t = init_();
        BURN_CHECK(t.defined() && t.shape() == shape_ && t.dtype() == dtype_,
                   "[Param::uninitialized] init gave ", t.defined() ? t.dtype() : dtype_, " ",
                   t.defined() ? t.shape() : Dims{}, " but the parameter was declared ", dtype_, " ", shape_,
                   "; make init return the declared shape and dtype");
        once_->value = std::move(t);
        init_ = nullptr;  // what it captured is no longer needed
    }
    return once_->value;
}

bool detail::LazyTensor::initialized() const {
    platform::Lock lock(once_->mutex);
    return once_->value.defined();
}

}  // namespace burn

namespace burn::module {

void check_load(const store::ApplyResult& result, bool partial_allowed) {
    if (!result.errors.empty() || (!partial_allowed && !result.missing.empty()))
        BURN_THROW(
            "[load_from] the load failed and nothing was applied: ", result.summary(),
            result.errors.empty() ? "\n  (allow_partial(true) on the store accepts missing tensors)" : "");
}

}  // namespace burn::module

namespace burn::module {

void check_defined(const std::vector<store::TensorSnapshot>& snapshots) {
    for (const auto& s : snapshots)
        BURN_CHECK(s.tensor.defined(), "[load_from] the ", s.is_buffer ? "buffer" : "parameter", " '", s.path,
                   "' is uninitialised (a default-constructed module, e.g. `nn::Linear fc;`): its shape is "
                   "unknown, so nothing can be loaded into it. Build the module from its config first "
                   "(nn::LinearConfig{in, out}.init(device)), then load; nothing was changed");
}

}  // namespace burn::module
