// HalfPrecisionAdapter (burn/store/adapter.hpp): float32 tensors saved as f16/bf16 and read back as
// float32. Conversions go through convert_checked, so an overflow is an error naming the tensor.
#include "burn/core/error.hpp"
#include "burn/store/adapter.hpp"
#include "store/convert.hpp"

namespace burn::store {

namespace {

/// e whose data reads converted to dtype `to`.
TensorEntry converted(TensorEntry e, DType to) {
    if (e.read)
        e.read = [read = std::move(e.read), to, name = e.name] {
            return detail::convert_checked(read(), to, name);
        };
    e.dtype = to;
    return e;
}

}  // namespace

HalfPrecisionAdapter::HalfPrecisionAdapter(DType half, PathFilter filter)
    : half_(half), filter_(std::move(filter)) {
    BURN_CHECK_KIND(half == DType::f16 || half == DType::bf16, dtype,
                    "[HalfPrecisionAdapter] converts float32 to f16 or bf16, not ", half);
}

std::vector<TensorEntry> HalfPrecisionAdapter::adapt_load(std::vector<TensorEntry> entries,
                                                          const std::set<std::string>&, ApplyResult&) const {
    for (auto& e : entries)
        if (e.dtype == half_ && e.unsupported.empty() && filter_.accepts(e.name))
            e = converted(std::move(e), DType::f32);
    return entries;
}

std::vector<TensorEntry> HalfPrecisionAdapter::adapt_save(std::vector<TensorEntry> entries) const {
    for (auto& e : entries)
        if (e.dtype == DType::f32 && filter_.accepts(e.name)) e = converted(std::move(e), half_);
    return entries;
}

}  // namespace burn::store
