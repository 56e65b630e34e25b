// ONNX nodes for the structural rows of ops.def (opset 17), and the dispatch over every row: the
// elementwise rows are in export_elementwise.cpp, the module rows in export_nn.cpp.
#include <climits>
#include <string>
#include <vector>

#include "burn/backend/op_attrs.hpp"
#include "onnx/export/emit.hpp"

namespace burn::onnx::exporter {

namespace {

std::string cast_i32(Emitter& e, const std::string& x, const std::string& out) {
    return e.op1("Cast", {x}, out, {attr_i("to", onnx_elem_type(DType::i32))});
}

/// Host data of a creation row (fill, arange), computed as the kernels do (in double, then cast).
TensorData creation_data(const OpCall& c) {
    if (c.op == OpId::fill) {
        const auto a = c.attrs<attrs::Fill>();
        return TensorData(std::vector<double>(static_cast<std::size_t>(a.shape.numel()), a.value), a.shape)
            .convert(a.dtype);
    }
    const auto a = c.attrs<attrs::Arange>();
    std::vector<double> v(static_cast<std::size_t>(a.n));
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = a.start + a.step * static_cast<double>(i);
    return TensorData(v, Dims{a.n}).convert(a.dtype);
}

void emit_slice(Emitter& e) {
    const auto a = e.call().attrs<attrs::Slice>();
    const Dims& x = e.in_meta(0).shape;
    std::vector<int64_t> starts, ends, axes, steps;
    for (std::size_t d = 0; d < a.ranges.size(); ++d) {
        const auto& r = a.ranges[d];
        const int64_t size = x[static_cast<int>(d)];
        const bool batch = static_cast<int>(d) == e.in_batch(0);
        if (r.start == 0 && r.end == size && r.step == 1) continue;  // the whole dim
        axes.push_back(static_cast<int64_t>(d));
        if (r.step > 0) {
            starts.push_back(r.start);
            ends.push_back(batch && r.end == size ? INT64_MAX : r.end);
        } else {  // walks from end - 1 down to start
            starts.push_back(r.end - 1);
            ends.push_back(r.start == 0 ? INT64_MIN : r.start - 1);
        }
        steps.push_back(r.step);
    }
    if (axes.empty()) {
        e.op1("Identity", {e.in(0)}, e.out(0));
        return;
    }
    e.op1("Slice", {e.in(0), e.const_i64(starts), e.const_i64(ends), e.const_i64(axes), e.const_i64(steps)},
          e.out(0));
}

void emit_reduce(Emitter& e) {
    const OpCall& c = e.call();
    const int64_t dim = c.attrs<attrs::Dim>().dim;
    const std::string x = e.in(0);
    const std::vector<Attr> at = {attr_ints("axes", {dim}), attr_i("keepdims", 1)};
    switch (c.op) {
        case OpId::sum_dim:
            e.op1("ReduceSum", {x, e.const_i64({dim})}, e.out(0), {attr_i("keepdims", 1)});
            return;
        case OpId::mean_dim:
            e.op1("ReduceMean", {x}, e.out(0), at);
            return;
        case OpId::prod_dim:
            e.op1("ReduceProd", {x}, e.out(0), at);
            return;
        case OpId::max_dim:
        case OpId::min_dim: {
            const bool max = c.op == OpId::max_dim;
            if (e.out_used(0)) e.op1(max ? "ReduceMax" : "ReduceMin", {x}, e.out(0), at);
            if (e.out_used(1))
                cast_i32(
                    e,
                    e.op1(max ? "ArgMax" : "ArgMin", {x}, "", {attr_i("axis", dim), attr_i("keepdims", 1)}),
                    e.out(1));
            return;
        }
        case OpId::argmax:
        case OpId::argmin:
            cast_i32(e,
                     e.op1(c.op == OpId::argmax ? "ArgMax" : "ArgMin", {x}, "",
                           {attr_i("axis", dim), attr_i("keepdims", 1)}),
                     e.out(0));
            return;
        case OpId::softmax:
            e.op1("Softmax", {x}, e.out(0), {attr_i("axis", dim)});
            return;
        case OpId::log_softmax:
            e.op1("LogSoftmax", {x}, e.out(0), {attr_i("axis", dim)});
            return;
        case OpId::cumsum:
            e.op1("CumSum", {x, e.const_i64({dim}, true)}, e.out(0));
            return;
        default:
            e.lacks("no ONNX mapping");
    }
}

void emit_structural(Emitter& e) {
    const OpCall& c = e.call();
    switch (c.op) {
        case OpId::fill:
        case OpId::arange:
            e.const_data(creation_data(c), e.out(0));
            return;
        case OpId::cast:
            e.op1("Cast", {e.in(0)}, e.out(0), {attr_i("to", onnx_elem_type(c.dtype))});
            return;
        case OpId::copy:
            e.op1("Identity", {e.in(0)}, e.out(0));
            return;
        case OpId::reshape: {
            std::vector<int64_t> target = vec(c.shape);
            if (e.reshape_free >= 0) target[static_cast<std::size_t>(e.reshape_free)] = -1;
            e.op1("Reshape", {e.in(0), e.const_i64(target)}, e.out(0));
            return;
        }
        case OpId::permute:
            e.op1("Transpose", {e.in(0)}, e.out(0), {attr_ints("perm", c.attrs<attrs::Permute>().axes)});
            return;
        case OpId::expand: {
            std::vector<int64_t> target = vec(c.shape);
            const int b = e.in_batch(0);
            if (b >= 0) target[static_cast<std::size_t>(b + c.shape.rank() - e.in_meta(0).shape.rank())] = 1;
            e.op1("Expand", {e.in(0), e.const_i64(target)}, e.out(0));
            return;
        }
        case OpId::slice:
            emit_slice(e);
            return;
        case OpId::cat: {
            std::vector<std::string> ins;
            for (std::size_t i = 0; i < e.num_inputs(); ++i) ins.push_back(e.in(i));
            e.op1("Concat", ins, e.out(0), {attr_i("axis", c.attrs<attrs::Dim>().dim)});
            return;
        }
        case OpId::gather:
            e.op1("GatherElements", {e.in(0), e.in(1)}, e.out(0),
                  {attr_i("axis", c.attrs<attrs::Dim>().dim)});
            return;
        case OpId::select:
            e.op1("Gather", {e.in(0), e.in(1)}, e.out(0), {attr_i("axis", c.attrs<attrs::Dim>().dim)});
            return;
        case OpId::scatter_add:
            e.op1("ScatterElements", {e.in(0), e.in(1), e.in(2)}, e.out(0),
                  {attr_i("axis", c.attrs<attrs::Dim>().dim), attr_s("reduction", "add")});
            return;
        case OpId::masked_softmax: {
            const auto a = c.attrs<attrs::MaskedSoftmax>();
            auto masked = e.op1("Where", {e.in(1), e.const_scalar(a.fill, e.in_meta(0).dtype), e.in(0)});
            e.op1("Softmax", {masked}, e.out(0), {attr_i("axis", a.dim)});
            return;
        }
        case OpId::sort: {
            const auto a = c.attrs<attrs::Sort>();
            const int64_t k = a.k >= 0 ? a.k : e.in_meta(0).shape[static_cast<int>(a.dim)];
            std::string idx = e.fresh();
            e.op("TopK", {e.in(0), e.const_i64({k})}, {e.out(0), idx},
                 {attr_i("axis", a.dim), attr_i("largest", a.descending ? 1 : 0), attr_i("sorted", 1)});
            if (e.out_used(1)) cast_i32(e, idx, e.out(1));
            return;
        }
        case OpId::matmul:
            e.op1("MatMul", e.matmul_inputs(), e.out(0));
            return;
        default:
            emit_reduce(e);
    }
}

bool structural_mapped(const OpCall& c, const std::vector<TensorMeta>& in) {
    switch (c.op) {
        case OpId::fill:
        case OpId::arange:
        case OpId::cast:
        case OpId::copy:
        case OpId::reshape:
        case OpId::permute:
        case OpId::expand:
        case OpId::slice:
        case OpId::cat:
        case OpId::gather:
        case OpId::select:
        case OpId::scatter_add:
        case OpId::sum_dim:
        case OpId::prod_dim:
        case OpId::max_dim:
        case OpId::min_dim:
        case OpId::argmax:
        case OpId::argmin:
        case OpId::softmax:
        case OpId::log_softmax:
        case OpId::masked_softmax:
        case OpId::cumsum:
        case OpId::sort:
        case OpId::matmul:
            return true;
        case OpId::mean_dim:
            return is_float(in.at(0).dtype);  // integer means round as burn's kernel does
        default:
            return can_export_nn(c, in);
    }
}

}  // namespace

bool can_export(const OpCall& call, const std::vector<TensorMeta>& inputs) {
    if (op_info(call.op).cls != OpClass::structural)
        return can_export_elementwise(call.op, inputs.empty() ? call.dtype : inputs[0].dtype);
    return structural_mapped(call, inputs);
}

void emit_row(Emitter& e) {
    const OpCall& c = e.call();
    if (op_info(c.op).cls != OpClass::structural) {
        emit_elementwise(e);
        return;
    }
    switch (c.op) {
        case OpId::conv:
        case OpId::conv_backward_input:
        case OpId::max_pool2d:
        case OpId::avg_pool2d:
        case OpId::adaptive_avg_pool2d:
        case OpId::interpolate:
        case OpId::layer_norm:
            emit_nn(e);
            return;
        case OpId::random:
            e.lacks("random numbers are drawn at run time (export in inference mode)");
        default:
            break;
    }
    std::vector<TensorMeta> metas;
    for (std::size_t i = 0; i < e.num_inputs(); ++i) metas.push_back(e.in_meta(i));
    if (!structural_mapped(c, metas)) e.lacks("no ONNX mapping for this row and no decomposition");
    emit_structural(e);
}

}  // namespace burn::onnx::exporter
