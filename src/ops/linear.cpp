// Frontend, infer and decomposition of linear: y = x W^T + b with W in torch's layout [out, in] and the
// product written in a float dtype of the caller's choice (the operands' own by default; float32 from
// bf16/f16 operands as autocast runs nn::Linear). A derived row: a backend without a kernel runs
// matmul(x, W^T), a cast to the output dtype, then the bias add; CUDA's kernel is one cuBLASLt GEMM with the
// bias added in its epilogue (src/backends/cuda/linear.cpp), which saves a pass over every projection's
// output.
#include "ops/common.hpp"
#include "ops/decompose.hpp"
#include "ops/infer.hpp"

namespace burn::ops {

using namespace detail;

TensorAny linear(TensorAny x, TensorAny w, std::optional<TensorAny> bias, std::optional<DType> out) {
    check_defined(x, "linear");
    check_defined(w, "linear");
    if (bias) check_defined(*bias, "linear");
    const attrs::Cast a{out.value_or(x.dtype())};
    if (bias) {
        auto c = make(OpId::linear, a, metas(x, w, *bias));
        return run1(c, take(std::move(x), std::move(w), std::move(*bias)));
    }
    auto c = make(OpId::linear, a, metas(x, w));
    return run1(c, take(std::move(x), std::move(w)));
}

namespace detail {

void add_linear_decompositions(DecompositionTable& t) {
    t.set(OpId::linear, [](const OpCall& c, const std::vector<TensorAny>& in) -> std::vector<TensorAny> {
        // Primitives only (matmul_widen's decomposition, inlined): the product, a cast, the add.
        TensorAny y = matmul(in[0], swap_dims(in[1], 0, 1));
        if (c.dtype != y.dtype()) y = cast(std::move(y), c.dtype);
        if (in.size() == 3) y = add(std::move(y), unsqueeze_dim(in[2], 0));
        return {std::move(y)};
    });
}

}  // namespace detail

}  // namespace burn::ops

namespace burn::op_infer {

Outs infer_linear(const OpCall& c, Metas in) {
    check_arity(c, in, 2, 3);
    const DType out = c.attrs<attrs::Cast>().dtype;
    const TensorMeta &x = in[0], &w = in[1];
    BURN_CHECK_KIND(is_float(x.dtype) && is_float(out), dtype,
                    "[linear] multiplies float tensors into a float", " dtype, got input ", describe(x),
                    " and output dtype ", out, "; convert integer inputs with .float_()");
    BURN_CHECK_KIND(w.dtype == x.dtype, dtype, "[linear] the weight ", describe(w), " and the input ",
                    describe(x), " differ in dtype; cast one to the other's");
    BURN_CHECK_KIND(x.shape.rank() == 2 && w.shape.rank() == 2, shape,
                    "[linear] takes an input [rows, in] and a weight [out, in], got input ", x.shape,
                    " and weight ", w.shape, "; flatten the input's leading dims with reshape");
    BURN_CHECK_KIND(x.shape[1] == w.shape[1], shape, "[linear] the input ", x.shape,
                    " does not end in the weight's in = ", w.shape[1], " (the weight ", w.shape,
                    " is [out, in])");
    if (in.size() == 3) {
        const TensorMeta& b = in[2];
        BURN_CHECK_KIND(b.shape.rank() == 1 && b.shape[0] == w.shape[0], shape, "[linear] the bias must be [",
                        w.shape[0], "] (the weight's out), got ", b.shape);
        BURN_CHECK_KIND(b.dtype == out, dtype, "[linear] the bias ", describe(b),
                        " must have the output dtype ", out, "; cast it");
    }
    return {{out, Dims{x.shape[0], w.shape[0]}}};
}

}  // namespace burn::op_infer
