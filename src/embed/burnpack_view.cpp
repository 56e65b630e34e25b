// BurnpackView: the Burnpack layout (docs/storage.md) parsed from memory with every check a corrupt
// pack needs, without exceptions (nlohmann's CBOR reader with allow_exceptions = false) so that bare
// metal reports a bad pack through the error handler instead of aborting inside the parser.
#include "burn/embed/burnpack_view.hpp"

#include <nlohmann/json.hpp>

#include "burn/core/error.hpp"
#include "store/burnpack_dtype.hpp"

namespace burn::embed {

namespace {
constexpr uint32_t kMagic = 0x4255524E;  // "NRUB" little-endian; store/burnpack.hpp's kBurnpackMagic
constexpr uint16_t kVersion = 1;
constexpr uint64_t kAlignment = 256;
constexpr uint64_t kHeaderBytes = 10;

uint64_t read_le(const uint8_t* p, int n) {
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}

}  // namespace

BurnpackView::BurnpackView(const void* data, std::size_t size, std::string_view what) : what_(what) {
    const auto* bytes = static_cast<const uint8_t*>(data);
    const char* w = what_.c_str();
    BURN_CHECK(bytes != nullptr && size >= kHeaderBytes, "[BurnpackView] ", w, ": ", size,
               " bytes, fewer than the 10-byte header (not a Burnpack)");
    const uint64_t magic = read_le(bytes, 4);
    BURN_CHECK(magic == kMagic, "[BurnpackView] ", w, ": starts with 0x", std::hex, magic, std::dec,
               " instead of the Burnpack magic 0x4255524e (corrupt, or not a Burnpack)");
    const uint64_t version = read_le(bytes + 4, 2);
    BURN_CHECK(version == kVersion, "[BurnpackView] ", w, ": Burnpack version ", version,
               " is not supported (this build reads version ", kVersion, ")");
    const uint64_t meta_size = read_le(bytes + 6, 4);
    BURN_CHECK(meta_size <= size - kHeaderBytes, "[BurnpackView] ", w, ": a metadata block of ", meta_size,
               " bytes runs past the end of the ", size, "-byte pack (truncated or corrupt)");
    const nlohmann::json meta =
        nlohmann::json::from_cbor(bytes + kHeaderBytes, bytes + kHeaderBytes + meta_size,
                                  /*strict=*/true, /*allow_exceptions=*/false);
    BURN_CHECK(!meta.is_discarded() && meta.is_object(), "[BurnpackView] ", w, ": the ", meta_size,
               "-byte metadata block is not a valid CBOR map (corrupt)");
    const uint64_t data_start = (kHeaderBytes + meta_size + kAlignment - 1) / kAlignment * kAlignment;
    const uint64_t data_size = size > data_start ? size - data_start : 0;
    auto tensors = meta.find("tensors");
    BURN_CHECK(tensors != meta.end() && tensors->is_object(), "[BurnpackView] ", w,
               ": the metadata has no 'tensors' map (corrupt)");
    entries_.reserve(tensors->size());
    for (auto it = tensors->begin(); it != tensors->end(); ++it) {
        const std::string& n = it.key();
        const nlohmann::json& t = it.value();
        BURN_CHECK(t.is_object(), "[BurnpackView] ", w, ": tensor '", n, "' is not a map (corrupt)");
        Entry e;
        e.name = n;
        auto dt = t.find("dtype");
        const auto d = dt != t.end() ? store::detail::burnpack_dtype(*dt) : std::nullopt;
        BURN_CHECK(d.has_value(), "[BurnpackView] ", w, ": tensor '", n, "' has no dtype this build reads ",
                   dt != t.end() ? dt->dump() : std::string("(none)"), " (corrupt, or a dtype left out)");
        e.dtype = *d;
        auto sh = t.find("shape");
        BURN_CHECK(sh != t.end() && sh->is_array() && sh->size() <= static_cast<std::size_t>(kMaxRank),
                   "[BurnpackView] ", w, ": tensor '", n, "' has no shape of rank at most ", kMaxRank);
        for (const auto& d : *sh) {
            BURN_CHECK(d.is_number_unsigned() && d.get<uint64_t>() <= static_cast<uint64_t>(size),
                       "[BurnpackView] ", w, ": tensor '", n,
                       "' has a dimension that is not a size (corrupt)");
            e.shape.push_back(static_cast<int64_t>(d.get<uint64_t>()));
        }
        int64_t numel = 0;
        BURN_CHECK(shape_fits(e.shape, size_of(e.dtype), numel), "[BurnpackView] ", w, ": tensor '", n,
                   "' of shape ", e.shape, " is too large (corrupt)");
        auto off = t.find("data_offsets");
        BURN_CHECK(off != t.end() && off->is_array() && off->size() == 2 && (*off)[0].is_number_unsigned() &&
                       (*off)[1].is_number_unsigned(),
                   "[BurnpackView] ", w, ": tensor '", n, "' has no data_offsets [start, end] (corrupt)");
        const uint64_t start = (*off)[0].get<uint64_t>(), end = (*off)[1].get<uint64_t>();
        const uint64_t need = static_cast<uint64_t>(numel) * size_of(e.dtype);
        BURN_CHECK(start <= end && end <= data_size, "[BurnpackView] ", w, ": tensor '", n, "' spans bytes [",
                   start, ", ", end, ") of a data section of ", data_size, " bytes (truncated or corrupt)");
        BURN_CHECK(end - start == need, "[BurnpackView] ", w, ": tensor '", n, "' (", e.dtype, " ", e.shape,
                   ") needs ", need, " bytes but its range holds ", end - start, " (corrupt)");
        BURN_CHECK(start % kAlignment == 0, "[BurnpackView] ", w, ": tensor '", n, "' starts at ", start,
                   ", not on a 256-byte boundary (corrupt)");
        e.data = bytes + data_start + start;
        e.bytes = static_cast<std::size_t>(need);
        entries_.push_back(std::move(e));
    }
}

const BurnpackView::Entry* BurnpackView::find(std::string_view name) const {
    for (const Entry& e : entries_)
        if (e.name == name) return &e;
    return nullptr;
}

TensorAny BurnpackView::tensor(std::string_view name) const {
    const Entry* e = find(name);
    BURN_CHECK(e != nullptr, "[BurnpackView] ", what_, ": no tensor named '", name, "' (it holds ",
               entries_.size(), " tensors)");
    BURN_CHECK(reinterpret_cast<std::uintptr_t>(e->data) % size_of(e->dtype) == 0, "[BurnpackView] ", what_,
               ": tensor '", name,
               "' is not aligned in memory; place the pack's array on a 256-byte "
               "boundary (burn-embed does)");
    return ops::from_external(e->data, e->shape, e->dtype, Device::cpu());
}

void BurnpackView::check_shape_of(std::string_view name, const TensorAny& t, int rank,
                                  const Dims& shape) const {
    BURN_CHECK_KIND(t.rank() == rank && (shape.rank() == 0 || t.shape() == shape), shape, "[BurnpackView] ",
                    what_, ": tensor '", name, "' has shape ", t.shape(), ", expected ",
                    shape.rank() ? shape.str() : "rank " + std::to_string(rank));
}

}  // namespace burn::embed
