#include "store/safetensors_format.hpp"

#include <algorithm>

#include "burn/core/error.hpp"
#include "store/format.hpp"
#include "store/json_guard.hpp"

namespace burn::store::detail {

namespace {

constexpr const char* kSafetensorsOp = "SafetensorsStore";

struct DTypeName {
    const char* name;
    DType dtype;
};
constexpr DTypeName kNames[] = {{"F32", DType::f32},     {"F64", DType::f64}, {"F16", DType::f16},
                                {"BF16", DType::bf16},   {"I64", DType::i64}, {"I32", DType::i32},
                                {"I16", DType::i16},     {"I8", DType::i8},   {"U8", DType::u8},
                                {"BOOL", DType::boolean}};
// SafeTensors dtypes the project cannot hold, with their element sizes (for range checks).
constexpr std::pair<const char*, uint64_t> kUnsupported[] = {
    {"U16", 2},     {"U32", 4},     {"U64", 8}, {"F8_E4M3", 1}, {"F8_E5M2", 1}, {"C64", 8},
    {"F6_E2M3", 1}, {"F6_E3M2", 1}, {"F4", 1},  {"E8M0", 1},    {"F8_E8M0", 1}};

const char* st_name(DType d) {
    for (const auto& n : kNames)
        if (n.dtype == d) return n.name;
    return "F32";
}

}  // namespace

SafetensorsContents parse_safetensors(const uint8_t* data, std::size_t size, const Limits& limits) {
    return parse_safetensors(data, size, limits, size);
}

SafetensorsContents parse_safetensors(const uint8_t* data, std::size_t head_size, const Limits& limits,
                                      uint64_t size) {
    BURN_CHECK(size >= 8, "[", kSafetensorsOp, "] the file has ", size,
               " bytes, fewer than the 8-byte header length: ", "it is truncated or not a SafeTensors file");
    BURN_CHECK(size <= limits.max_file_bytes, "[", kSafetensorsOp, "] the file has ", size,
               " bytes, over the limit of ", limits.max_file_bytes);
    BURN_CHECK(head_size >= 8, "[", kSafetensorsOp,
               "] the file ends within its header (it shrank while being read)");
    uint64_t n = read_le<uint64_t>(data);
    BURN_CHECK(n <= limits.max_header_bytes, "[", kSafetensorsOp, "] a header of ", n,
               " bytes exceeds the limit of ", limits.max_header_bytes,
               " (the file is corrupt or not a SafeTensors file)");
    BURN_CHECK(n <= size - 8, "[", kSafetensorsOp, "] a header of ", n, " bytes runs past the end of a ",
               size, "-byte file (truncated)");
    BURN_CHECK(head_size >= 8 + n, "[", kSafetensorsOp, "] the file ends within its ", 8 + n,
               "-byte header (it shrank while being read)");
    BURN_CHECK(n >= 2 && data[8] == '{', "[", kSafetensorsOp,
               "] the header does not start with '{': not a SafeTensors file");
    auto header = parse_untrusted(data + 8, n, Syntax::json, limits.max_depth, kSafetensorsOp, "JSON header");
    BURN_CHECK(header.is_object(), "[", kSafetensorsOp, "] the header is not a JSON object");
    uint64_t data_start = 8 + n, data_size = size - data_start;

    SafetensorsContents out;
    BURN_CHECK(header.size() <= limits.max_tensors + 1, "[", kSafetensorsOp, "] the header declares ",
               header.size(), " tensors, over the limit of ", limits.max_tensors);
    for (const auto& [name, t] : header.items()) {
        if (name == "__metadata__") {
            BURN_CHECK(t.is_object(), "[", kSafetensorsOp, "] __metadata__ is not an object");
            for (const auto& [k, v] : t.items()) {
                BURN_CHECK(v.is_string(), "[", kSafetensorsOp, "] __metadata__ entry '", k,
                           "' is not a string");
                out.metadata[k] = v.get<std::string>();
            }
            continue;
        }
        BURN_CHECK(t.is_object(), "[", kSafetensorsOp, "] tensor '", name, "' is not an object");
        SafetensorsTensor st;
        st.name = name;
        auto dt = t.find("dtype");
        BURN_CHECK(dt != t.end() && dt->is_string(), "[", kSafetensorsOp, "] tensor '", name,
                   "' has no dtype");
        std::string dts = dt->get<std::string>();
        uint64_t elem = 0;
        for (const auto& k : kNames)
            if (dts == k.name) st.dtype = k.dtype, elem = size_of(k.dtype);
        for (const auto& [u, s] : kUnsupported)
            if (dts == u) st.unsupported = "dtype " + dts + " has no equivalent in this project", elem = s;
        BURN_CHECK(elem != 0, "[", kSafetensorsOp, "] tensor '", name, "' has the unknown dtype '", dts, "'");
        auto sh = t.find("shape");
        BURN_CHECK(sh != t.end() && sh->is_array(), "[", kSafetensorsOp, "] tensor '", name,
                   "' has no shape");
        std::vector<int64_t> dims;
        uint64_t nbytes = elem;
        for (const auto& d : *sh) {
            uint64_t v = json_u64(d, kSafetensorsOp, name, "shape");
            BURN_CHECK(mul_ok(nbytes, v, nbytes) && v <= static_cast<uint64_t>(INT64_MAX), "[",
                       kSafetensorsOp, "] tensor '", name,
                       "' has a shape whose size overflows (the file is corrupt)");
            dims.push_back(static_cast<int64_t>(v));
            BURN_CHECK(dims.size() <= static_cast<std::size_t>(kMaxRank), "[", kSafetensorsOp, "] tensor '",
                       name, "' has rank over ", kMaxRank);
        }
        st.shape = shape_from(dims, kSafetensorsOp, name);
        BURN_CHECK(nbytes <= limits.max_tensor_bytes, "[", kSafetensorsOp, "] tensor '", name, "' needs ",
                   nbytes, " bytes, over the limit of ", limits.max_tensor_bytes);
        auto off = t.find("data_offsets");
        BURN_CHECK(off != t.end() && off->is_array() && off->size() == 2, "[", kSafetensorsOp, "] tensor '",
                   name, "' has no data_offsets [begin, end]");
        uint64_t b = json_u64((*off)[0], kSafetensorsOp, name, "data_offsets"),
                 e = json_u64((*off)[1], kSafetensorsOp, name, "data_offsets");
        BURN_CHECK(b <= e && e <= data_size, "[", kSafetensorsOp, "] tensor '", name, "' spans bytes [", b,
                   ", ", e, ") of a data section of ", data_size,
                   " bytes (the file is truncated or corrupt)");
        BURN_CHECK(e - b == nbytes, "[", kSafetensorsOp, "] tensor '", name, "' of shape ", st.shape,
                   " and dtype ", dts, " needs ", nbytes, " bytes but its range holds ", e - b);
        st.start = data_start + b;
        st.end = data_start + e;
        out.tensors.push_back(std::move(st));
    }
    std::sort(out.tensors.begin(), out.tensors.end(),
              [](const SafetensorsTensor& a, const SafetensorsTensor& b) {
                  return a.start < b.start || (a.start == b.start && a.end < b.end);
              });
    for (std::size_t i = 1; i < out.tensors.size(); ++i) {
        const auto &a = out.tensors[i - 1], &b = out.tensors[i];
        BURN_CHECK(a.end <= b.start || a.start == a.end || b.start == b.end, "[", kSafetensorsOp,
                   "] tensors '", a.name, "' and '", b.name, "' overlap (the file is corrupt)");
    }
    return out;
}

std::string write_safetensors(const std::vector<TensorEntry>& entries,
                              const std::map<std::string, std::string>& metadata) {
    nlohmann::ordered_json header = nlohmann::ordered_json::object();
    if (!metadata.empty()) {
        header["__metadata__"] = nlohmann::ordered_json::object();
        for (const auto& [k, v] : metadata) header["__metadata__"][k] = v;
    }
    uint64_t offset = 0;
    Limits unlimited;
    unlimited.max_tensor_bytes = UINT64_MAX;
    for (const auto& e : entries) {
        BURN_CHECK(e.name != "__metadata__" && !header.contains(e.name), "[", kSafetensorsOp,
                   "] the tensor name '", e.name, "' is reserved or used twice");
        uint64_t n = tensor_nbytes(e.shape, e.dtype, unlimited, kSafetensorsOp, e.name);
        nlohmann::ordered_json t;
        t["dtype"] = st_name(e.dtype);
        t["shape"] = nlohmann::ordered_json::array();
        for (int64_t d : e.shape) t["shape"].push_back(static_cast<uint64_t>(d));
        t["data_offsets"] = {offset, offset + n};
        header[e.name] = std::move(t);
        offset += n;
    }
    std::string h = header.dump();
    h.append((8 - h.size() % 8) % 8, ' ');  // keeps the data section 8-byte aligned, as the reference writer
    std::string out;
    out.reserve(8 + h.size() + static_cast<std::size_t>(offset));
    append_le<uint64_t>(out, h.size());
    out += h;
    for (const auto& e : entries) {
        TensorData d = e.read();
        BURN_CHECK(d.dtype() == e.dtype && d.shape() == e.shape, "[", kSafetensorsOp, "] tensor '", e.name,
                   "' was declared ", e.dtype, " ", e.shape, " but reads as ", d.dtype(), " ", d.shape());
        out.append(reinterpret_cast<const char*>(d.bytes().data()), d.bytes().size());
    }
    return out;
}

}  // namespace burn::store::detail
