// burn::infer: one table indexed by OpId. Elementwise rows share the infer of their class (unary,
// predicate, binary, compare, ternary); structural rows register infer_<name> beside their family.
#include "ops/infer.hpp"

#include <algorithm>
#include <sstream>

namespace burn {

namespace op_infer {

std::string describe(const TensorMeta& m) {
    std::ostringstream os;
    os << m;
    return os.str();
}

void check_arity(const OpCall& c, Metas in, std::size_t lo, std::size_t hi) {
    BURN_CHECK(in.size() >= lo && in.size() <= hi, "[", c.op, "] takes ", lo,
               lo == hi ? "" : " to " + std::to_string(hi), " inputs, got ", in.size());
}

int check_dim(const OpCall& c, int64_t dim, int rank) {
    BURN_CHECK_KIND(dim >= 0 && dim < rank, shape, "[", c.op, "] dim ", dim,
                    " is out of range for a tensor of ", "rank ", rank,
                    "; the call's dims are normalised to [0, ", rank, ")");
    return static_cast<int>(dim);
}

Outs::Outs(std::initializer_list<TensorMeta> metas) : n_(metas.size()) {
    BURN_CHECK(metas.size() <= kMaxOutputs, "infer: a row with ", metas.size(), " outputs (at most ",
               kMaxOutputs, ")");
    std::copy(metas.begin(), metas.end(), v_.begin());
}

int along_dim(const OpCall& c, Metas in, unsigned flags) {
    check_arity(c, in, 1, 1);
    const TensorMeta& x = in[0];
    if (!(flags & kAllowBool)) {
        BURN_CHECK_KIND(!is_bool(x.dtype), dtype, "[", c.op, "] is not defined for Bool tensors, got ",
                        describe(x), "; convert with .int_() first");
    }
    BURN_CHECK_KIND(x.shape.rank() > 0, shape, "[", c.op, "] needs a tensor of rank >= 1, got ", describe(x));
    const int d = check_dim(c, c.attrs<attrs::Dim>().dim, x.shape.rank());
    if (flags & kNonEmpty) {
        BURN_CHECK_KIND(x.shape[d] > 0, shape, "[", c.op, "] cannot reduce over dim ", d,
                        " of size 0 (tensor ", describe(x), "): the ", c.op, " of an empty set is undefined");
    }
    return d;
}

void check_float(const OpCall& c, const TensorMeta& m, const char* what) {
    BURN_CHECK_KIND(is_float(m.dtype), dtype, "[", c.op, "] needs a float tensor", *what ? " as " : "", what,
                    ", got ", describe(m), "; convert with .float_()");
}

void check_numeric(const OpCall& c, const TensorMeta& m) {
    BURN_CHECK_KIND(!is_bool(m.dtype), dtype, "[", c.op, "] needs a float or int tensor, got ", describe(m),
                    "; convert with .int_() or .float_()");
}

void check_int(const OpCall& c, const TensorMeta& m, const char* what) {
    BURN_CHECK_KIND(is_int(m.dtype), dtype, "[", c.op, "] ", what, " must be an Int tensor, got ",
                    describe(m));
}

void check_bool(const OpCall& c, const TensorMeta& m, const char* what) {
    BURN_CHECK_KIND(is_bool(m.dtype), dtype, "[", c.op, "] ", what, " must be a Bool tensor, got ",
                    describe(m));
}

void check_same_dtype(const OpCall& c, const TensorMeta& a, const TensorMeta& b) {
    BURN_CHECK_KIND(a.dtype == b.dtype, dtype, "[", c.op, "] dtype mismatch: lhs ", describe(a), " vs rhs ",
                    describe(b), "; cast one with .cast(DType::", a.dtype, ")");
}

void check_rank(const OpCall& c, const TensorMeta& m, int rank, const char* what) {
    BURN_CHECK_KIND(m.shape.rank() == rank, shape, "[", c.op, "] ", what, " must have rank ", rank, ", got ",
                    describe(m));
}

void check_extent(const OpCall& c, const Dims& shape, int rank, const char* what) {
    BURN_CHECK_KIND(shape.rank() == rank, shape, "[", c.op, "] ", what, " ", shape, " must have rank ", rank);
    for (int64_t d : shape) BURN_CHECK_KIND(d >= 0, shape, "[", c.op, "] invalid ", what, " ", shape);
}

void check_same_shape(const OpCall& c, const TensorMeta& a, const char* what_a, const TensorMeta& b,
                      const char* what_b) {
    BURN_CHECK_KIND(a.shape == b.shape, shape, "[", c.op, "] ", what_a, " ", describe(a), " and ", what_b,
                    " ", describe(b), " must have one shape; broadcast them with expand first");
}

namespace {

void check_kinds(const OpCall& c, const TensorMeta& x) {
    switch (op_info(c.op).kinds) {
        case OpKinds::float_only:
            return check_float(c, x);
        case OpKinds::numeric:
            return check_numeric(c, x);
        case OpKinds::bool_only:
            return check_bool(c, x, "the input");
        default:
            return;
    }
}

Outs infer_unary(const OpCall& c, Metas in) {
    check_arity(c, in, 1, 1);
    check_kinds(c, in[0]);
    (void)c.attrs<attrs::Scalars>();
    return {in[0]};
}

Outs infer_unary_pred(const OpCall& c, Metas in) {
    check_arity(c, in, 1, 1);
    check_kinds(c, in[0]);
    return {{DType::boolean, in[0].shape}};
}

Outs infer_binary(const OpCall& c, Metas in) {
    check_arity(c, in, 2, 2);
    check_kinds(c, in[0]);
    check_same_dtype(c, in[0], in[1]);
    check_same_shape(c, in[0], "lhs", in[1], "rhs");
    return {in[0]};
}

Outs infer_compare(const OpCall& c, Metas in) {
    Outs out = infer_binary(c, in);
    out[0].dtype = DType::boolean;
    return out;
}

Outs infer_ternary(const OpCall& c, Metas in) {
    check_arity(c, in, 3, 3);
    check_bool(c, in[0], "the mask");
    check_same_dtype(c, in[1], in[2]);
    check_same_shape(c, in[0], "the mask", in[1], "lhs");
    check_same_shape(c, in[1], "lhs", in[2], "rhs");
    return {in[1]};
}

using InferFn = Outs (*)(const OpCall&, Metas);

const InferFn kInfer[] = {
#define BURN_UNARY(name, kinds, body, vjp, domain) &infer_unary,
#define BURN_UNARY_PRED(name, kinds, body, domain) &infer_unary_pred,
#define BURN_BINARY(name, kinds, body, vjp_a, vjp_b, domain) &infer_binary,
#define BURN_COMPARE(name, kinds, body, domain) &infer_compare,
#define BURN_TERNARY(name, kinds, body, domain) &infer_ternary,
#include "burn/backend/elementwise.def"
#define BURN_OP(name, family, outputs, A) &infer_##name,
#include "burn/backend/ops.def"
};
static_assert(sizeof(kInfer) / sizeof(kInfer[0]) == kNumOps, "infer table out of step with OpId");

}  // namespace
}  // namespace op_infer

namespace {

op_infer::Outs infer_checked(const OpCall& call, std::span<const TensorMeta> inputs) {
    const OpInfo& info = op_info(call.op);
    op_infer::Outs out = op_infer::kInfer[static_cast<int>(call.op)](call, inputs);
    BURN_CHECK(static_cast<int>(out.size()) == info.outputs, "[", call.op, "] infer gave ", out.size(),
               " outputs, the row has ", info.outputs);
    return out;
}

}  // namespace

std::vector<TensorMeta> infer(const OpCall& call, std::span<const TensorMeta> inputs) {
    const op_infer::Outs out = infer_checked(call, inputs);
    return std::vector<TensorMeta>(out.begin(), out.end());
}

void infer_call(OpCall& call, std::span<const TensorMeta> inputs) {
    const op_infer::Outs out = infer_checked(call, inputs);
    call.dtype = out[0].dtype;
    call.shape = out[0].shape;
    if (out.size() > 1) call.extra_outs.assign(out.begin() + 1, out.end());
}

}  // namespace burn
