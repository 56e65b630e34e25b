// burn::infer: one table indexed by OpId. Elementwise rows share the infer of their class (unary,
// predicate, binary, compare, ternary); structural rows register infer_<name> beside their family.
#include "ops/infer.hpp"

#include <algorithm>

namespace burn {

namespace op_infer {

std::string describe(const TensorMeta& m) {
    ::burn::detail::Text os;
    os << m;
    return os.str();
}

void throw_arity(const OpCall& c, Metas in, std::size_t lo, std::size_t hi) {
    BURN_THROW("[", c.op, "] takes ", lo, lo == hi ? "" : " to " + std::to_string(hi), " inputs, got ",
               in.size());
}

int check_dim(const OpCall& c, int64_t dim, int rank) {
    BURN_CHECK_KIND(dim >= 0 && dim < rank, shape, "[", c.op, "] dim ", dim,
                    " is out of range for a tensor of ", "rank ", rank,
                    "; the call's dims are normalised to [0, ", rank, ")");
    return static_cast<int>(dim);
}

void Outs::throw_too_many(std::size_t n) {
    BURN_THROW("infer: a row with ", n, " outputs (at most ", kMaxOutputs, ")");
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

// The checks below test inline and call the (throwing) check only when it fails: they run on every op.
void check_kinds(const OpCall& c, OpKinds kinds, const TensorMeta& x) {
    switch (kinds) {
        case OpKinds::float_only:
            if (!is_float(x.dtype)) check_float(c, x);
            return;
        case OpKinds::numeric:
            if (is_bool(x.dtype)) check_numeric(c, x);
            return;
        case OpKinds::bool_only:
            if (!is_bool(x.dtype)) check_bool(c, x, "the input");
            return;
        case OpKinds::int_only:
            if (!is_int(x.dtype)) check_int(c, x, "the input");
            return;
        default:
            return;
    }
}

/// The rules of the elementwise classes (info.cls is not structural): checks the call and returns
/// its one output's meta, which is an input's shape with `dtype`. infer_call reads it without Outs.
struct ElementwiseOut {
    DType dtype;
    const Dims& shape;
};
ElementwiseOut check_elementwise(const OpCall& c, const OpInfo& info, Metas in) {
    switch (info.cls) {
        case OpClass::unary:
            check_arity(c, in, 1, 1);
            check_kinds(c, info.kinds, in[0]);
            if (!c.ints.empty()) (void)c.attrs<attrs::Scalars>();  // what decode checks: throws
            return {in[0].dtype, in[0].shape};
        case OpClass::unary_pred:
            check_arity(c, in, 1, 1);
            check_kinds(c, info.kinds, in[0]);
            return {DType::boolean, in[0].shape};
        case OpClass::binary:
        case OpClass::compare:
            check_arity(c, in, 2, 2);
            check_kinds(c, info.kinds, in[0]);
            if (in[0].dtype != in[1].dtype) check_same_dtype(c, in[0], in[1]);
            if (in[0].shape != in[1].shape) check_same_shape(c, in[0], "lhs", in[1], "rhs");
            return {info.cls == OpClass::compare ? DType::boolean : in[0].dtype, in[0].shape};
        case OpClass::ternary:
            check_arity(c, in, 3, 3);
            check_bool(c, in[0], "the mask");
            check_same_dtype(c, in[1], in[2]);
            check_same_shape(c, in[0], "the mask", in[1], "lhs");
            check_same_shape(c, in[1], "lhs", in[2], "rhs");
            return {in[1].dtype, in[1].shape};
        case OpClass::structural:
            break;
    }
    BURN_THROW("[", c.op, "] is not an elementwise row");
}

Outs infer_elementwise(const OpCall& c, Metas in) {
    const ElementwiseOut out = check_elementwise(c, op_info(c.op), in);
    return {{out.dtype, out.shape}};
}

using InferFn = Outs (*)(const OpCall&, Metas);

const InferFn kInfer[] = {
#define BURN_UNARY(name, kinds, body, vjp, domain) &infer_elementwise,
#define BURN_UNARY_PRED(name, kinds, body, domain) &infer_elementwise,
#define BURN_BINARY(name, kinds, body, vjp_a, vjp_b, domain) &infer_elementwise,
#define BURN_COMPARE(name, kinds, body, domain) &infer_elementwise,
#define BURN_TERNARY(name, kinds, body, domain) &infer_elementwise,
#include "burn/backend/elementwise.def"
#define BURN_OP(name, family, outputs, A) &infer_##name,
#include "burn/backend/ops.def"
};
static_assert(sizeof(kInfer) / sizeof(kInfer[0]) == kNumOps, "infer table out of step with OpId");

}  // namespace
}  // namespace op_infer

namespace {

[[noreturn, gnu::noinline, gnu::cold]] void throw_outputs(const OpCall& call, std::size_t n,
                                                          const OpInfo& info) {
    BURN_THROW("[", call.op, "] infer gave ", n, " outputs, the row has ", info.outputs);
}

op_infer::Outs infer_checked(const OpCall& call, std::span<const TensorMeta> inputs, const OpInfo& info) {
    op_infer::Outs out = op_infer::kInfer[static_cast<int>(call.op)](call, inputs);
    if (static_cast<int>(out.size()) != info.outputs) [[unlikely]]
        throw_outputs(call, out.size(), info);
    return out;
}

}  // namespace

std::vector<TensorMeta> infer(const OpCall& call, std::span<const TensorMeta> inputs) {
    const op_infer::Outs out = infer_checked(call, inputs, op_info(call.op));
    return std::vector<TensorMeta>(out.begin(), out.end());
}

void infer_call(OpCall& call, std::span<const TensorMeta> inputs) {
    const OpInfo& info = op_info(call.op);
    if (info.cls != OpClass::structural) {  // an elementwise row: one output, read without Outs
        const op_infer::ElementwiseOut out = op_infer::check_elementwise(call, info, inputs);
        call.dtype = out.dtype;
        call.shape = out.shape;
        return;
    }
    const op_infer::Outs out = infer_checked(call, inputs, info);
    call.dtype = out[0].dtype;
    call.shape = out[0].shape;
    if (out.size() > 1) call.extra_outs.assign(out.begin() + 1, out.end());
}

}  // namespace burn
