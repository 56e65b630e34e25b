// The built-in wire-format decoder (proto_wire.cpp, what WebAssembly builds use) against protobuf's
// generated decoder (proto.cpp), the independent reference: every model the suites have (the
// fixtures, ONNX's backend node cases when BURN_ONNX_NODE_DIR names them) decodes to the same ModelIr,
// hand-encoded edge cases of protobuf's rules (unpacked lists, merged messages, oneofs, closed enums,
// groups, 10-byte negative varints) decode the same, and truncated or bit-flipped models are errors
// or the same graph, never a crash.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <random>
#include <sstream>

#include "fixture_root.hpp"
#include "onnx/proto.hpp"
#include "platform/env.hpp"
#include "platform/files.hpp"

namespace burn::onnx::wire_test {
namespace {

namespace fs = std::filesystem;
using detail::Attribute;
using detail::Graph;
using detail::ModelIr;

// ---- deep comparison: "" when equal, else the first difference

std::string diff_tensor(const TensorData& a, const TensorData& b, const std::string& at) {
    if (a.dtype() != b.dtype()) return at + ": dtype";
    if (!(a.shape() == b.shape())) return at + ": shape";
    if (a.bytes() != b.bytes()) return at + ": bytes";
    return "";
}

std::string diff_graph(const Graph& a, const Graph& b, const std::string& at);

std::string diff_attr(const Attribute& a, const Attribute& b, const std::string& at) {
    if (a.kind != b.kind) return at + ": kind";
    const bool same_f = std::memcmp(&a.f, &b.f, sizeof a.f) == 0 || (std::isnan(a.f) && std::isnan(b.f));
    if (!same_f || a.i != b.i || a.s != b.s || a.ints != b.ints || a.strings != b.strings)
        return at + ": value";
    if (a.floats.size() != b.floats.size()) return at + ": floats";
    for (std::size_t k = 0; k < a.floats.size(); ++k)
        if (std::memcmp(&a.floats[k], &b.floats[k], sizeof(double)) != 0 &&
            !(std::isnan(a.floats[k]) && std::isnan(b.floats[k])))
            return at + ": floats";
    if (a.t.has_value() != b.t.has_value()) return at + ": t";
    if (a.t) {
        if (auto d = diff_tensor(*a.t, *b.t, at + ".t"); !d.empty()) return d;
    }
    if (bool(a.g) != bool(b.g)) return at + ": g";
    if (a.g) {
        if (auto d = diff_graph(*a.g, *b.g, at + ".g"); !d.empty()) return d;
    }
    if (a.tensors.size() != b.tensors.size() || a.graphs.size() != b.graphs.size()) return at + ": lists";
    for (std::size_t k = 0; k < a.tensors.size(); ++k)
        if (auto d = diff_tensor(a.tensors[k], b.tensors[k], at + ".tensors"); !d.empty()) return d;
    for (std::size_t k = 0; k < a.graphs.size(); ++k)
        if (auto d = diff_graph(*a.graphs[k], *b.graphs[k], at + ".graphs"); !d.empty()) return d;
    return "";
}

std::string diff_value_info(const detail::ValueInfo& a, const detail::ValueInfo& b, const std::string& at) {
    if (a.name != b.name || a.dtype != b.dtype || a.onnx_type != b.onnx_type) return at + ": name or type";
    if (a.shape.has_value() != b.shape.has_value()) return at + ": shape given";
    if (a.shape) {
        if (a.shape->size() != b.shape->size()) return at + ": rank";
        for (std::size_t k = 0; k < a.shape->size(); ++k)
            if ((*a.shape)[k].size != (*b.shape)[k].size || (*a.shape)[k].param != (*b.shape)[k].param)
                return at + ": dim " + std::to_string(k);
    }
    return "";
}

std::string diff_graph(const Graph& a, const Graph& b, const std::string& at) {
    if (a.name != b.name) return at + ": name";
    if (a.nodes.size() != b.nodes.size()) return at + ": node count";
    for (std::size_t k = 0; k < a.nodes.size(); ++k) {
        const auto &x = a.nodes[k], &y = b.nodes[k];
        const std::string where = at + ".node[" + std::to_string(k) + "]";
        if (x.name != y.name || x.op_type != y.op_type || x.domain != y.domain || x.inputs != y.inputs ||
            x.outputs != y.outputs || x.attrs.size() != y.attrs.size())
            return where;
        for (const auto& [name, attr] : x.attrs) {
            auto it = y.attrs.find(name);
            if (it == y.attrs.end()) return where + "." + name + ": missing";
            if (auto d = diff_attr(attr, it->second, where + "." + name); !d.empty()) return d;
        }
    }
    if (a.inputs.size() != b.inputs.size() || a.outputs.size() != b.outputs.size() ||
        a.value_info.size() != b.value_info.size() || a.initializers.size() != b.initializers.size())
        return at + ": counts";
    for (std::size_t k = 0; k < a.inputs.size(); ++k)
        if (auto d = diff_value_info(a.inputs[k], b.inputs[k], at + ".input"); !d.empty()) return d;
    for (std::size_t k = 0; k < a.outputs.size(); ++k)
        if (auto d = diff_value_info(a.outputs[k], b.outputs[k], at + ".output"); !d.empty()) return d;
    for (const auto& [name, v] : a.value_info) {
        auto it = b.value_info.find(name);
        if (it == b.value_info.end()) return at + ".value_info " + name;
        if (auto d = diff_value_info(v, it->second, at + ".value_info"); !d.empty()) return d;
    }
    for (const auto& [name, t] : a.initializers) {
        auto it = b.initializers.find(name);
        if (it == b.initializers.end()) return at + ".initializer " + name;
        if (auto d = diff_tensor(t, it->second, at + ".initializer " + name); !d.empty()) return d;
    }
    return "";
}

std::string diff_model(const ModelIr& a, const ModelIr& b) {
    if (a.ir_version != b.ir_version || a.opsets != b.opsets || a.producer != b.producer) return "header";
    return diff_graph(a.graph, b.graph, "graph");
}

/// Decodes with both; "" when both fail or both give the same graph, else what differs.
/// wire_only_accepts counts inputs protobuf refuses and the wire decoder reads.
std::string compare(const std::string& bytes, const std::string& folder, int* wire_only_accepts = nullptr) {
    std::optional<ModelIr> pb, wire;
    std::string pb_error, wire_error;
    try {
        pb = detail::parse_model(bytes, folder, "m");
    } catch (const Error& e) {
        pb_error = e.what();
    }
    try {
        wire = detail::parse_model_wire(bytes, folder, "m");
    } catch (const Error& e) {
        wire_error = e.what();
    }
    if (pb && wire) return diff_model(*pb, *wire);
    if (!pb && !wire) return "";
    if (!pb && wire_only_accepts) {
        ++*wire_only_accepts;
        return "";
    }
    return pb ? "protobuf reads it, the wire decoder says: " + wire_error
              : "the wire decoder reads it, protobuf says: " + pb_error;
}

std::vector<fs::path> models() {
    std::vector<fs::path> out;
    for (const char* dir : {"onnx", "onnx_export"}) {
        const fs::path d = burn::testing::fixture_root() / dir;
        if (fs::exists(d))
            for (const auto& e : fs::directory_iterator(d))
                if (e.path().extension() == ".onnx") out.push_back(e.path());
    }
    if (auto node_dir = platform::env_var("BURN_ONNX_NODE_DIR"); node_dir && fs::exists(*node_dir))
        for (const auto& e : fs::directory_iterator(*node_dir))
            if (fs::exists(e.path() / "model.onnx")) out.push_back(e.path() / "model.onnx");
    std::sort(out.begin(), out.end());
    return out;
}

TEST(OnnxWire, EveryModelDecodesAsProtobufDecodesIt) {
    const auto files = models();
    ASSERT_GE(files.size(), 12u);
    int tensors = 0;
    for (const auto& f : files) {
        const std::string bytes = platform::read_file(f, "onnx");
        EXPECT_EQ(compare(bytes, f.parent_path().string()), "") << f;
        // ONNX's backend cases: their input and output tensors (TensorProto files) too
        for (const auto& set : fs::directory_iterator(f.parent_path())) {
            if (!set.is_directory()) continue;
            for (const auto& pbf : fs::directory_iterator(set.path())) {
                if (pbf.path().extension() != ".pb") continue;
                const std::string tb = platform::read_file(pbf.path(), "onnx");
                std::optional<TensorData> a, b;
                try {
                    a = detail::parse_tensor(tb, "t");
                } catch (const Error&) {
                }
                try {
                    b = detail::parse_tensor_wire(tb, "t");
                } catch (const Error&) {
                }
                ASSERT_EQ(a.has_value(), b.has_value()) << pbf.path();
                if (a) {
                    EXPECT_EQ(diff_tensor(*a, *b, "t"), "") << pbf.path();
                }
                ++tensors;
            }
        }
    }
    std::printf("[ OnnxWire ] %zu models, %d tensor files\n", files.size(), tensors);
}

// ---- a small encoder for hand-made models

struct Enc {
    std::string s;
    Enc& varint(uint64_t v) {
        do {
            s.push_back(static_cast<char>((v & 0x7f) | (v > 0x7f ? 0x80 : 0)));
            v >>= 7;
        } while (v);
        return *this;
    }
    Enc& tag(int field, int wire) { return varint(uint64_t(field) << 3 | uint64_t(wire)); }
    Enc& num(int field, int64_t v) { return tag(field, 0).varint(static_cast<uint64_t>(v)); }
    Enc& bytes(int field, const std::string& b) {
        tag(field, 2).varint(b.size());
        s += b;
        return *this;
    }
    Enc& msg(int field, const Enc& m) { return bytes(field, m.s); }
    Enc& f32(int field, float v) {
        tag(field, 5);
        char b[4];
        std::memcpy(b, &v, 4);
        s.append(b, 4);
        return *this;
    }
};

Enc value_info(const std::string& name, int elem, const Enc& shape) {
    Enc tensor_type;
    tensor_type.num(1, elem).msg(2, shape);
    Enc type;
    type.msg(1, tensor_type);
    return Enc().bytes(1, name).msg(2, type);
}

Enc dims(std::initializer_list<int64_t> d) {
    Enc shape;
    for (int64_t x : d) shape.msg(1, Enc().num(1, x));
    return shape;
}

/// A Relu model around `graph_extra` fields and `model_extra` fields.
std::string model(const Enc& graph_extra = {}, const Enc& model_extra = {}) {
    Enc attr;
    attr.bytes(1, "alpha").num(20, 1).f32(2, 0.5f);
    Enc node;
    node.bytes(1, "x").bytes(2, "y").bytes(3, "relu").bytes(4, "Relu").msg(5, attr);
    Enc w;  // initializer W [2, 3], float_data one value per field (unpacked)
    w.num(1, 2).num(1, 3).num(2, 1).bytes(8, "W");
    for (int k = 0; k < 6; ++k) w.f32(4, 0.25f * k);
    Enc graph;
    graph.msg(1, node)
        .bytes(2, "g")
        .msg(5, w)
        .msg(11, value_info("x", 1, dims({2, 3})))
        .msg(12, value_info("y", 1, dims({2, 3})));
    graph.s += graph_extra.s;
    Enc m;
    m.num(1, 8).msg(8, Enc().bytes(1, "").num(2, 13)).bytes(2, "hand").msg(7, graph);
    m.s += model_extra.s;
    return m.s;
}

TEST(OnnxWire, ProtobufRulesHold) {
    struct Case {
        const char* what;
        std::string bytes;
    };
    Enc negative_elem;  // a value_info whose elem_type is -1: a 10-byte varint in an int32
    negative_elem.msg(13, value_info("z", -1, dims({1})));
    Enc dim_switch;  // dim_value then dim_param: the oneof keeps the last
    {
        Enc shape;
        shape.msg(1, Enc().num(1, 4).bytes(2, "batch"));
        dim_switch.msg(13, value_info("d", 1, shape));
    }
    Enc type_switch;  // tensor_type then sequence_type: no tensor type is left
    {
        Enc type;
        type.msg(1, Enc().num(1, 1)).msg(4, Enc().msg(1, Enc()));
        type_switch.msg(13, Enc().bytes(1, "q").msg(2, type));
    }
    Enc second_node;  // the graph given twice merges: its nodes append, its name is the last
    second_node.msg(1, Enc().bytes(1, "y").bytes(2, "z").bytes(4, "Neg"));
    Enc merged;
    merged.msg(7, Enc().msg(1, Enc().bytes(1, "y").bytes(2, "z").bytes(4, "Neg")).bytes(2, "g2"));
    Enc unknown;  // unknown fields of every wire type, a group among them
    unknown.num(99, 5).tag(98, 1).s += std::string(8, '\x01');
    unknown.tag(97, 3).num(1, 7).bytes(2, "inside").tag(97, 4).bytes(96, "skipped").tag(95, 5).s += "abcd";
    Enc enum_unknown;  // attribute type 99 (not in the closed enum) after INT: stays INT
    enum_unknown.msg(
        1, Enc().bytes(2, "o").bytes(4, "Foo").msg(5, Enc().bytes(1, "k").num(20, 2).num(3, -5).num(20, 99)));
    Enc packed;  // an initializer with packed dims, packed float_data, int8 in int32_data with negatives
    {
        Enc pd;
        pd.varint(2).varint(2);
        Enc fd;
        for (float v : {1.f, -2.f, 3.5f, 1e30f}) fd.s.append(reinterpret_cast<const char*>(&v), 4);
        Enc i8d;
        for (int v : {-128, -1, 0, 127}) i8d.varint(static_cast<uint64_t>(static_cast<int64_t>(v)));
        packed.msg(5, Enc().bytes(1, pd.s).num(2, 1).bytes(8, "P").bytes(4, fd.s));
        packed.msg(5, Enc().bytes(1, pd.s).num(2, 3).bytes(8, "Q").bytes(5, i8d.s));
        packed.msg(5, Enc().num(1, 3).num(2, 9).bytes(8, "B").bytes(9, std::string("\x00\x02\x01", 3)));
    }
    Enc renamed;  // a scalar given twice keeps the last
    renamed.bytes(2, "renamed");
    const std::vector<Case> cases = {
        {"plain", model()},
        {"negative int32 varint", model(negative_elem)},
        {"dim oneof", model(dim_switch)},
        {"type oneof", model(type_switch)},
        {"graph given twice", model({}, merged)},
        {"unknown fields and a group", model(unknown, unknown)},
        {"closed enum", model(enum_unknown)},
        {"packed lists", model(packed)},
        {"a name given twice", model(renamed)},
    };
    for (const auto& c : cases) EXPECT_EQ(compare(c.bytes, ""), "") << c.what;
    // and the graph is what was written
    const ModelIr ir = detail::parse_model_wire(model(packed, merged), "", "m");
    EXPECT_EQ(ir.graph.name, "g2");
    ASSERT_EQ(ir.graph.nodes.size(), 2u);
    EXPECT_EQ(ir.graph.nodes[1].op_type, "Neg");
    EXPECT_EQ(ir.graph.nodes[0].attrs.at("alpha").f, 0.5);
    const auto& q = ir.graph.initializers.at("Q");
    EXPECT_EQ(q.dtype(), DType::i8);
    EXPECT_EQ(static_cast<int8_t>(q.bytes()[0]), -128);
    EXPECT_EQ(ir.graph.initializers.at("B").bytes(), (std::vector<uint8_t>{0, 1, 1}));
    EXPECT_EQ(ir.graph.initializers.at("W").bytes().size(), 24u);
}

TEST(OnnxWire, TruncatedAndCorruptedModelsAreErrorsNotCrashes) {
    const fs::path file = burn::testing::fixture_root() / "onnx" / "cnn_opset13.onnx";
    const std::string bytes = platform::read_file(file, "onnx");
    for (std::size_t n = 0; n < bytes.size(); ++n)
        ASSERT_EQ(compare(bytes.substr(0, n), ""), "") << "cut at " << n;
    // one to three random bytes changed: the same result as protobuf whenever protobuf reads it
    std::mt19937 rng(7);
    int wire_only = 0, both = 0;
    for (int k = 0; k < 3000; ++k) {
        std::string b = bytes;
        const int changes = 1 + k % 3;
        for (int j = 0; j < changes; ++j) b[rng() % b.size()] = static_cast<char>(rng() & 0xff);
        ASSERT_EQ(compare(b, "", &wire_only), "") << "mutation " << k;
        both += 1;
    }
    std::printf("[ OnnxWire ] %d mutations, %d that protobuf refuses and the wire decoder reads\n", both,
                wire_only);
    EXPECT_LT(wire_only, both / 20);  // only fields the importer does not read go unchecked
    // the error names the byte
    try {
        detail::parse_model_wire(bytes.substr(0, bytes.size() / 2), "", "cnn.onnx");
        FAIL() << "a half model decoded";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("cnn.onnx is not a valid ONNX model"), std::string::npos)
            << e.what();
    }
}

}  // namespace
}  // namespace burn::onnx::wire_test
