// scatter and select_assign with burn's IndexingUpdateOp (ops.hpp): Add runs the scatter_add /
// select_add rows as before; Assign, Mul, Min and Max run the scatter_reduce row (a primitive: no
// composition of the other rows combines colliding values this way). select_assign_reduce expands its
// 1-D indices over the values' shape and scatters them. The row's infer is at the end of the file.
#include <string>

#include "ops/common.hpp"
#include "ops/infer.hpp"

namespace burn::ops {

using namespace detail;

namespace scatter_reduce_impl {  // named, not anonymous: unity builds merge anonymous namespaces

const char* update_name(IndexingUpdateOp op) {
    switch (op) {
        case IndexingUpdateOp::Assign:
            return "Assign";
        case IndexingUpdateOp::Add:
            return "Add";
        case IndexingUpdateOp::Mul:
            return "Mul";
        case IndexingUpdateOp::Min:
            return "Min";
        case IndexingUpdateOp::Max:
            return "Max";
    }
    return "?";
}

int64_t mode_of(IndexingUpdateOp op) {
    return op == IndexingUpdateOp::Assign ? attrs::ScatterReduce::assign
           : op == IndexingUpdateOp::Mul  ? attrs::ScatterReduce::mul
           : op == IndexingUpdateOp::Min  ? attrs::ScatterReduce::min
                                          : attrs::ScatterReduce::max;
}

/// The checks scatter makes, for the reduce modes (Bool allowed but for Mul).
void check_reduce_inputs(const TensorAny& x, const TensorAny& indices, const TensorAny& values,
                         IndexingUpdateOp op, const char* name) {
    check_defined(x, name);
    check_defined(values, name);
    check_int(indices, name, "indices");
    BURN_CHECK_KIND(!is_bool(x.dtype()) || op != IndexingUpdateOp::Mul, dtype, "[", name,
                    "] IndexingUpdateOp::Mul needs a numeric tensor, got ", describe(x),
                    "; Bool tensors take Assign, Min (and) or Max (or)");
    check_same_dtype(x, values, name);
    BURN_CHECK_KIND(x.device() == indices.device() && x.device() == values.device(), device, "[", name,
                    "] inputs are on different devices: ", describe(x), ", ", describe(indices), ", ",
                    describe(values), "; move them with .to_device(device) first");
}

}  // namespace scatter_reduce_impl

using namespace scatter_reduce_impl;

TensorAny scatter_reduce(TensorAny x, int64_t dim, TensorAny indices, TensorAny values, IndexingUpdateOp op) {
    if (op == IndexingUpdateOp::Add) return scatter(std::move(x), dim, std::move(indices), std::move(values));
    check_reduce_inputs(x, indices, values, op, "scatter");
    const std::string mode = std::string(" (IndexingUpdateOp::") + update_name(op) + ")";
    op_infer::check_scatter_ranks("scatter", x.shape(), indices.shape(), values.shape(), mode.c_str());
    const int d = normalize_dim(dim, x.rank(), "scatter");
    op_infer::check_scatter_shapes("scatter", x.shape(), indices.shape(), values.shape(), d, mode.c_str());
    auto c = make(OpId::scatter_reduce, attrs::ScatterReduce{d, mode_of(op)}, metas(x, indices, values));
    return run1(c, take(std::move(x), std::move(indices), std::move(values)));
}

TensorAny select_assign_reduce(TensorAny x, int64_t dim, TensorAny indices, TensorAny values,
                               IndexingUpdateOp op) {
    if (op == IndexingUpdateOp::Add)
        return select_assign(std::move(x), dim, std::move(indices), std::move(values));
    check_reduce_inputs(x, indices, values, op, "select_assign");
    BURN_CHECK_KIND(indices.rank() == 1, shape, "[select_assign] indices must be 1-D, got ",
                    describe(indices), "; flatten them first");
    const int d = normalize_dim(dim, x.rank(), "select_assign");
    Dims expected = x.shape();
    expected[d] = indices.shape()[0];
    BURN_CHECK_KIND(values.shape() == expected, shape, "[select_assign] values must have shape ", expected,
                    " (x's shape ", x.shape(), " with dim ", d, " = the ", indices.shape()[0],
                    " indices), got ", values.shape());
    Dims lane = Dims::filled(x.rank(), 1);
    lane[d] = indices.shape()[0];
    TensorAny idx = expand(reshape(std::move(indices), lane), expected);
    return scatter_reduce(std::move(x), d, std::move(idx), std::move(values), op);
}

}  // namespace burn::ops

// ---- infer (burn/backend/op_attrs.hpp): scatter_reduce keeps x's meta

namespace burn::op_infer {

Outs infer_scatter_reduce(const OpCall& c, Metas in) {
    check_arity(c, in, 3, 3);
    const TensorMeta &x = in[0], &indices = in[1], &values = in[2];
    const auto a = c.attrs<attrs::ScatterReduce>();
    if (a.mode == attrs::ScatterReduce::mul) check_numeric(c, x);
    check_same_dtype(c, x, values);
    check_int(c, indices, "indices");
    check_scatter_ranks("scatter_reduce", x.shape, indices.shape, values.shape);
    const int d = check_dim(c, a.dim, x.shape.rank());
    check_scatter_shapes("scatter_reduce", x.shape, indices.shape, values.shape, d);
    return {x};
}

}  // namespace burn::op_infer
