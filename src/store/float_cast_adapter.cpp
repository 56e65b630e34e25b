// FloatCastAdapter (burn/store/adapter.hpp): float entries read converted to one float dtype, on save
// and on load. Conversions go through convert_checked, so an overflow is an error naming the tensor.
#include "burn/core/error.hpp"
#include "burn/store/adapter.hpp"
#include "store/convert.hpp"

namespace burn::store {

namespace {

std::vector<TensorEntry> cast_floats(std::vector<TensorEntry> entries, DType to, const PathFilter& filter) {
    for (auto& e : entries) {
        if (!is_float(e.dtype) || e.dtype == to || !e.unsupported.empty() || !filter.accepts(e.name))
            continue;
        if (e.read)
            e.read = [read = std::move(e.read), to, name = e.name] {
                return detail::convert_checked(read(), to, name);
            };
        e.dtype = to;
    }
    return entries;
}

}  // namespace

FloatCastAdapter::FloatCastAdapter(DType to, PathFilter filter) : to_(to), filter_(std::move(filter)) {
    BURN_CHECK_KIND(is_float(to), dtype,
                    "[FloatCastAdapter] casts float tensors to a float dtype (f64, f32, ", "f16, bf16), not ",
                    to, "; for integer conversions use the store's dtype_policy");
}

std::vector<TensorEntry> FloatCastAdapter::adapt_load(std::vector<TensorEntry> entries,
                                                      const std::set<std::string>&, ApplyResult&) const {
    return cast_floats(std::move(entries), to_, filter_);
}

std::vector<TensorEntry> FloatCastAdapter::adapt_save(std::vector<TensorEntry> entries) const {
    return cast_floats(std::move(entries), to_, filter_);
}

}  // namespace burn::store
