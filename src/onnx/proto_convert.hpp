#pragma once
// Decoded ONNX messages -> ModelIr, shared by the two decoders: protobuf's generated classes (proto.cpp,
// Debian's libonnx) and the built-in wire-format reader (proto_wire.cpp, for builds without protobuf:
// WebAssembly). Both expose onnx.proto's accessors (t.dims(), t.raw_data(), a.type(), ...), so the
// checks below are written once. Every field is checked as it is read: dims (non-negative, numel
// fits, data present), data sizes, external data (a relative path inside the model's folder, offset
// and length inside the file), attribute kinds. Anything malformed is a burn::Error naming the
// tensor, node or field.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "onnx/graph.hpp"
#include "platform/files.hpp"

namespace burn::onnx::detail::convert {

constexpr int64_t kMaxNumel = int64_t(1) << 40;  // far beyond any model, short of overflow
constexpr int kMaxGraphDepth = 64;               // nested subgraphs (If/Loop bodies)

// onnx.proto's enum values (AttributeProto.AttributeType, TensorProto.DataLocation)
enum AttrType : int {
    kAttrFloat = 1,
    kAttrInt = 2,
    kAttrString = 3,
    kAttrTensor = 4,
    kAttrGraph = 5,
    kAttrFloats = 6,
    kAttrInts = 7,
    kAttrStrings = 8,
    kAttrTensors = 9,
    kAttrGraphs = 10,
};
constexpr int kLocationExternal = 1;

struct Reader {
    std::string folder;  // "" forbids external data
    std::string what;    // the model's name in errors
};

template <class TensorP>
Dims dims_of(const TensorP& t, const std::string& name, const Reader& r) {
    std::vector<int64_t> d(t.dims().begin(), t.dims().end());
    int64_t numel = 1;
    for (int64_t x : d) {
        BURN_CHECK_KIND(x >= 0, shape, "[onnx] ", r.what, ": tensor '", name, "' has a negative dim ", x);
        BURN_CHECK_KIND(x == 0 || numel <= kMaxNumel / x, shape, "[onnx] ", r.what, ": tensor '", name,
                        "' has absurd dims (more than 2^40 elements)");
        numel *= x;
    }
    BURN_CHECK_KIND(d.size() <= static_cast<std::size_t>(kMaxRank), shape, "[onnx] ", r.what, ": tensor '",
                    name, "' has rank ", d.size(), " (burn holds tensors of rank at most ", kMaxRank, ")");
    return Dims::from(d.data(), static_cast<int>(d.size()));
}

/// The bytes of an external tensor: location (relative, inside the folder), offset, length.
template <class TensorP>
std::vector<uint8_t> external_bytes(const TensorP& t, const std::string& name, std::size_t want,
                                    const Reader& r) {
    namespace fs = std::filesystem;
    std::string location;
    int64_t offset = 0, length = -1;
    for (const auto& kv : t.external_data()) {
        const std::string key(kv.key()), value(kv.value());
        if (key == "location")
            location = value;
        else if (key == "offset" || key == "length") {
            char* end = nullptr;
            const long long v = std::strtoll(value.c_str(), &end, 10);
            BURN_CHECK_KIND(end && *end == '\0' && !value.empty() && v >= 0, io, "[onnx] ", r.what,
                            ": tensor '", name, "' has a bad external ", key, " '", value, "'");
            (key == "offset" ? offset : length) = v;
        }
    }
    BURN_CHECK_KIND(!r.folder.empty(), io, "[onnx] ", r.what, ": tensor '", name,
                    "' is stored in an external file; load the model from its path (Model::load) so the "
                    "file can be found beside it");
    BURN_CHECK_KIND(!location.empty(), io, "[onnx] ", r.what, ": tensor '", name,
                    "' is external but names no location");
    const fs::path rel(location);
    bool escapes = rel.is_absolute() || rel.has_root_name() || rel.has_root_directory();
    for (const auto& part : rel)
        if (part == "..") escapes = true;
    BURN_CHECK_KIND(!escapes, io, "[onnx] ", r.what, ": tensor '", name,
                    "' points outside the model's folder ('", location,
                    "'); external data must be a relative path inside ", r.folder);
    const fs::path folder = fs::weakly_canonical(fs::path(r.folder));
    const fs::path file = fs::weakly_canonical(folder / rel);
    const auto [f_end, _] = std::mismatch(folder.begin(), folder.end(), file.begin(), file.end());
    BURN_CHECK_KIND(f_end == folder.end(), io, "[onnx] ", r.what, ": tensor '", name, "' resolves to ", file,
                    ", outside the model's folder ", folder, " (a symbolic link?)");
    auto reader = platform::FileReader::open(file, "onnx");
    const uint64_t n =
        length < 0 ? reader->size() - std::min<uint64_t>(reader->size(), uint64_t(offset)) : uint64_t(length);
    BURN_CHECK_KIND(uint64_t(offset) <= reader->size() && n <= reader->size() - uint64_t(offset), io,
                    "[onnx] ", r.what, ": tensor '", name, "' reads ", n, " bytes at offset ", offset,
                    " of '", location, "', which has ", reader->size());
    BURN_CHECK_KIND(n == want, io, "[onnx] ", r.what, ": tensor '", name, "' needs ", want,
                    " bytes but its external ", "data has ", n);
    std::vector<uint8_t> bytes(want);
    if (want) reader->read_at(uint64_t(offset), bytes.data(), want);
    return bytes;
}

template <class Dst, class Src>
std::vector<uint8_t> pack(const Src& values, std::size_t n) {
    std::vector<uint8_t> bytes(n * sizeof(Dst));
    for (std::size_t i = 0; i < n; ++i) {
        const Dst v = static_cast<Dst>(values[static_cast<int>(i)]);
        std::memcpy(bytes.data() + i * sizeof(Dst), &v, sizeof(Dst));
    }
    return bytes;
}

template <class TensorP>
TensorData tensor_of(const TensorP& t, const Reader& r, const std::string& fallback_name) {
    const std::string name = t.name().empty() ? fallback_name : std::string(t.name());
    const auto dtype = dtype_of_onnx(t.data_type());
    BURN_CHECK_KIND(dtype.has_value(), dtype, "[onnx] ", r.what, ": tensor '", name, "' has element type ",
                    onnx_type_name(t.data_type()),
                    ", which burn cannot hold (supported: FLOAT, DOUBLE, FLOAT16, ",
                    "BFLOAT16, INT64, INT32, INT16, INT8, UINT8, BOOL)");
    const Dims shape = dims_of(t, name, r);
    const auto n = static_cast<std::size_t>(shape.numel());
    const std::size_t want = n * size_of(*dtype);
    BURN_CHECK_KIND(!t.has_segment(), io, "[onnx] ", r.what, ": tensor '", name,
                    "' is segmented, which this importer does not read");
    std::vector<uint8_t> bytes;
    if (static_cast<int>(t.data_location()) == kLocationExternal) {
        bytes = external_bytes(t, name, want, r);
    } else if (t.has_raw_data()) {
        BURN_CHECK_KIND(t.raw_data().size() == want, io, "[onnx] ", r.what, ": tensor '", name, "' of shape ",
                        shape, " needs ", want, " bytes of raw data, the file has ", t.raw_data().size());
        bytes.assign(t.raw_data().begin(), t.raw_data().end());
        if (*dtype == DType::boolean)
            for (auto& b : bytes) b = b != 0;
    } else {
        auto count_ok = [&](int have) {
            BURN_CHECK_KIND(static_cast<std::size_t>(have) == n, io, "[onnx] ", r.what, ": tensor '", name,
                            "' of shape ", shape, " has ", have, " values, expected ", n);
        };
        switch (*dtype) {
            case DType::f32:
                count_ok(t.float_data_size());
                bytes = pack<float>(t.float_data(), n);
                break;
            case DType::f64:
                count_ok(t.double_data_size());
                bytes = pack<double>(t.double_data(), n);
                break;
            case DType::i64:
                count_ok(t.int64_data_size());
                bytes = pack<int64_t>(t.int64_data(), n);
                break;
            case DType::i32:
                count_ok(t.int32_data_size());
                bytes = pack<int32_t>(t.int32_data(), n);
                break;
            case DType::i16:
                count_ok(t.int32_data_size());
                bytes = pack<int16_t>(t.int32_data(), n);
                break;
            case DType::i8:
                count_ok(t.int32_data_size());
                bytes = pack<int8_t>(t.int32_data(), n);
                break;
            case DType::u8:
                count_ok(t.int32_data_size());
                bytes = pack<uint8_t>(t.int32_data(), n);
                break;
            case DType::boolean:
                count_ok(t.int32_data_size());
                bytes = pack<uint8_t>(t.int32_data(), n);
                for (auto& b : bytes) b = b != 0;
                break;
            case DType::f16:
            case DType::bf16:  // the 16 bits, in int32_data
                count_ok(t.int32_data_size());
                bytes = pack<uint16_t>(t.int32_data(), n);
                break;
        }
    }
    return TensorData(std::move(bytes), shape, *dtype);
}

template <class ValueInfoP>
ValueInfo value_info_of(const ValueInfoP& v) {
    ValueInfo out;
    out.name = v.name();
    if (!v.has_type() || !v.type().has_tensor_type()) return out;
    const auto& tt = v.type().tensor_type();
    out.onnx_type = tt.elem_type();
    out.dtype = dtype_of_onnx(tt.elem_type());
    if (tt.has_shape()) {
        std::vector<Dim> dims;
        for (const auto& d : tt.shape().dim()) {
            Dim x;
            if (d.has_dim_value() && d.dim_value() >= 0) x.size = d.dim_value();
            if (d.has_dim_param()) x.param = d.dim_param();
            dims.push_back(std::move(x));
        }
        out.shape = std::move(dims);
    }
    return out;
}

template <class GraphP>
Graph graph_of(const GraphP& g, const Reader& r, int depth);

template <class AttributeP>
Attribute attribute_of(const AttributeP& a, const Node& node, const Reader& r, int depth) {
    Attribute out;
    const std::string where = node.name + "." + std::string(a.name());
    switch (static_cast<int>(a.type())) {
        case kAttrFloat:
            out.kind = Attribute::Kind::f;
            out.f = a.f();
            break;
        case kAttrInt:
            out.kind = Attribute::Kind::i;
            out.i = a.i();
            break;
        case kAttrString:
            out.kind = Attribute::Kind::s;
            out.s = a.s();
            break;
        case kAttrTensor:
            out.kind = Attribute::Kind::t;
            out.t = tensor_of(a.t(), r, where);
            break;
        case kAttrGraph:
            out.kind = Attribute::Kind::g;
            out.g = std::make_shared<Graph>(graph_of(a.g(), r, depth + 1));
            break;
        case kAttrFloats:
            out.kind = Attribute::Kind::floats;
            out.floats.assign(a.floats().begin(), a.floats().end());
            break;
        case kAttrInts:
            out.kind = Attribute::Kind::ints;
            out.ints.assign(a.ints().begin(), a.ints().end());
            break;
        case kAttrStrings:
            out.kind = Attribute::Kind::strings;
            out.strings.assign(a.strings().begin(), a.strings().end());
            break;
        case kAttrTensors:
            out.kind = Attribute::Kind::tensors;
            for (const auto& t : a.tensors()) out.tensors.push_back(tensor_of(t, r, where));
            break;
        case kAttrGraphs:
            out.kind = Attribute::Kind::graphs;
            for (const auto& sg : a.graphs())
                out.graphs.push_back(std::make_shared<Graph>(graph_of(sg, r, depth + 1)));
            break;
        default:
            BURN_THROW_KIND(io, node_label(node), " in ", r.what, ": attribute '", a.name(), "' has type ",
                            static_cast<int>(a.type()), ", which this importer does not read");
    }
    return out;
}

template <class GraphP>
Graph graph_of(const GraphP& g, const Reader& r, int depth) {
    BURN_CHECK_KIND(depth <= kMaxGraphDepth, io, "[onnx] ", r.what, ": subgraphs nest deeper than ",
                    kMaxGraphDepth);
    Graph out;
    out.name = g.name();
    for (const auto& t : g.initializer()) {
        BURN_CHECK_KIND(!t.name().empty(), io, "[onnx] ", r.what, ": graph '", g.name(),
                        "' has an unnamed initializer");
        BURN_CHECK_KIND(!out.initializers.count(t.name()), io, "[onnx] ", r.what, ": initializer '", t.name(),
                        "' is defined twice");
        out.initializers.emplace(t.name(), tensor_of(t, r, t.name()));
    }
    BURN_CHECK_KIND(g.sparse_initializer_size() == 0, io, "[onnx] ", r.what,
                    ": sparse initializers are not supported");
    for (const auto& v : g.input())
        if (!out.initializers.count(v.name())) out.inputs.push_back(value_info_of(v));
    for (const auto& v : g.output()) out.outputs.push_back(value_info_of(v));
    for (const auto& v : g.value_info()) out.value_info[v.name()] = value_info_of(v);
    int index = 0;
    for (const auto& n : g.node()) {
        Node node;
        node.op_type = n.op_type();
        node.domain = n.domain() == "ai.onnx" ? "" : n.domain();
        node.name = n.name().empty() ? n.op_type() + "_" + std::to_string(index) : n.name();
        node.inputs.assign(n.input().begin(), n.input().end());
        node.outputs.assign(n.output().begin(), n.output().end());
        for (const auto& a : n.attribute()) {
            BURN_CHECK_KIND(a.ref_attr_name().empty(), io, node_label(node), " in ", r.what,
                            ": attribute references (functions) are not supported");
            node.attrs[a.name()] = attribute_of(a, node, r, depth);
        }
        out.nodes.push_back(std::move(node));
        ++index;
    }
    return out;
}

/// The model (after the decoder parsed it whole): opsets, producer, the main graph.
template <class ModelP>
ModelIr model_of(const ModelP& m, const std::string& folder, const std::string& what) {
    BURN_CHECK_KIND(m.has_graph(), io, "[onnx] ", what, " has no graph");
    ModelIr ir;
    ir.ir_version = m.ir_version();
    ir.producer = m.producer_name() + (m.producer_version().empty() ? "" : " " + m.producer_version());
    for (const auto& o : m.opset_import()) ir.opsets[o.domain() == "ai.onnx" ? "" : o.domain()] = o.version();
    if (!ir.opsets.count("")) ir.opsets[""] = ir.ir_version <= 3 ? 1 : 7;
    BURN_CHECK_KIND(m.functions_size() == 0, io, "[onnx] ", what,
                    " defines model-local functions, which this "
                    "importer does not inline yet");
    Reader r{folder, what};
    ir.graph = graph_of(m.graph(), r, 0);
    return ir;
}

}  // namespace burn::onnx::detail::convert
