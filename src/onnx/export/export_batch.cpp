// Which dim of each value carries the batch when the graph is exported with a dynamic batch: graph
// inputs carry it in dim 0, and each row passes it on (a permute moves it, a reshape finds the target
// dim whose leading extent matches, a reduction over it drops it). A reshape whose input carries the
// batch writes that target dim as -1, so the graph runs at another batch size.
#include <algorithm>

#include "burn/backend/op_attrs.hpp"
#include "onnx/export/emit.hpp"

namespace burn::onnx::exporter {

namespace {

int64_t prefix_product(const Dims& d, int n) {
    int64_t p = 1;
    for (int i = 0; i < n; ++i) p *= d[i];
    return p;
}

int align_dim(int dim, int from_rank, int to_rank) {
    return dim < 0 ? -1 : dim + (to_rank - from_rank);
}

}  // namespace

std::vector<int> propagate_batch(const TracedNode& node, const std::vector<TensorMeta>& in,
                                 const std::vector<int>& b, int* reshape_free_dim) {
    const OpCall& c = node.call;
    *reshape_free_dim = -1;
    std::vector<int> out(node.out.size(), -1);
    const int R = c.shape.rank();
    auto first_input = [&] {
        for (std::size_t i = 0; i < in.size(); ++i)
            if (b[i] >= 0) return align_dim(b[i], in[i].shape.rank(), R);
        return -1;
    };
    if (op_info(c.op).cls != OpClass::structural) {
        out[0] = first_input();
        return out;
    }
    switch (c.op) {
        case OpId::fill:
        case OpId::arange:
        case OpId::random:
            return out;
        case OpId::reshape: {
            if (b[0] < 0) return out;
            const int64_t p = prefix_product(in[0].shape, b[0]);
            for (int j = 0; j < R; ++j) {
                if (prefix_product(c.shape, j) == p && c.shape[j] != 1) {
                    *reshape_free_dim = j;
                    out[0] = j;
                    break;
                }
            }
            return out;
        }
        case OpId::permute: {
            const auto axes = c.attrs<attrs::Permute>().axes;
            for (std::size_t i = 0; i < axes.size(); ++i)
                if (axes[i] == b[0]) out[0] = static_cast<int>(i);
            return out;
        }
        case OpId::expand:
            out[0] = align_dim(b[0], in[0].shape.rank(), R);
            return out;
        case OpId::matmul: {
            const int ra = in[0].shape.rank(), rb = in[1].shape.rank();
            if (b[0] >= 0) out[0] = b[0] == ra - 1 ? -1 : align_dim(b[0], ra, R);
            if (out[0] < 0 && b[1] >= 0) out[0] = b[1] == rb - 2 ? -1 : align_dim(b[1], rb, R);
            return out;
        }
        case OpId::select:
        case OpId::gather:
            out[0] = b[0] >= 0 ? b[0] : (in.size() > 1 && in[1].shape.rank() == R ? b[1] : -1);
            if (c.op == OpId::select && in[1].shape.rank() == 1 && b[1] == 0)
                out[0] = static_cast<int>(c.attrs<attrs::Dim>().dim);
            return out;
        default:
            break;
    }
    // reductions over the batch dim drop it; everything else keeps input 0's layout
    if (b[0] >= 0 && in[0].shape.rank() == R) {
        for (std::size_t i = 0; i < out.size(); ++i)
            out[i] = node.call.output(i).shape.rank() == R ? b[0] : -1;
        if (op_info(c.op).family == "reduce" && attrs_name(c.op) == "Dim" && c.op != OpId::softmax &&
            c.op != OpId::log_softmax && c.attrs<attrs::Dim>().dim == b[0])
            std::fill(out.begin(), out.end(), -1);
    }
    return out;
}

}  // namespace burn::onnx::exporter
