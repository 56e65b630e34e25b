#include "store/burnpack_format.hpp"

#include <algorithm>

#include "burn/core/error.hpp"
#include "burn/store/burnpack.hpp"
#include "store/burnpack_dtype.hpp"
#include "store/format.hpp"
#include "store/json_guard.hpp"

namespace burn::store::detail {

namespace {

constexpr const char* kBurnpackOp = "BurnpackStore";
constexpr uint64_t kHeaderBytes = 10;

using nlohmann::json;
using nlohmann::ordered_json;

/// Rust burn's serde names of a scalar's variant (burn-pack's `Scalar`: Int, UInt, Float, Bool).
const char* scalar_key(Scalar::Kind k) {
    switch (k) {
        case Scalar::Kind::i64:
            return "Int";
        case Scalar::Kind::u64:
            return "UInt";
        case Scalar::Kind::f64:
            return "Float";
        case Scalar::Kind::boolean:
            return "Bool";
    }
    return "Int";
}

/// A tensor's dtype in a file (burnpack_dtype.hpp's spellings), or an error naming what is wrong.
DType parse_dtype(const std::string& name, const json& v) {
    if (auto d = burnpack_dtype(v)) return *d;
    if (v.is_object() && v.size() == 1 && v.begin().key() == "Bool")
        BURN_THROW("[", kBurnpackOp, "] tensor '", name, "' is a Bool tensor stored as ",
                   v.begin().value().dump(),
                   "; only one byte per element (Native, U8) is supported: save it from a CPU backend");
    BURN_CHECK(v.is_string(), "[", kBurnpackOp, "] tensor '", name, "' has no dtype");
    const std::string t = v.get<std::string>();
    BURN_CHECK(t != "U64" && t != "U32" && t != "U16", "[", kBurnpackOp, "] tensor '", name, "' has dtype ",
               t, ", which this build has no tensors of; convert it to I64 (or I32) before saving");
    BURN_CHECK(t.rfind("QFloat", 0) != 0, "[", kBurnpackOp, "] tensor '", name,
               "' is quantized (QFloat), which this build does not read yet; dequantize before saving");
    return dtype_from_name(t);  // throws naming the accepted names
}

Scalar parse_scalar(const std::string& name, const json& v) {
    BURN_CHECK(v.is_object() && v.size() == 1, "[", kBurnpackOp, "] scalar '", name,
               "' is not a one-entry map {type: value} (the file is corrupt)");
    // Not `*v.items().begin()`: that dereferences a temporary proxy, and a binding to its key outlives
    // it (AddressSanitizer found the read after scope on the seed corpus).
    const auto entry = v.begin();
    const std::string& type = entry.key();
    const json& value = entry.value();
    // Rust burn's variant names, and this project's earlier ones (i64, u64, f64, bool).
    const bool is_int = type == "Int" || type == "i64", is_uint = type == "UInt" || type == "u64";
    const bool is_float = type == "Float" || type == "f64", is_bool = type == "Bool" || type == "bool";
    if (is_int && value.is_number_integer()) {
        if (value.is_number_unsigned()) {
            auto u = value.get<uint64_t>();
            BURN_CHECK(u <= static_cast<uint64_t>(INT64_MAX), "[", kBurnpackOp, "] scalar '", name,
                       "' overflows i64");
            return Scalar(static_cast<int64_t>(u));
        }
        return Scalar(value.get<int64_t>());
    }
    if (is_uint && value.is_number_unsigned()) return Scalar(value.get<uint64_t>());
    if (is_float && value.is_number()) return Scalar(value.get<double>());
    if (is_bool && value.is_boolean()) return Scalar(value.get<bool>());
    BURN_THROW("[", kBurnpackOp, "] scalar '", name, "' has type '", type, "' with a ", value.type_name(),
               " value; expected Int, UInt, Float or Bool");
}

BurnpackTensor parse_tensor(const std::string& name, const json& t, uint64_t data_start, uint64_t data_size,
                            const Limits& limits) {
    BURN_CHECK(t.is_object(), "[", kBurnpackOp, "] tensor '", name, "' is not a map (the file is corrupt)");
    BurnpackTensor out;
    out.name = name;
    auto dt = t.find("dtype");
    BURN_CHECK(dt != t.end(), "[", kBurnpackOp, "] tensor '", name, "' has no dtype");
    out.dtype = parse_dtype(name, *dt);
    auto sh = t.find("shape");
    BURN_CHECK(sh != t.end() && sh->is_array(), "[", kBurnpackOp, "] tensor '", name, "' has no shape");
    std::vector<int64_t> dims;
    for (const auto& d : *sh) {
        uint64_t v = json_u64(d, kBurnpackOp, name, "shape");
        BURN_CHECK(v <= static_cast<uint64_t>(INT64_MAX), "[", kBurnpackOp, "] tensor '", name,
                   "': dimension ", v, " is absurd (the file is corrupt)");
        dims.push_back(static_cast<int64_t>(v));
        BURN_CHECK(dims.size() <= static_cast<std::size_t>(kMaxRank), "[", kBurnpackOp, "] tensor '", name,
                   "' has rank over ", kMaxRank);
    }
    out.shape = shape_from(dims, kBurnpackOp, name);
    uint64_t nbytes = tensor_nbytes(out.shape, out.dtype, limits, kBurnpackOp, name);
    auto off = t.find("data_offsets");
    BURN_CHECK(off != t.end() && off->is_array() && off->size() == 2, "[", kBurnpackOp, "] tensor '", name,
               "' has no data_offsets [start, end]");
    uint64_t start = json_u64((*off)[0], kBurnpackOp, name, "data_offsets"),
             end = json_u64((*off)[1], kBurnpackOp, name, "data_offsets");
    BURN_CHECK(start <= end && end <= data_size, "[", kBurnpackOp, "] tensor '", name, "' spans bytes [",
               start, ", ", end, ") of a data section of ", data_size,
               " bytes (the file is truncated or corrupt)");
    BURN_CHECK(end - start == nbytes, "[", kBurnpackOp, "] tensor '", name, "' of shape ", out.shape,
               " and dtype ", out.dtype, " needs ", nbytes, " bytes but its range holds ", end - start);
    BURN_CHECK(start % kBurnpackAlignment == 0, "[", kBurnpackOp, "] tensor '", name, "' starts at ", start,
               ", not on a ", kBurnpackAlignment, "-byte boundary (the file is corrupt)");
    out.start = data_start + start;
    out.end = data_start + end;
    auto pid = t.find("param_id");
    if (pid != t.end() && !pid->is_null()) out.param_id = json_u64(*pid, kBurnpackOp, name, "param_id");
    return out;
}

}  // namespace

BurnpackContents parse_burnpack(const uint8_t* data, std::size_t size, const Limits& limits) {
    return parse_burnpack(data, size, limits, size);
}

BurnpackContents parse_burnpack(const uint8_t* data, std::size_t head_size, const Limits& limits,
                                uint64_t size) {
    BURN_CHECK(size >= kHeaderBytes, "[", kBurnpackOp, "] the file has ", size, " bytes, fewer than the ",
               kHeaderBytes, "-byte header: it is truncated or not a Burnpack file");
    BURN_CHECK(size <= limits.max_file_bytes, "[", kBurnpackOp, "] the file has ", size,
               " bytes, over the limit of ", limits.max_file_bytes);
    BURN_CHECK(head_size >= kHeaderBytes, "[", kBurnpackOp,
               "] the file ends within its header (it shrank while "
               "being read)");
    uint32_t magic = read_le<uint32_t>(data);
    BURN_CHECK(magic == kBurnpackMagic, "[", kBurnpackOp, "] not a Burnpack file: it starts with bytes 0x",
               std::hex, magic, " instead of the magic \"NRUB\" (0x4255524E)");
    uint16_t version = read_le<uint16_t>(data + 4);
    BURN_CHECK(version == kBurnpackVersion, "[", kBurnpackOp, "] Burnpack version ", version,
               " is not supported; this build reads version ", kBurnpackVersion);
    uint64_t meta_size = read_le<uint32_t>(data + 6);
    BURN_CHECK(meta_size <= limits.max_header_bytes, "[", kBurnpackOp, "] metadata of ", meta_size,
               " bytes exceeds the limit of ", limits.max_header_bytes);
    BURN_CHECK(kHeaderBytes + meta_size <= size, "[", kBurnpackOp, "] metadata of ", meta_size,
               " bytes runs past the end of a ", size, "-byte file (truncated)");
    BURN_CHECK(head_size >= kHeaderBytes + meta_size, "[", kBurnpackOp, "] the file ends within its ",
               kHeaderBytes + meta_size, "-byte header (it shrank while being read)");
    json meta = parse_untrusted(data + kHeaderBytes, meta_size, Syntax::cbor, limits.max_depth, kBurnpackOp,
                                "metadata");
    BURN_CHECK(meta.is_object(), "[", kBurnpackOp, "] the metadata is not a CBOR map (the file is corrupt)");

    uint64_t data_start = align_up(kHeaderBytes + meta_size, kBurnpackAlignment);
    uint64_t data_size = size > data_start ? size - data_start : 0;
    BurnpackContents out;
    auto tensors = meta.find("tensors");
    BURN_CHECK(tensors != meta.end() && tensors->is_object(), "[", kBurnpackOp,
               "] the metadata has no 'tensors' map");
    BURN_CHECK(tensors->size() <= limits.max_tensors, "[", kBurnpackOp, "] the file declares ",
               tensors->size(), " tensors, over the limit of ", limits.max_tensors);
    for (const auto& [name, t] : tensors->items())
        out.tensors.push_back(parse_tensor(name, t, data_start, data_size, limits));
    std::sort(out.tensors.begin(), out.tensors.end(), [](const BurnpackTensor& a, const BurnpackTensor& b) {
        return a.start < b.start || (a.start == b.start && a.end < b.end);
    });
    for (std::size_t i = 1; i < out.tensors.size(); ++i) {
        const auto &a = out.tensors[i - 1], &b = out.tensors[i];
        BURN_CHECK(a.end <= b.start || a.start == a.end || b.start == b.end, "[", kBurnpackOp, "] tensors '",
                   a.name, "' and '", b.name, "' overlap (the file is corrupt)");
    }
    if (auto md = meta.find("metadata"); md != meta.end()) {
        BURN_CHECK(md->is_object(), "[", kBurnpackOp, "] 'metadata' is not a map");
        for (const auto& [k, v] : md->items()) {
            BURN_CHECK(v.is_string(), "[", kBurnpackOp, "] metadata '", k, "' is not a string");
            out.metadata[k] = v.get<std::string>();
        }
    }
    if (auto sc = meta.find("scalars"); sc != meta.end()) {
        BURN_CHECK(sc->is_object(), "[", kBurnpackOp, "] 'scalars' is not a map");
        for (const auto& [k, v] : sc->items()) out.scalars[k] = parse_scalar(k, v);
    }
    return out;
}

std::string write_burnpack(const std::vector<TensorEntry>& entries,
                           const std::map<std::string, Scalar>& scalars,
                           const std::map<std::string, std::string>& metadata) {
    ordered_json tensors = ordered_json::object();
    uint64_t offset = 0;
    std::vector<uint64_t> starts;
    Limits unlimited;
    unlimited.max_tensor_bytes = UINT64_MAX;
    for (const auto& e : entries) {
        BURN_CHECK(!tensors.contains(e.name), "[", kBurnpackOp, "] two tensors are named '", e.name, "'");
        uint64_t n = tensor_nbytes(e.shape, e.dtype, unlimited, kBurnpackOp, e.name);
        offset = align_up(offset, kBurnpackAlignment);
        starts.push_back(offset);
        ordered_json t;
        t["dtype"] = burnpack_dtype_value(e.dtype);
        t["shape"] = ordered_json::array();
        for (int64_t d : e.shape) t["shape"].push_back(static_cast<uint64_t>(d));
        t["data_offsets"] = {offset, offset + n};
        if (e.param_id) t["param_id"] = *e.param_id;  // Rust burn omits a missing id
        tensors[e.name] = std::move(t);
        offset += n;
    }
    ordered_json meta;
    meta["tensors"] = std::move(tensors);
    // Rust burn leaves out empty metadata and scalars maps.
    for (const auto& [k, v] : metadata) meta["metadata"][k] = v;
    for (const auto& [k, s] : scalars) {
        ordered_json v;
        switch (s.kind()) {
            case Scalar::Kind::i64:
                v = s.as_i64();
                break;
            case Scalar::Kind::u64:
                v = s.as_u64();
                break;
            case Scalar::Kind::f64:
                v = s.as_f64();
                break;
            case Scalar::Kind::boolean:
                v = s.as_bool();
                break;
        }
        meta["scalars"][k] = ordered_json{{scalar_key(s.kind()), v}};
    }
    std::vector<uint8_t> cbor = ordered_json::to_cbor(meta);
    BURN_CHECK(cbor.size() <= UINT32_MAX, "[", kBurnpackOp, "] the metadata needs ", cbor.size(),
               " bytes, over the format's 4 GiB");

    std::string out;
    uint64_t data_start = align_up(kHeaderBytes + cbor.size(), kBurnpackAlignment);
    out.reserve(static_cast<std::size_t>(data_start + offset));
    append_le<uint32_t>(out, kBurnpackMagic);
    append_le<uint16_t>(out, kBurnpackVersion);
    append_le<uint32_t>(out, static_cast<uint32_t>(cbor.size()));
    out.append(reinterpret_cast<const char*>(cbor.data()), cbor.size());
    for (std::size_t i = 0; i < entries.size(); ++i) {
        out.resize(static_cast<std::size_t>(data_start + starts[i]), '\0');
        TensorData d = entries[i].read();
        BURN_CHECK(d.dtype() == entries[i].dtype && d.shape() == entries[i].shape, "[", kBurnpackOp,
                   "] tensor '", entries[i].name, "' was declared ", entries[i].dtype, " ", entries[i].shape,
                   " but reads as ", d.dtype(), " ", d.shape());
        out.append(reinterpret_cast<const char*>(d.bytes().data()), d.bytes().size());
    }
    return out;
}

}  // namespace burn::store::detail
