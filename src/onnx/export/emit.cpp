// The graph writer of ONNX export (emit.hpp): value names, initializers, nodes, and the pruning of
// what the graph's outputs do not need.
#include "onnx/export/emit.hpp"

#include <sstream>

#include "burn/core/error.hpp"
#include "burn/tensor/ops.hpp"

namespace burn::onnx::exporter {

namespace {
/// stem followed by n ("v12"); appended rather than operator+, which GCC 12 warns about (-Wrestrict).
std::string numbered(const char* stem, int64_t n) {
    std::string s(stem);
    s += std::to_string(n);
    return s;
}
}  // namespace

int onnx_elem_type(DType dtype) {
    using T = ::onnx::TensorProto;
    switch (dtype) {
        case DType::f32:
            return T::FLOAT;
        case DType::f64:
            return T::DOUBLE;
        case DType::f16:
            return T::FLOAT16;
        case DType::bf16:
            return T::BFLOAT16;
        case DType::i64:
            return T::INT64;
        case DType::i32:
            return T::INT32;
        case DType::i16:
            return T::INT16;
        case DType::i8:
            return T::INT8;
        case DType::u8:
            return T::UINT8;
        case DType::boolean:
            return T::BOOL;
    }
    BURN_THROW("[onnx export] dtype ", dtype, " has no ONNX element type");
}

Emitter::Emitter(const Recording& rec, bool dynamic_batch) : rec_(rec), dynamic_(dynamic_batch) {}

void Emitter::set_name(int64_t id, std::string name) {
    names_[id] = std::move(name);
}

void Emitter::mark_input(int64_t id) {
    inputs_.insert(id);
}

int Emitter::batch_dim(int64_t id) const {
    if (!dynamic_) return -1;
    auto it = batch_.find(id);
    return it == batch_.end() ? -1 : it->second;
}

void Emitter::set_batch_dim(int64_t id, int dim) {
    batch_[id] = dim;
}

std::string Emitter::name(int64_t id) {
    used.insert(id);
    auto it = names_.find(id);
    const bool named = it != names_.end();
    auto v = rec_.values.find(id);
    const bool constant = !inputs_.count(id) && v != rec_.values.end() && v->second.producer < 0;
    if (constant && !inits_done_.count(id)) {
        inits_done_.insert(id);
        const std::string n = named ? it->second : numbered("const_", id);
        names_[id] = n;
        const_data(ops::into_data(TensorAny(v->second.inner)), n);
        return n;
    }
    if (named) return it->second;
    return names_[id] = numbered("v", id);
}

void Emitter::begin(const TracedNode& node) {
    node_ = &node;
}

const TensorMeta& Emitter::in_meta(std::size_t i) const {
    return rec_.values.at(node_->in[i]).meta;
}

bool Emitter::out_used(std::size_t i) const {
    return live.count(node_->out[i]) != 0;
}

std::string Emitter::fresh() {
    return numbered("t", fresh_++);
}

std::string Emitter::op(const std::string& op_type, const std::vector<std::string>& inputs,
                        std::vector<std::string> outputs, const std::vector<Attr>& attrs) {
    ::onnx::NodeProto n;
    n.set_op_type(op_type);
    n.set_name(op_type + numbered("_", static_cast<int64_t>(nodes_.size())));
    for (const auto& s : inputs) n.add_input(s);
    for (auto& s : outputs) {
        if (s.empty()) s = fresh();
        n.add_output(s);
    }
    for (const auto& a : attrs) {
        auto* p = n.add_attribute();
        p->set_name(a.name);
        switch (a.kind) {
            case Attr::Kind::i:
                p->set_type(::onnx::AttributeProto::INT);
                p->set_i(a.i);
                break;
            case Attr::Kind::f:
                p->set_type(::onnx::AttributeProto::FLOAT);
                p->set_f(a.f);
                break;
            case Attr::Kind::ints:
                p->set_type(::onnx::AttributeProto::INTS);
                for (int64_t v : a.ints) p->add_ints(v);
                break;
            case Attr::Kind::s:
                p->set_type(::onnx::AttributeProto::STRING);
                p->set_s(a.s);
                break;
        }
    }
    nodes_.push_back(std::move(n));
    return outputs.empty() ? std::string() : outputs.front();
}

std::string Emitter::op1(const std::string& op_type, const std::vector<std::string>& inputs,
                         const std::string& out, const std::vector<Attr>& attrs) {
    return op(op_type, inputs, {out}, attrs);
}

std::string Emitter::const_data(const TensorData& data, const std::string& name) {
    ::onnx::TensorProto t;
    const std::string n = name.empty() ? numbered("c", fresh_++) : name;
    t.set_name(n);
    t.set_data_type(onnx_elem_type(data.dtype()));
    for (int i = 0; i < data.shape().rank(); ++i) t.add_dims(data.shape()[i]);
    t.set_raw_data(std::string(data.bytes().begin(), data.bytes().end()));
    inits_.push_back(std::move(t));
    return n;
}

std::string Emitter::const_i64(const std::vector<int64_t>& v, bool scalar) {
    Dims shape = scalar ? Dims{} : Dims{static_cast<int64_t>(v.size())};
    return const_data(TensorData(v, shape));
}

std::string Emitter::const_scalar(double v, DType dtype) {
    return const_data(TensorData(std::vector<double>{v}, Dims{}).convert(dtype));
}

void Emitter::lacks(const std::string& why) const {
    std::ostringstream os;
    os << "[onnx export] row '" << op_name(node_->call.op) << "' (inputs";
    for (std::size_t i = 0; i < node_->in.size(); ++i) os << (i ? ", " : " ") << in_meta(i);
    os << "): export lacks it";
    if (!why.empty()) os << ": " << why;
    os << "; rewrite the forward pass without it, or add its mapping in src/onnx/export/";
    BURN_THROW(os.str());
}

std::string Emitter::producer_expand_source(int64_t id, int64_t* source) const {
    int64_t cur = id;
    for (;;) {
        auto v = rec_.values.find(cur);
        if (v == rec_.values.end() || v->second.producer < 0) break;
        const TracedNode& p = rec_.nodes[static_cast<std::size_t>(v->second.producer)];
        if (p.call.op != OpId::expand) break;
        cur = p.in[0];
    }
    *source = cur;
    return {};
}

namespace {
Dims broadcast_dims(const Dims& a, const Dims& b) {
    const int r = std::max(a.rank(), b.rank());
    std::vector<int64_t> out(static_cast<std::size_t>(r));
    for (int i = 0; i < r; ++i) {
        const int ia = i - (r - a.rank()), ib = i - (r - b.rank());
        const int64_t da = ia >= 0 ? a[ia] : 1, db = ib >= 0 ? b[ib] : 1;
        out[static_cast<std::size_t>(i)] = da == 1 ? db : da;
    }
    return Dims::from(out.data(), r);
}
}  // namespace

std::vector<std::string> Emitter::broadcast_inputs() {
    std::vector<int64_t> src(node_->in.size());
    bool any = false;
    Dims shape;
    for (std::size_t i = 0; i < src.size(); ++i) {
        producer_expand_source(node_->in[i], &src[i]);
        any |= src[i] != node_->in[i];
        const Dims& s = rec_.values.at(src[i]).meta.shape;
        shape = i == 0 ? s : broadcast_dims(shape, s);
    }
    std::vector<std::string> names;
    const bool bypass = any && shape == node_->call.shape;
    for (std::size_t i = 0; i < src.size(); ++i) names.push_back(name(bypass ? src[i] : node_->in[i]));
    return names;
}

std::vector<std::string> Emitter::matmul_inputs() {
    std::vector<std::string> names;
    for (std::size_t i = 0; i < 2; ++i) {
        int64_t src = 0;
        producer_expand_source(node_->in[i], &src);
        const Dims& before = rec_.values.at(src).meta.shape;
        const Dims& after = in_meta(i).shape;
        const bool ok = before.rank() >= 2 && before[before.rank() - 1] == after[after.rank() - 1] &&
                        before[before.rank() - 2] == after[after.rank() - 2];
        names.push_back(name(ok ? src : node_->in[i]));
    }
    return names;
}

void Emitter::finish(::onnx::GraphProto& graph, const std::vector<std::string>& outputs) {
    std::set<std::string> needed(outputs.begin(), outputs.end());
    std::vector<bool> keep(nodes_.size(), false);
    for (std::size_t k = nodes_.size(); k-- > 0;) {
        const auto& n = nodes_[k];
        for (const auto& o : n.output())
            if (needed.count(o)) keep[k] = true;
        if (keep[k])
            for (const auto& i : n.input())
                if (!i.empty()) needed.insert(i);
    }
    for (std::size_t k = 0; k < nodes_.size(); ++k)
        if (keep[k]) *graph.add_node() = std::move(nodes_[k]);
    for (auto& t : inits_)
        if (needed.count(t.name())) *graph.add_initializer() = std::move(t);
}

}  // namespace burn::onnx::exporter
