// The protobuf wire format of onnx.proto's messages, decoded without protobuf: for builds that have no
// protobuf library (WebAssembly: Debian has no wasm32 build of protobuf or libonnx, and this project
// installs Debian packages only). It decodes the fields the importer reads into look-alikes of the
// generated classes (the same accessors), and proto_convert.hpp converts them exactly as it converts
// protobuf's. Protobuf's rules are kept: repeated scalars packed or not, a singular message given
// twice merges, a scalar given twice keeps the last, oneofs keep the last member, closed enums ignore
// unknown values, unknown fields (groups included) are skipped, and every length and varint is
// bounded by the buffer. On the host, tests/onnx_wire_test.cpp decodes every model with both and
// compares the results.
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "onnx/proto.hpp"
#include "onnx/proto_convert.hpp"

namespace burn::onnx::detail {

namespace wire {

// ---- the look-alike messages (only what proto_convert.hpp reads)

struct Entry {  // StringStringEntryProto
    std::string key_, value_;
    const std::string& key() const { return key_; }
    const std::string& value() const { return value_; }
};

struct TensorW {  // TensorProto
    std::vector<int64_t> dims_;
    int32_t data_type_ = 0;
    bool segment_ = false;
    std::vector<float> float_data_;
    std::vector<int32_t> int32_data_;
    std::vector<int64_t> int64_data_;
    std::vector<double> double_data_;
    std::string name_;
    std::string_view raw_;  // into the buffer being parsed
    bool has_raw_ = false;
    std::vector<Entry> external_;
    int data_location_ = 0;

    const std::vector<int64_t>& dims() const { return dims_; }
    int32_t data_type() const { return data_type_; }
    bool has_segment() const { return segment_; }
    const std::vector<float>& float_data() const { return float_data_; }
    const std::vector<int32_t>& int32_data() const { return int32_data_; }
    const std::vector<int64_t>& int64_data() const { return int64_data_; }
    const std::vector<double>& double_data() const { return double_data_; }
    int float_data_size() const { return static_cast<int>(float_data_.size()); }
    int int32_data_size() const { return static_cast<int>(int32_data_.size()); }
    int int64_data_size() const { return static_cast<int>(int64_data_.size()); }
    int double_data_size() const { return static_cast<int>(double_data_.size()); }
    const std::string& name() const { return name_; }
    bool has_raw_data() const { return has_raw_; }
    std::string_view raw_data() const { return raw_; }
    const std::vector<Entry>& external_data() const { return external_; }
    int data_location() const { return data_location_; }
};

struct DimW {       // TensorShapeProto.Dimension: oneof value
    int which = 0;  // 1 dim_value, 2 dim_param
    int64_t value_ = 0;
    std::string param_;
    bool has_dim_value() const { return which == 1; }
    bool has_dim_param() const { return which == 2; }
    int64_t dim_value() const { return which == 1 ? value_ : 0; }
    const std::string& dim_param() const { return param_; }
};

struct ShapeW {
    std::vector<DimW> dim_;
    const std::vector<DimW>& dim() const { return dim_; }
};

struct TensorTypeW {  // TypeProto.Tensor
    int32_t elem_type_ = 0;
    bool has_shape_ = false;
    ShapeW shape_;
    int32_t elem_type() const { return elem_type_; }
    bool has_shape() const { return has_shape_; }
    const ShapeW& shape() const { return shape_; }
};

struct TypeW {  // TypeProto: oneof value, of which only tensor_type is read
    bool tensor_ = false;
    TensorTypeW tensor_type_;
    bool has_tensor_type() const { return tensor_; }
    const TensorTypeW& tensor_type() const { return tensor_type_; }
};

struct ValueInfoW {
    std::string name_;
    bool has_type_ = false;
    TypeW type_;
    const std::string& name() const { return name_; }
    bool has_type() const { return has_type_; }
    const TypeW& type() const { return type_; }
};

struct GraphW;

struct AttributeW {
    std::string name_, ref_attr_name_, s_;
    int type_ = 0;
    float f_ = 0;
    int64_t i_ = 0;
    std::shared_ptr<TensorW> t_;
    std::shared_ptr<GraphW> g_;
    std::vector<float> floats_;
    std::vector<int64_t> ints_;
    std::vector<std::string> strings_;
    std::vector<TensorW> tensors_;
    std::vector<GraphW> graphs_;

    const std::string& name() const { return name_; }
    const std::string& ref_attr_name() const { return ref_attr_name_; }
    int type() const { return type_; }
    float f() const { return f_; }
    int64_t i() const { return i_; }
    const std::string& s() const { return s_; }
    const TensorW& t() const;
    const GraphW& g() const;
    const std::vector<float>& floats() const { return floats_; }
    const std::vector<int64_t>& ints() const { return ints_; }
    const std::vector<std::string>& strings() const { return strings_; }
    const std::vector<TensorW>& tensors() const { return tensors_; }
    const std::vector<GraphW>& graphs() const { return graphs_; }
};

struct NodeW {
    std::vector<std::string> input_, output_;
    std::string name_, op_type_, domain_;
    std::vector<AttributeW> attribute_;
    const std::vector<std::string>& input() const { return input_; }
    const std::vector<std::string>& output() const { return output_; }
    const std::string& name() const { return name_; }
    const std::string& op_type() const { return op_type_; }
    const std::string& domain() const { return domain_; }
    const std::vector<AttributeW>& attribute() const { return attribute_; }
};

struct GraphW {
    std::vector<NodeW> node_;
    std::string name_;
    std::vector<TensorW> initializer_;
    int sparse_ = 0;
    std::vector<ValueInfoW> input_, output_, value_info_;
    const std::vector<NodeW>& node() const { return node_; }
    const std::string& name() const { return name_; }
    const std::vector<TensorW>& initializer() const { return initializer_; }
    int sparse_initializer_size() const { return sparse_; }
    const std::vector<ValueInfoW>& input() const { return input_; }
    const std::vector<ValueInfoW>& output() const { return output_; }
    const std::vector<ValueInfoW>& value_info() const { return value_info_; }
};

const TensorW& AttributeW::t() const {
    static const TensorW empty;
    return t_ ? *t_ : empty;
}
const GraphW& AttributeW::g() const {
    static const GraphW empty;
    return g_ ? *g_ : empty;
}

struct OpsetW {
    std::string domain_;
    int64_t version_ = 0;
    const std::string& domain() const { return domain_; }
    int64_t version() const { return version_; }
};

struct ModelW {
    int64_t ir_version_ = 0;
    std::vector<OpsetW> opset_import_;
    std::string producer_name_, producer_version_;
    bool has_graph_ = false;
    GraphW graph_;
    int functions_ = 0;
    int64_t ir_version() const { return ir_version_; }
    const std::vector<OpsetW>& opset_import() const { return opset_import_; }
    const std::string& producer_name() const { return producer_name_; }
    const std::string& producer_version() const { return producer_version_; }
    bool has_graph() const { return has_graph_; }
    const GraphW& graph() const { return graph_; }
    int functions_size() const { return functions_; }
};

// ---- the wire format

enum Wire : int { kVarint = 0, kFixed64 = 1, kBytes = 2, kGroupStart = 3, kGroupEnd = 4, kFixed32 = 5 };

struct Ctx {
    const uint8_t* base;
    std::string what;
    int max_depth;
};

[[noreturn]] void malformed(const Ctx& c, const uint8_t* at, const char* why) {
    BURN_THROW_KIND(io, "[onnx] ", c.what, " is not a valid ONNX model (the protobuf does not parse at byte ",
                    at - c.base, ": ", why, "; truncated or not an .onnx file)");
}

/// One field as read: its number, wire type, and either the number (varint, fixed) or the bytes.
struct Field {
    uint32_t number = 0;
    int wire = 0;
    uint64_t v = 0;
    std::string_view bytes;
    const uint8_t* at = nullptr;
};

class Cursor {
  public:
    Cursor(const Ctx& ctx, std::string_view s, int depth)
        : ctx_(ctx), p_(reinterpret_cast<const uint8_t*>(s.data())), end_(p_ + s.size()), depth_(depth) {
        if (depth_ > ctx_.max_depth) malformed(ctx_, p_, "messages nest too deep");
    }
    bool done() const { return p_ == end_; }
    int depth() const { return depth_; }
    const Ctx& ctx() const { return ctx_; }

    uint64_t varint() {
        uint64_t v = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            if (p_ == end_) malformed(ctx_, p_, "a number runs past the end");
            const uint8_t b = *p_++;
            v |= uint64_t(b & 0x7f) << (shift < 64 ? shift : 0);
            if (!(b & 0x80)) return v;
        }
        malformed(ctx_, p_, "a number longer than 10 bytes");
    }
    uint64_t fixed(int n) {
        if (end_ - p_ < n) malformed(ctx_, p_, "a fixed-size number runs past the end");
        uint64_t v = 0;
        for (int i = 0; i < n; ++i) v |= uint64_t(p_[i]) << (8 * i);
        p_ += n;
        return v;
    }
    std::string_view bytes() {
        const uint8_t* at = p_;
        const uint64_t n = varint();
        if (n > uint64_t(INT32_MAX) || n > uint64_t(end_ - p_))
            malformed(ctx_, at, "a length runs past the end");
        std::string_view s(reinterpret_cast<const char*>(p_), static_cast<std::size_t>(n));
        p_ += n;
        return s;
    }

    /// The next field; false at the end. Groups (deprecated, never in onnx.proto) are skipped whole.
    bool next(Field& f) {
        for (;;) {
            if (done()) return false;
            f.at = p_;
            const uint64_t tag = varint();
            f.number = static_cast<uint32_t>(tag >> 3);
            f.wire = static_cast<int>(tag & 7);
            if (tag > 0xffffffffu || f.number == 0) malformed(ctx_, f.at, "a field number of 0 or past 2^29");
            switch (f.wire) {
                case kVarint:
                    f.v = varint();
                    return true;
                case kFixed64:
                    f.v = fixed(8);
                    return true;
                case kFixed32:
                    f.v = fixed(4);
                    return true;
                case kBytes:
                    f.bytes = bytes();
                    return true;
                case kGroupStart:
                    skip_group(f.number, depth_ + 1);
                    break;
                default:
                    malformed(ctx_, f.at, "an end of group without its start, or wire type 6 or 7");
            }
        }
    }

  private:
    void skip_group(uint32_t number, int depth) {
        if (depth > ctx_.max_depth) malformed(ctx_, p_, "groups nest too deep");
        for (;;) {
            if (done()) malformed(ctx_, p_, "a group without its end");
            const uint8_t* at = p_;
            const uint64_t tag = varint();
            const int w = static_cast<int>(tag & 7);
            if (tag > 0xffffffffu || (tag >> 3) == 0) malformed(ctx_, at, "a field number of 0 or past 2^29");
            if (w == kGroupEnd) {
                if ((tag >> 3) != number) malformed(ctx_, at, "a group ends with another group's number");
                return;
            }
            if (w == kVarint)
                varint();
            else if (w == kFixed64)
                fixed(8);
            else if (w == kFixed32)
                fixed(4);
            else if (w == kBytes)
                bytes();
            else if (w == kGroupStart)
                skip_group(static_cast<uint32_t>(tag >> 3), depth + 1);
            else
                malformed(ctx_, at, "wire type 6 or 7");
        }
    }

    const Ctx& ctx_;
    const uint8_t* p_;
    const uint8_t* end_;
    int depth_;
};

/// Parses a message's fields into `out` (merging into what is there, as protobuf does).
template <class M, class OnField>
void parse(const Ctx& ctx, std::string_view s, int depth, M& out, OnField&& on) {
    Cursor c(ctx, s, depth);
    Field f;
    while (c.next(f)) on(out, f, c);
}

std::string str(const Field& f) {
    return std::string(f.bytes);
}

/// A repeated scalar, packed (wire type 2) or one value per field. Others: ignored, as protobuf does.
template <class T>
void repeated(Cursor& c, const Field& f, std::vector<T>& out) {
    constexpr bool is_float = std::is_same_v<T, float>, is_double = std::is_same_v<T, double>;
    constexpr int one = is_float ? kFixed32 : is_double ? kFixed64 : kVarint;
    auto value = [](uint64_t v) {
        if constexpr (is_float) {
            const auto bits = static_cast<uint32_t>(v);
            float x;
            std::memcpy(&x, &bits, 4);
            return x;
        } else if constexpr (is_double) {
            double x;
            std::memcpy(&x, &v, 8);
            return x;
        } else {
            return static_cast<T>(v);  // int32: the low 32 bits, as protobuf
        }
    };
    if (f.wire == one) {
        out.push_back(value(f.v));
    } else if (f.wire == kBytes) {
        Cursor packed(c.ctx(), f.bytes, c.depth());
        if constexpr (is_float || is_double) {
            if (f.bytes.size() % sizeof(T))
                malformed(c.ctx(), f.at, "a packed list of a size not a multiple of 4 or 8");
            out.reserve(out.size() + f.bytes.size() / sizeof(T));
        }
        while (!packed.done())
            out.push_back(value(is_float ? packed.fixed(4) : is_double ? packed.fixed(8) : packed.varint()));
    }
}

void tensor(const Ctx& ctx, std::string_view s, int depth, TensorW& t) {
    parse(ctx, s, depth, t, [](TensorW& t, const Field& f, Cursor& c) {
        switch (f.number) {
            case 1:
                repeated(c, f, t.dims_);
                break;
            case 2:
                if (f.wire == kVarint) t.data_type_ = static_cast<int32_t>(f.v);
                break;
            case 3:
                if (f.wire == kBytes) {
                    parse(c.ctx(), f.bytes, c.depth() + 1, t, [](TensorW&, const Field&, Cursor&) {});
                    t.segment_ = true;
                }
                break;
            case 4:
                repeated(c, f, t.float_data_);
                break;
            case 5:
                repeated(c, f, t.int32_data_);
                break;
            case 7:
                repeated(c, f, t.int64_data_);
                break;
            case 8:
                if (f.wire == kBytes) t.name_ = str(f);
                break;
            case 9:
                if (f.wire == kBytes) t.raw_ = f.bytes, t.has_raw_ = true;
                break;
            case 10:
                repeated(c, f, t.double_data_);
                break;
            case 13:
                if (f.wire == kBytes) {
                    t.external_.emplace_back();
                    parse(c.ctx(), f.bytes, c.depth() + 1, t.external_.back(),
                          [](Entry& e, const Field& g, Cursor&) {
                              if (g.wire != kBytes) return;
                              if (g.number == 1) e.key_ = str(g);
                              if (g.number == 2) e.value_ = str(g);
                          });
                }
                break;
            case 14:  // a closed enum: DEFAULT, EXTERNAL
                if (f.wire == kVarint && f.v <= 1) t.data_location_ = static_cast<int>(f.v);
                break;
            default:
                break;
        }
    });
}

void value_info(const Ctx& ctx, std::string_view s, int depth, ValueInfoW& v) {
    parse(ctx, s, depth, v, [](ValueInfoW& v, const Field& f, Cursor& c) {
        if (f.wire != kBytes) return;
        if (f.number == 1) v.name_ = str(f);
        if (f.number != 2) return;
        v.has_type_ = true;
        parse(c.ctx(), f.bytes, c.depth() + 1, v.type_, [](TypeW& t, const Field& g, Cursor& c2) {
            if (g.wire != kBytes) return;
            if (g.number == 4 || g.number == 5 || g.number == 7 || g.number == 8 || g.number == 9) {
                t.tensor_ = false, t.tensor_type_ = TensorTypeW{};  // another member of the oneof
                return;
            }
            if (g.number != 1) return;
            t.tensor_ = true;
            parse(c2.ctx(), g.bytes, c2.depth() + 1, t.tensor_type_,
                  [](TensorTypeW& tt, const Field& h, Cursor& c3) {
                      if (h.number == 1 && h.wire == kVarint) tt.elem_type_ = static_cast<int32_t>(h.v);
                      if (h.number != 2 || h.wire != kBytes) return;
                      tt.has_shape_ = true;
                      parse(c3.ctx(), h.bytes, c3.depth() + 1, tt.shape_,
                            [](ShapeW& sh, const Field& k, Cursor& c4) {
                                if (k.number != 1 || k.wire != kBytes) return;
                                sh.dim_.emplace_back();
                                parse(c4.ctx(), k.bytes, c4.depth() + 1, sh.dim_.back(),
                                      [](DimW& d, const Field& m, Cursor&) {
                                          if (m.number == 1 && m.wire == kVarint)
                                              d.which = 1, d.value_ = static_cast<int64_t>(m.v);
                                          if (m.number == 2 && m.wire == kBytes)
                                              d.which = 2, d.param_ = str(m);
                                      });
                            });
                  });
        });
    });
}

void graph(const Ctx& ctx, std::string_view s, int depth, GraphW& g);

void attribute(const Ctx& ctx, std::string_view s, int depth, AttributeW& a) {
    parse(ctx, s, depth, a, [](AttributeW& a, const Field& f, Cursor& c) {
        const int d = c.depth() + 1;
        switch (f.number) {
            case 1:
                if (f.wire == kBytes) a.name_ = str(f);
                break;
            case 2:
                if (f.wire == kFixed32)
                    a.f_ = [&] {
                        float x;
                        const auto b = uint32_t(f.v);
                        std::memcpy(&x, &b, 4);
                        return x;
                    }();
                break;
            case 3:
                if (f.wire == kVarint) a.i_ = static_cast<int64_t>(f.v);
                break;
            case 4:
                if (f.wire == kBytes) a.s_ = str(f);
                break;
            case 5:
                if (f.wire != kBytes) break;
                if (!a.t_) a.t_ = std::make_shared<TensorW>();
                tensor(c.ctx(), f.bytes, d, *a.t_);
                break;
            case 6:
                if (f.wire != kBytes) break;
                if (!a.g_) a.g_ = std::make_shared<GraphW>();
                graph(c.ctx(), f.bytes, d, *a.g_);
                break;
            case 7:
                repeated(c, f, a.floats_);
                break;
            case 8:
                repeated(c, f, a.ints_);
                break;
            case 9:
                if (f.wire == kBytes) a.strings_.push_back(str(f));
                break;
            case 10:
                if (f.wire == kBytes)
                    a.tensors_.emplace_back(), tensor(c.ctx(), f.bytes, d, a.tensors_.back());
                break;
            case 11:
                if (f.wire == kBytes) a.graphs_.emplace_back(), graph(c.ctx(), f.bytes, d, a.graphs_.back());
                break;
            case 20:  // a closed enum: UNDEFINED .. TYPE_PROTOS
                if (f.wire == kVarint && f.v <= 14) a.type_ = static_cast<int>(f.v);
                break;
            case 21:
                if (f.wire == kBytes) a.ref_attr_name_ = str(f);
                break;
            default:
                break;
        }
    });
}

void node(const Ctx& ctx, std::string_view s, int depth, NodeW& n) {
    parse(ctx, s, depth, n, [](NodeW& n, const Field& f, Cursor& c) {
        if (f.wire != kBytes) return;
        switch (f.number) {
            case 1:
                n.input_.push_back(str(f));
                break;
            case 2:
                n.output_.push_back(str(f));
                break;
            case 3:
                n.name_ = str(f);
                break;
            case 4:
                n.op_type_ = str(f);
                break;
            case 5:
                n.attribute_.emplace_back(), attribute(c.ctx(), f.bytes, c.depth() + 1, n.attribute_.back());
                break;
            case 7:
                n.domain_ = str(f);
                break;
            default:
                break;
        }
    });
}

void graph(const Ctx& ctx, std::string_view s, int depth, GraphW& g) {
    parse(ctx, s, depth, g, [](GraphW& g, const Field& f, Cursor& c) {
        if (f.wire != kBytes) return;
        const int d = c.depth() + 1;
        switch (f.number) {
            case 1:
                g.node_.emplace_back(), node(c.ctx(), f.bytes, d, g.node_.back());
                break;
            case 2:
                g.name_ = str(f);
                break;
            case 5:
                g.initializer_.emplace_back(), tensor(c.ctx(), f.bytes, d, g.initializer_.back());
                break;
            case 11:
                g.input_.emplace_back(), value_info(c.ctx(), f.bytes, d, g.input_.back());
                break;
            case 12:
                g.output_.emplace_back(), value_info(c.ctx(), f.bytes, d, g.output_.back());
                break;
            case 13:
                g.value_info_.emplace_back(), value_info(c.ctx(), f.bytes, d, g.value_info_.back());
                break;
            case 15:
                ++g.sparse_;
                break;
            default:
                break;
        }
    });
}

void model(const Ctx& ctx, std::string_view s, ModelW& m) {
    parse(ctx, s, 0, m, [](ModelW& m, const Field& f, Cursor& c) {
        const int d = c.depth() + 1;
        switch (f.number) {
            case 1:
                if (f.wire == kVarint) m.ir_version_ = static_cast<int64_t>(f.v);
                break;
            case 2:
                if (f.wire == kBytes) m.producer_name_ = str(f);
                break;
            case 3:
                if (f.wire == kBytes) m.producer_version_ = str(f);
                break;
            case 7:
                if (f.wire == kBytes) m.has_graph_ = true, graph(c.ctx(), f.bytes, d, m.graph_);
                break;
            case 8:
                if (f.wire != kBytes) break;
                m.opset_import_.emplace_back();
                parse(c.ctx(), f.bytes, d, m.opset_import_.back(), [](OpsetW& o, const Field& g, Cursor&) {
                    if (g.number == 1 && g.wire == kBytes) o.domain_ = str(g);
                    if (g.number == 2 && g.wire == kVarint) o.version_ = static_cast<int64_t>(g.v);
                });
                break;
            case 25:
                if (f.wire == kBytes) ++m.functions_;
                break;
            default:
                break;
        }
    });
}

}  // namespace wire

TensorData parse_tensor_wire(const std::string& bytes, const std::string& what) {
    const wire::Ctx ctx{reinterpret_cast<const uint8_t*>(bytes.data()), what, 100};
    wire::TensorW t;
    wire::tensor(ctx, bytes, 0, t);
    return convert::tensor_of(t, convert::Reader{"", what}, what);
}

ModelIr parse_model_wire(const std::string& bytes, const std::string& folder, const std::string& what) {
    BURN_CHECK_KIND(bytes.size() < std::size_t(INT32_MAX), io, "[onnx] ", what, " is ", bytes.size(),
                    " bytes; a protobuf file is at most 2 GiB (store large weights as external data)");
    const wire::Ctx ctx{reinterpret_cast<const uint8_t*>(bytes.data()), what, 256};
    wire::ModelW m;
    wire::model(ctx, bytes, m);
    return convert::model_of(m, folder, what);
}

#ifndef BURN_ONNX_PROTOBUF
TensorData parse_tensor(const std::string& bytes, const std::string& what) {
    return parse_tensor_wire(bytes, what);
}
ModelIr parse_model(const std::string& bytes, const std::string& folder, const std::string& what) {
    return parse_model_wire(bytes, folder, what);
}
#endif

}  // namespace burn::onnx::detail
