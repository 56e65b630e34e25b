// The cast adapters (burn/store/adapter.hpp): HalfPrecisionAdapter (float32 saved as f16/bf16, read back
// as float32) and FloatCastAdapter (every float entry converted to one float dtype, on save and on
// load). Both wrap an entry's reader in convert_checked, so an overflow is an error naming the tensor.
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

/// The entries the filter accepts whose dtype `from` selects, converted to `to`.
template <class From>
std::vector<TensorEntry> convert_where(std::vector<TensorEntry> entries, From from, DType to,
                                       const PathFilter& filter) {
    for (auto& e : entries)
        if (from(e.dtype) && e.dtype != to && e.unsupported.empty() && filter.accepts(e.name))
            e = converted(std::move(e), to);
    return entries;
}

}  // namespace

HalfPrecisionAdapter::HalfPrecisionAdapter(DType half, PathFilter filter)
    : half_(half), filter_(std::move(filter)) {
    BURN_CHECK_KIND(half == DType::f16 || half == DType::bf16, dtype,
                    "[HalfPrecisionAdapter] converts float32 to f16 or bf16, not ", half);
}

std::vector<TensorEntry> HalfPrecisionAdapter::adapt_load(std::vector<TensorEntry> entries,
                                                          const std::set<std::string>&, ApplyResult&) const {
    return convert_where(
        std::move(entries), [h = half_](DType d) { return d == h; }, DType::f32, filter_);
}

std::vector<TensorEntry> HalfPrecisionAdapter::adapt_save(std::vector<TensorEntry> entries) const {
    return convert_where(
        std::move(entries), [](DType d) { return d == DType::f32; }, half_, filter_);
}

FloatCastAdapter::FloatCastAdapter(DType to, PathFilter filter) : to_(to), filter_(std::move(filter)) {
    BURN_CHECK_KIND(is_float(to), dtype,
                    "[FloatCastAdapter] casts float tensors to a float dtype (f64, f32, ", "f16, bf16), not ",
                    to, "; for integer conversions use the store's dtype_policy");
}

std::vector<TensorEntry> FloatCastAdapter::adapt_load(std::vector<TensorEntry> entries,
                                                      const std::set<std::string>&, ApplyResult&) const {
    return convert_where(std::move(entries), is_float, to_, filter_);
}

std::vector<TensorEntry> FloatCastAdapter::adapt_save(std::vector<TensorEntry> entries) const {
    return convert_where(std::move(entries), is_float, to_, filter_);
}

}  // namespace burn::store
