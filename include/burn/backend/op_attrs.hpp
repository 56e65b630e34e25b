#pragma once
/// Self-describing ops: each row of ops.def / elementwise.def names a typed attribute struct (its
/// `attrs` column), and every row has a pure `infer` of its outputs' metas. A backend, a tracer, a
/// lazy graph or an exporter reads a call through them with no per-op code of its own:
///
///     auto a = call.attrs<attrs::Conv>();          // throws naming the op if conv's struct differs
///     OpCall c = make_call(OpId::sum_dim, attrs::Dim{1});
///     std::vector<TensorMeta> out = infer(c, {{DType::f32, Dims{2, 3}}});   // {f32 [2, 1]}
///
/// Each struct stores itself losslessly in OpCall's untyped fields (encode/decode), so OpCall stays a
/// plain hashable, comparable value. A field named `shape` or `dtype` is stored in OpCall::shape /
/// dtype: on those rows the caller chooses output 0's extent or dtype, and infer checks it against the
/// inputs. Not included by the tensor headers (OpId stays out of them).
#include <array>
#include <limits>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "burn/backend/op.hpp"

namespace burn {

namespace attrs {

/// Rows without attributes (copy, matmul, adam_step and the binary, compare and ternary rows).
struct None {
    static constexpr std::string_view kName = "None";
    void encode(OpCall&) const {}
    static None decode(const OpCall& c);
    friend bool operator==(const None&, const None&) = default;
};

/// Every unary elementwise row's scalars, untyped: p0 and p1 of the row's body (0 where the body does
/// not use them). scalars = {p0, p1}. A row with parameters also has its own struct below (its
/// attrs_name); Scalars reads and writes any unary row, in the same layout.
struct Scalars {
    static constexpr std::string_view kName = "Scalars";
    double p0 = 0, p1 = 0;
    void encode(OpCall& c) const;
    static Scalars decode(const OpCall& c);
    friend bool operator==(const Scalars&, const Scalars&) = default;
};

/// leaky_relu: x for x > 0, slope * x otherwise. scalars = {slope, 0}.
struct LeakyRelu {
    static constexpr std::string_view kName = "LeakyRelu";
    double slope = 0.01;
    void encode(OpCall& c) const;
    static LeakyRelu decode(const OpCall& c);
    friend bool operator==(const LeakyRelu&, const LeakyRelu&) = default;
};

/// softplus: log(1 + exp(beta x)) / beta, and x where beta x > threshold. scalars = {beta, threshold}.
struct Softplus {
    static constexpr std::string_view kName = "Softplus";
    double beta = 1, threshold = 20;
    void encode(OpCall& c) const;
    static Softplus decode(const OpCall& c);
    friend bool operator==(const Softplus&, const Softplus&) = default;
};

/// clamp: min(max(x, min), max); NaN stays NaN. scalars = {min, max}.
struct Clamp {
    static constexpr std::string_view kName = "Clamp";
    double min = 0, max = 0;
    void encode(OpCall& c) const;
    static Clamp decode(const OpCall& c);
    friend bool operator==(const Clamp&, const Clamp&) = default;
};

/// powi_scalar: x to an integer power. scalars = {exponent, 0} (an integral value).
struct Powi {
    static constexpr std::string_view kName = "Powi";
    int64_t exponent = 1;
    void encode(OpCall& c) const;
    static Powi decode(const OpCall& c);
    friend bool operator==(const Powi&, const Powi&) = default;
};

/// One normalised dim (0 <= dim < rank): reductions, scans, softmax, cat and the index rows. ints = {dim}.
struct Dim {
    static constexpr std::string_view kName = "Dim";
    int64_t dim = 0;
    void encode(OpCall& c) const;
    static Dim decode(const OpCall& c);
    friend bool operator==(const Dim&, const Dim&) = default;
};

/// fill: every element = value. scalars = {value}; dtype, shape = the output's.
struct Fill {
    static constexpr std::string_view kName = "Fill";
    double value = 0;
    DType dtype = DType::f32;
    Dims shape;
    void encode(OpCall& c) const;
    static Fill decode(const OpCall& c);
    friend bool operator==(const Fill& a, const Fill& b) {
        return a.value == b.value && a.dtype == b.dtype && a.shape == b.shape;
    }
};

/// arange: [n] of dtype, start + step * i. scalars = {start, step}; dtype, shape = {n}.
struct Arange {
    static constexpr std::string_view kName = "Arange";
    double start = 0, step = 1;
    DType dtype = DType::f32;
    int64_t n = 0;
    void encode(OpCall& c) const;
    static Arange decode(const OpCall& c);
    friend bool operator==(const Arange&, const Arange&) = default;
};

/// random: the Philox stream (key, offset) and the distribution's parameters. ints = {distribution
/// (Distribution::Kind), key, offset}; scalars = {a, b}; dtype, shape = the output's.
struct Random {
    static constexpr std::string_view kName = "Random";
    int64_t distribution = 0;
    uint64_t key = 0, offset = 0;
    double a = 0, b = 0;
    DType dtype = DType::f32;
    Dims shape;
    void encode(OpCall& c) const;
    static Random decode(const OpCall& c);
    friend bool operator==(const Random& x, const Random& y) {
        return x.distribution == y.distribution && x.key == y.key && x.offset == y.offset && x.a == y.a &&
               x.b == y.b && x.dtype == y.dtype && x.shape == y.shape;
    }
};

/// cast: the target dtype (OpCall::dtype).
struct Cast {
    static constexpr std::string_view kName = "Cast";
    DType dtype = DType::f32;
    void encode(OpCall& c) const;
    static Cast decode(const OpCall& c);
    friend bool operator==(const Cast&, const Cast&) = default;
};

/// Output 0's shape, chosen by the caller (OpCall::shape): reshape's and expand's target,
/// adaptive_avg_pool2d's output, adaptive_avg_pool2d_backward's input shape.
struct OutShape {
    static constexpr std::string_view kName = "OutShape";
    Dims shape;
    void encode(OpCall& c) const;
    static OutShape decode(const OpCall& c);
    friend bool operator==(const OutShape& a, const OutShape& b) { return a.shape == b.shape; }
};

/// permute: output dim i is input dim axes[i] (a permutation of 0..rank-1). ints = axes.
struct Permute {
    static constexpr std::string_view kName = "Permute";
    std::vector<int64_t> axes;
    void encode(OpCall& c) const;
    static Permute decode(const OpCall& c);
    friend bool operator==(const Permute&, const Permute&) = default;
};

/// slice, slice_assign: one normalised range per dim of x (0 <= start <= end <= size, step != 0; a
/// negative step walks from end - 1 down). ints = {start, end, step} per dim.
struct Slice {
    struct Range {
        int64_t start = 0, end = 0, step = 1;
        /// The number of elements the range selects.
        int64_t length() const;
        friend bool operator==(const Range&, const Range&) = default;
    };
    static constexpr std::string_view kName = "Slice";
    std::vector<Range> ranges;
    void encode(OpCall& c) const;
    static Slice decode(const OpCall& c);
    friend bool operator==(const Slice&, const Slice&) = default;
};

/// softmax_backward: ints = {dim, log}.
struct SoftmaxBackward {
    static constexpr std::string_view kName = "SoftmaxBackward";
    int64_t dim = 0;
    bool log = false;
    void encode(OpCall& c) const;
    static SoftmaxBackward decode(const OpCall& c);
    friend bool operator==(const SoftmaxBackward&, const SoftmaxBackward&) = default;
};

/// scatter_reduce: ints = {dim, mode}.
struct ScatterReduce {
    static constexpr std::string_view kName = "ScatterReduce";
    enum Mode : int64_t { assign = 0, mul = 1, min = 2, max = 3 };
    int64_t dim = 0;
    int64_t mode = assign;
    void encode(OpCall& c) const;
    static ScatterReduce decode(const OpCall& c);
    friend bool operator==(const ScatterReduce&, const ScatterReduce&) = default;
};

/// masked_softmax: ints = {dim}; scalars = {fill} (as x's dtype holds it).
struct MaskedSoftmax {
    static constexpr std::string_view kName = "MaskedSoftmax";
    int64_t dim = 0;
    double fill = 0;
    void encode(OpCall& c) const;
    static MaskedSoftmax decode(const OpCall& c);
    friend bool operator==(const MaskedSoftmax&, const MaskedSoftmax&) = default;
};

/// sort: along dim, ascending or descending; k >= 0 keeps the first k of the order (topk), k = -1
/// the whole dim. ints = {dim, descending} or {dim, descending, k}.
struct Sort {
    static constexpr std::string_view kName = "Sort";
    int64_t dim = 0;
    bool descending = false;
    int64_t k = -1;
    void encode(OpCall& c) const;
    static Sort decode(const OpCall& c);
    friend bool operator==(const Sort&, const Sort&) = default;
};

/// conv, conv_backward_input, conv_backward_weight over S = 1..3 spatial dims: per-dim geometry (the
/// first `spatial` entries are used) and output 0's shape (OpCall::shape: the output for conv, x's
/// shape for conv_backward_input, w's shape for conv_backward_weight). ints = {stride[S],
/// pad_begin[S], pad_end[S], dilation[S], groups}.
struct Conv {
    static constexpr std::string_view kName = "Conv";
    int spatial = 2;
    std::array<int64_t, 3> stride{1, 1, 1}, pad_begin{0, 0, 0}, pad_end{0, 0, 0}, dilation{1, 1, 1};
    int64_t groups = 1;
    Dims shape;
    void encode(OpCall& c) const;
    static Conv decode(const OpCall& c);
    friend bool operator==(const Conv& a, const Conv& b) {
        return a.spatial == b.spatial && a.stride == b.stride && a.pad_begin == b.pad_begin &&
               a.pad_end == b.pad_end && a.dilation == b.dilation && a.groups == b.groups &&
               a.shape == b.shape;
    }
};

/// conv_fused: a convolution, then + residual (an input when `residual`), then clamp to [lo, hi]
/// (infinite bounds: none; [0, inf) is ReLU). ints = conv's, then residual (0 or 1); scalars = {lo, hi}.
struct ConvFused {
    static constexpr std::string_view kName = "ConvFused";
    Conv conv;
    bool residual = false;
    double lo = -std::numeric_limits<double>::infinity(), hi = std::numeric_limits<double>::infinity();
    void encode(OpCall& c) const;
    static ConvFused decode(const OpCall& c);
    friend bool operator==(const ConvFused& a, const ConvFused& b) {
        return a.conv == b.conv && a.residual == b.residual && a.lo == b.lo && a.hi == b.hi;
    }
};

/// A max pool's window over (height, width). ints = {kh, kw, sh, sw, ph, pw, dh, dw}.
struct PoolWindow {
    std::array<int64_t, 2> kernel{1, 1}, stride{1, 1}, pad{0, 0}, dilation{1, 1};
    friend bool operator==(const PoolWindow&, const PoolWindow&) = default;
};

/// max_pool2d: the window and the output shape (OpCall::shape; ceil_mode and the end padding are
/// folded into it).
struct MaxPool2d {
    static constexpr std::string_view kName = "MaxPool2d";
    PoolWindow window;
    Dims shape;
    void encode(OpCall& c) const;
    static MaxPool2d decode(const OpCall& c);
    friend bool operator==(const MaxPool2d& a, const MaxPool2d& b) {
        return a.window == b.window && a.shape == b.shape;
    }
};

/// max_pool2d_backward: x's shape (OpCall::shape) and, when known, the forward's window (a hint:
/// disjoint windows need no accumulation). ints = the window's, or {}.
struct MaxPool2dBackward {
    static constexpr std::string_view kName = "MaxPool2dBackward";
    std::optional<PoolWindow> window;
    Dims shape;
    void encode(OpCall& c) const;
    static MaxPool2dBackward decode(const OpCall& c);
    friend bool operator==(const MaxPool2dBackward& a, const MaxPool2dBackward& b) {
        return a.window == b.window && a.shape == b.shape;
    }
};

/// avg_pool2d, avg_pool2d_backward: the window, the padding at both ends, whether padding counts in
/// the divisor, and output 0's shape (OpCall::shape: the output, or x's shape for the backward).
/// ints = {kh, kw, sh, sw, ph, pw, ph_end, pw_end, count_include_pad}.
struct AvgPool2d {
    static constexpr std::string_view kName = "AvgPool2d";
    std::array<int64_t, 2> kernel{1, 1}, stride{1, 1}, pad_begin{0, 0}, pad_end{0, 0};
    bool count_include_pad = true;
    Dims shape;
    void encode(OpCall& c) const;
    static AvgPool2d decode(const OpCall& c);
    friend bool operator==(const AvgPool2d& a, const AvgPool2d& b) {
        return a.kernel == b.kernel && a.stride == b.stride && a.pad_begin == b.pad_begin &&
               a.pad_end == b.pad_end && a.count_include_pad == b.count_include_pad && a.shape == b.shape;
    }
};

/// interpolate, interpolate_backward: mode (InterpolateMode: 0 nearest, 1 bilinear, 2 bicubic),
/// align_corners and output 0's shape (OpCall::shape). ints = {mode, align_corners}.
struct Interpolate {
    static constexpr std::string_view kName = "Interpolate";
    int64_t mode = 0;
    bool align_corners = false;
    Dims shape;
    void encode(OpCall& c) const;
    static Interpolate decode(const OpCall& c);
    friend bool operator==(const Interpolate& a, const Interpolate& b) {
        return a.mode == b.mode && a.align_corners == b.align_corners && a.shape == b.shape;
    }
};

/// attention: scaled dot-product attention. ints = {causal, has_mask}; scalars = {scale}.
struct Attention {
    static constexpr std::string_view kName = "Attention";
    bool causal = false;
    bool has_mask = false;
    double scale = 1;
    void encode(OpCall& c) const;
    static Attention decode(const OpCall& c);
    friend bool operator==(const Attention&, const Attention&) = default;
};

/// layer_norm: ints = {has_gamma, has_beta, rms}; scalars = {eps}.
struct LayerNorm {
    static constexpr std::string_view kName = "LayerNorm";
    bool has_gamma = false, has_beta = false, rms = false;
    double eps = 1e-5;
    void encode(OpCall& c) const;
    static LayerNorm decode(const OpCall& c);
    friend bool operator==(const LayerNorm&, const LayerNorm&) = default;
};

/// layer_norm_backward: ints = {has_gamma, want_params, rms}.
struct LayerNormBackward {
    static constexpr std::string_view kName = "LayerNormBackward";
    bool has_gamma = false, want_params = false, rms = false;
    void encode(OpCall& c) const;
    static LayerNormBackward decode(const OpCall& c);
    friend bool operator==(const LayerNormBackward&, const LayerNormBackward&) = default;
};

/// cross_entropy, cross_entropy_backward: label smoothing in [0, 1]. scalars = {smoothing}.
struct CrossEntropy {
    static constexpr std::string_view kName = "CrossEntropy";
    double smoothing = 0;
    void encode(OpCall& c) const;
    static CrossEntropy decode(const OpCall& c);
    friend bool operator==(const CrossEntropy&, const CrossEntropy&) = default;
};

/// dft: the sign of the exponent. ints = {inverse} (0: e^(-2 pi i j k / n), 1: e^(+2 pi i j k / n)).
struct Dft {
    static constexpr std::string_view kName = "Dft";
    bool inverse = false;
    void encode(OpCall& c) const;
    static Dft decode(const OpCall& c);
    friend bool operator==(const Dft&, const Dft&) = default;
};

}  // namespace attrs

/// The attribute struct of a row: OpAttrs<OpId::conv>::type is attrs::Conv.
template <OpId>
struct OpAttrs;
#define BURN_OP(name, family, outputs, A) \
    template <>                           \
    struct OpAttrs<OpId::name> {          \
        using type = attrs::A;            \
    };
#include "burn/backend/ops.def"

/// The name of op's attribute struct ("Conv" for conv, "Clamp" for clamp, "Scalars" for unary
/// elementwise rows without parameters, "None" for binary, compare and ternary rows).
std::string_view attrs_name(OpId op);
/// Throws burn::Error naming op when its attribute struct is not the one called `name` ("Scalars" is
/// accepted for every unary elementwise row: it is their common layout).
void check_attrs(OpId op, std::string_view name);

/// A call of op with its attributes encoded (output metas left for infer, see infer_call).
template <class A>
OpCall make_call(OpId op, const A& a) {
    check_attrs(op, A::kName);
    OpCall c;
    c.op = op;
    a.encode(c);
    return c;
}

/// The metas of every output of call given its inputs' metas, in the order the backend returns them.
/// Pure: reads only the call's op and attributes (not its output metas unless the row's attributes
/// live there) and the metas. Throws burn::Error (ShapeError, DTypeError) naming the op, the offending
/// shapes or dtypes and the fix when the inputs do not fit the row.
std::vector<TensorMeta> infer(const OpCall& call, std::span<const TensorMeta> inputs);
inline std::vector<TensorMeta> infer(const OpCall& call, std::initializer_list<TensorMeta> inputs) {
    return infer(call, std::span<const TensorMeta>(inputs.begin(), inputs.size()));
}
/// Runs infer and records its result in call (dtype, shape and extra_outs).
void infer_call(OpCall& call, std::span<const TensorMeta> inputs);

}  // namespace burn
