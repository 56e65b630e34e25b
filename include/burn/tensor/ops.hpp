#pragma once
/// The rank-erased frontend: every op validates its inputs here (naming the op, shapes, dtypes and
/// devices in errors) and reaches the backend through Backend::execute. Tensor<D, K> forwards here.
/// Arguments are taken by value so that temporaries can be reused in place by the backend.
#include <optional>
#include <utility>
#include <vector>

#include "burn/autodiff/gradients.hpp"
#include "burn/tensor/data.hpp"
#include "burn/tensor/indexing_update.hpp"
#include "burn/tensor/kind.hpp"
#include "burn/tensor/pad_mode.hpp"
#include "burn/tensor/slice.hpp"
#include "burn/tensor/tensor_any.hpp"

namespace burn::ops {

// ---- creation
TensorAny from_data(const TensorData& data, const Device& device);
/// A CPU tensor over memory the caller owns (weights in flash: burn-embed, docs/embedded.md), without
/// a copy. The memory is read-only to burn: every op writes its result to a new buffer, never into it.
/// It must stay valid and unchanged while any tensor made from it (views included) lives; `data` must
/// be aligned to the dtype's size and hold shape.numel() elements of dtype.
TensorAny from_external(const void* data, const Dims& shape, DType dtype, const Device& device);
TensorData into_data(const TensorAny& x);
TensorAny full(const Dims& shape, double value, DType dtype, const Device& device);
TensorAny empty(const Dims& shape, DType dtype, const Device& device);
TensorAny arange(int64_t start, int64_t end, int64_t step, DType dtype, const Device& device);
TensorAny eye(int64_t n, DType dtype, const Device& device);
TensorAny random(const Dims& shape, const Distribution& dist, DType dtype, const Device& device);
TensorAny to_device(TensorAny x, const Device& device);

// ---- elementwise, generated from elementwise.def. Binary ops broadcast (equal ranks).
#define BURN_UNARY(name, kinds, body, vjp, domain) TensorAny name(TensorAny x, double p0 = 0, double p1 = 0);
#define BURN_UNARY_PRED(name, kinds, body, domain) TensorAny name(TensorAny x);
#define BURN_BINARY(name, kinds, body, vjp_a, vjp_b, domain) \
    TensorAny name(TensorAny a, TensorAny b);                \
    TensorAny name##_scalar(TensorAny a, double b);
#define BURN_COMPARE(name, kinds, body, domain) \
    TensorAny name(TensorAny a, TensorAny b);   \
    TensorAny name##_elem(TensorAny a, double b);
#define BURN_TERNARY(name, kinds, body, domain) TensorAny name(TensorAny c, TensorAny a, TensorAny b);
#include "burn/backend/elementwise.def"

/// x - s (reversed operands for scalar - tensor)
TensorAny rsub_scalar(TensorAny x, double s);
TensorAny rdiv_scalar(TensorAny x, double s);
TensorAny mask_fill(TensorAny x, TensorAny mask, double value);
TensorAny cast(TensorAny x, DType dtype);
TensorAny powi(TensorAny x, TensorAny exponent);

// ---- activations that are compositions or fused kernels
TensorAny softmax(TensorAny x, int64_t dim);
TensorAny log_softmax(TensorAny x, int64_t dim);
/// The vector-Jacobian product of softmax (log = false) or log_softmax (log = true) along dim, from
/// the forward's output y and the output gradient g: one fused pass (the autodiff rules use it).
TensorAny softmax_backward(TensorAny y, TensorAny g, int64_t dim, bool log, TensorAny mask = {});
/// softmax(mask_fill(x, mask, fill), dim) in one pass (attention scores): mask is a bool tensor that
/// broadcasts to x. Fused when dim is the last; composed otherwise. Its gradient is 0 where mask is true.
TensorAny masked_softmax(TensorAny x, TensorAny mask, int64_t dim, double fill);

// ---- reductions (keep the reduced dim with size 1)
TensorAny sum_dim(TensorAny x, int64_t dim);
TensorAny mean_dim(TensorAny x, int64_t dim);
TensorAny prod_dim(TensorAny x, int64_t dim);
TensorAny max_dim(TensorAny x, int64_t dim);
TensorAny min_dim(TensorAny x, int64_t dim);
std::pair<TensorAny, TensorAny> max_dim_with_indices(TensorAny x, int64_t dim);
std::pair<TensorAny, TensorAny> min_dim_with_indices(TensorAny x, int64_t dim);
TensorAny argmax(TensorAny x, int64_t dim);
TensorAny argmin(TensorAny x, int64_t dim);
TensorAny any_dim(TensorAny x, int64_t dim);
TensorAny all_dim(TensorAny x, int64_t dim);
/// Full reductions give shape [1].
TensorAny sum(TensorAny x);
TensorAny mean(TensorAny x);
TensorAny prod(TensorAny x);
TensorAny max(TensorAny x);
TensorAny min(TensorAny x);
TensorAny any(TensorAny x);
TensorAny all(TensorAny x);
/// Variance along dim (keeps it); correction 1 = sample variance, 0 = biased.
TensorAny var(TensorAny x, int64_t dim, int64_t correction);
TensorAny cumsum(TensorAny x, int64_t dim);
/// The running product along dim (torch.cumprod, burn's cumprod): out[i] = x[0] * ... * x[i].
TensorAny cumprod(TensorAny x, int64_t dim);
/// The running maximum / minimum along dim (burn's cummax, cummin; torch.cummax's values): a NaN
/// propagates to the end of its lane.
TensorAny cummax(TensorAny x, int64_t dim);
TensorAny cummin(TensorAny x, int64_t dim);
/// torch.cummax / cummin: {values, i32 indices} where the index is the position of the running
/// extremum (the latest of equal values; a NaN's own position once one is met).
std::pair<TensorAny, TensorAny> cummax_with_indices(TensorAny x, int64_t dim);
std::pair<TensorAny, TensorAny> cummin_with_indices(TensorAny x, int64_t dim);
/// Reductions over several dims, each kept with size 1 (burn's sum_dims ...): the dims may be negative
/// and must be distinct; an empty list reduces nothing. mean_dims of integers divides the i64 sum once
/// (truncating), as mean_dim does.
TensorAny sum_dims(TensorAny x, const Dims& dims);
TensorAny mean_dims(TensorAny x, const Dims& dims);
TensorAny prod_dims(TensorAny x, const Dims& dims);
TensorAny max_dims(TensorAny x, const Dims& dims);
TensorAny min_dims(TensorAny x, const Dims& dims);
/// max(|x|) over everything ([1]) and along dim (kept).
TensorAny max_abs(TensorAny x);
TensorAny max_abs_dim(TensorAny x, int64_t dim);
/// max(|x|) over several distinct dims, each kept with size 1 (burn's max_abs_dims).
TensorAny max_abs_dims(TensorAny x, const Dims& dims);
/// {var(x, dim, correction), mean_dim(x, dim)} (float).
std::pair<TensorAny, TensorAny> var_mean(TensorAny x, int64_t dim, int64_t correction);
/// The lower median (torch.median: the element at sorted position (n - 1) / 2) over everything ([1])
/// and along dim (kept), with its i32 index along dim; a lane holding NaN gives NaN and the index of its
/// first NaN. Float or int; an empty input or dim is an error.
TensorAny median(TensorAny x);
TensorAny median_dim(TensorAny x, int64_t dim);
std::pair<TensorAny, TensorAny> median_dim_with_indices(TensorAny x, int64_t dim);
/// burn's cov(dim, correction_factor) of a float matrix: the covariance of the variables whose
/// observations run along dim ([v, o] with dim 1 as torch.cov, or [o, v] with dim 0) -> [v, v],
/// centred by the mean and divided by n - correction.
TensorAny cov(TensorAny x, int64_t dim, int64_t correction);
/// Whether any element is NaN: bool [1] (false for integers).
TensorAny contains_nan(TensorAny x);
/// torch.isclose with equal_nan = false: |a - b| <= atol + rtol |b| where both are finite, a == b
/// elsewhere (inf is close to inf of its sign, NaN to nothing). Float or int (compared in f64), one
/// dtype, shapes broadcast. all_close: whether every element is close (waits for the device).
TensorAny is_close(TensorAny a, TensorAny b, double rtol, double atol);
bool all_close(TensorAny a, TensorAny b, double rtol, double atol);
/// Sorted values and i32 indices along dim.
std::pair<TensorAny, TensorAny> sort_with_indices(TensorAny x, int64_t dim, bool descending);
std::pair<TensorAny, TensorAny> topk_with_indices(TensorAny x, int64_t k, int64_t dim);
/// The i32 indices of the k largest values along dim, in descending order of value (burn's argtopk).
TensorAny argtopk(TensorAny x, int64_t k, int64_t dim);

// ---- matmul: [..., m, k] x [..., k, n] -> [..., m, n], batch dims broadcast
TensorAny matmul(TensorAny a, TensorAny b);
/// matmul of float operands (one dtype, batch dims equal) with the product written in `out` (float)
/// without a rounding to the operands' dtype in between where the backend has a kernel (CUDA: bf16/f16
/// tensor-core GEMM writing float32); elsewhere cast(matmul(a, b), out). Autocast's float32 matmul.
TensorAny matmul_widen(TensorAny a, TensorAny b, DType out);
/// x [m, k] times w^T for a weight w [n, k] (torch's layout), plus bias [n] when given: [m, n] in `out`
/// (default: x's dtype; float32 from bf16/f16 operands, with a float32 bias, is autocast's nn::Linear).
/// One GEMM with the bias in its epilogue where the backend has the kernel (CUDA); elsewhere
/// matmul_widen(x, w^T, out) + bias.
TensorAny linear(TensorAny x, TensorAny w, std::optional<TensorAny> bias = std::nullopt,
                 std::optional<DType> out = std::nullopt);

// ---- layout (views where possible)
/// new_shape may hold one -1, inferred from the element count.
TensorAny reshape(TensorAny x, const Dims& new_shape);
TensorAny permute(TensorAny x, const Dims& axes);
TensorAny swap_dims(TensorAny x, int64_t a, int64_t b);
TensorAny expand(TensorAny x, const Dims& shape);
TensorAny flip(TensorAny x, const Dims& axes);
TensorAny slice(TensorAny x, const std::vector<SliceArg>& ranges);
TensorAny slice_assign(TensorAny x, const std::vector<SliceArg>& ranges, TensorAny values);
TensorAny narrow(TensorAny x, int64_t dim, int64_t start, int64_t length);
/// The sub-tensor at `index` of dim, with dim removed (torch.select; burn's select with a single index
/// then squeeze_dim). A negative index counts from the end; the result is a view.
TensorAny select_dim(TensorAny x, int64_t dim, int64_t index);
/// The item at `index` of burn's iter_dim(dim): the slice of dim at index with dim kept (size 1), a view.
/// A negative index counts from the end.
TensorAny iter_dim_item(TensorAny x, int64_t dim, int64_t index);
/// x's elements shifted by shifts[i] along dims[i], wrapping around (torch.roll): out[(j + s) mod n] = x[j].
/// Two slice views and a cat per dim, so it runs and differentiates on every device.
TensorAny roll(TensorAny x, const Dims& shifts, const Dims& dims);
std::vector<TensorAny> chunk(TensorAny x, int64_t chunks, int64_t dim);
std::vector<TensorAny> split(TensorAny x, int64_t split_size, int64_t dim);
TensorAny cat(const std::vector<TensorAny>& xs, int64_t dim);
TensorAny stack(const std::vector<TensorAny>& xs, int64_t dim);
TensorAny repeat_dim(TensorAny x, int64_t dim, int64_t times);
/// x tiled times[d] times along every dim d (burn's repeat; one count per dim).
TensorAny repeat(TensorAny x, const std::vector<int64_t>& times);
/// The slices of x along dim at indices (Int, any rank): dim becomes indices' dims (burn's take,
/// numpy.take along an axis): rank x.rank() - 1 + indices.rank().
TensorAny take(TensorAny x, int64_t dim, TensorAny indices);
TensorAny unsqueeze_dim(TensorAny x, int64_t dim);
TensorAny squeeze_dim(TensorAny x, int64_t dim);
TensorAny flatten(TensorAny x, int64_t start_dim, int64_t end_dim);
/// x without the listed dims, each of which must have size 1; an empty list removes every size-1 dim.
/// want_rank >= 0 is the rank the caller expects (a typed Tensor<D2>): a different result is an error
/// naming the shape.
TensorAny squeeze_dims(TensorAny x, const Dims& dims, int64_t want_rank = -1);
/// x with dims of size 1 inserted at the listed positions of the result (negative: from its end).
TensorAny unsqueeze_dims(TensorAny x, const Dims& dims);
/// x with dim src[i] moved to position dst[i] (torch.movedim); the other dims keep their order.
TensorAny movedim(TensorAny x, const Dims& src, const Dims& dst);
/// x sliced along dim alone (burn's slice_dim): the other dims are taken whole.
TensorAny slice_dim(TensorAny x, int64_t dim, SliceArg range);
/// Consecutive pieces of the given sizes along dim (views); the sizes must add up to the dim's size.
std::vector<TensorAny> split_with_sizes(TensorAny x, const Dims& sizes, int64_t dim);
/// A contiguous copy (or x itself when already contiguous on a backend that can tell).
TensorAny contiguous(TensorAny x);
TensorAny tril(TensorAny x, int64_t diagonal);
/// x padded (torch.nn.functional.pad): pads holds (before, after) pairs from the last dim backwards
/// ({left, right, top, bottom, ...}; burn's (left, right, top, bottom) for the last two dims), filled as
/// mode says. A negative pad crops. Reflect needs each pad smaller than its dim, edge a non-empty dim.
TensorAny pad(TensorAny x, const Dims& pads, const PadMode& mode);
/// The sliding windows of dim (torch.Tensor.unfold, burn's unfold): dim becomes (n - size) / step + 1
/// windows and a new last dim of length size holds each window. size in [0, n], step >= 1.
TensorAny unfold(TensorAny x, int64_t dim, int64_t size, int64_t step);
TensorAny triu(TensorAny x, int64_t diagonal);

// ---- linear algebra basics (burn::linalg; float and int)
/// Rank-1 a . b as a [1] tensor.
TensorAny dot(TensorAny a, TensorAny b);
/// Rank-1 a [m], b [n] -> [m, n] with a[i] * b[j].
TensorAny outer(TensorAny a, TensorAny b);
/// The outer product along dim (burn's linalg::outer_dim): a and b of one rank D, with sizes m and n at
/// dim and the other dims broadcast, give rank D + 1 with out[..., i, j, ...] = a[..., i, ...] * b[..., j,
/// ...] (i at dim, j at dim + 1). A negative dim counts from the end of the inputs' rank.
TensorAny outer_dim(TensorAny a, TensorAny b, int64_t dim);
/// x1 . x2 / (max(|x1|, eps) max(|x2|, eps)) along dim, which is kept with size 1 (burn's
/// linalg::cosine_similarity, PyTorch's F.cosine_similarity before the squeeze). Float, one shape.
TensorAny cosine_similarity(TensorAny x1, TensorAny x2, int64_t dim, double eps);
/// The cross product of 3-vectors along dim (size 3 in both; the other dims broadcast; burn's cross,
/// torch.linalg.cross).
TensorAny cross(TensorAny a, TensorAny b, int64_t dim);
/// m [..., r, c] times v [..., c] -> [..., r] (batch dims broadcast as matmul's).
TensorAny matvec(TensorAny m, TensorAny v);
/// The diagonal of the last two dims: [..., r, c] -> [..., min(r, c)].
TensorAny diag(TensorAny x);
/// The sum of that diagonal: [..., r, c] -> [..., 1].
TensorAny trace(TensorAny x);
/// The vector p-norm along dim, kept (float): p = 0 counts non-zeros, 1, 2, +inf (max |x|), -inf
/// (min |x|), any other p: (sum |x|^p)^(1/p).
TensorAny vector_norm(TensorAny x, double p, int64_t dim);
/// x / max(vector_norm(x, p, dim), eps) (burn's linalg::vector_normalize; eps >= 0).
TensorAny vector_normalize(TensorAny x, double p, int64_t dim, double eps);

// ---- masks and grids
/// Bool masks of shape (rank >= 2) over its last two dims, true where an element is *removed* (burn's
/// rule): tril_mask where j - i > offset, triu_mask where j - i < offset, diag_mask where j - i != offset.
TensorAny tril_mask(const Dims& shape, int64_t offset, const Device& device);
TensorAny triu_mask(const Dims& shape, int64_t offset, const Device& device);
TensorAny diag_mask(const Dims& shape, int64_t offset, const Device& device);
/// N rank-1 tensors -> N tensors of rank N (expanded views): matrix ("ij") indexing has shape
/// [n0, n1, ...]; cartesian ("xy") swaps the first two dims.
std::vector<TensorAny> meshgrid(const std::vector<TensorAny>& xs, bool cartesian);
/// The matrix-indexed meshgrid stacked into one tensor of rank N + 1 (burn's meshgrid_stack): the N
/// coordinates on a new first dim ([N, n0, n1, ...]) or, with index_last, a new last dim.
TensorAny meshgrid_stack(const std::vector<TensorAny>& xs, bool index_last);
/// The i64 coordinates of every position of shape: [...shape, rank] (dtype: an int dtype).
TensorAny cartesian_grid(const Dims& shape, DType dtype, const Device& device);

// ---- indexing
TensorAny select(TensorAny x, int64_t dim, TensorAny indices);
TensorAny select_assign(TensorAny x, int64_t dim, TensorAny indices, TensorAny values);
TensorAny gather(TensorAny x, int64_t dim, TensorAny indices);
TensorAny scatter(TensorAny x, int64_t dim, TensorAny indices, TensorAny values);
TensorAny one_hot(TensorAny x, int64_t num_classes);
/// scatter and select_assign combining as op says (burn's IndexingUpdateOp): Add is scatter /
/// select_assign; Assign, Min and Max take every dtype (Bool: Min is and, Max is or), Mul numeric ones.
/// Values sent to one element combine in the order of the indices (Assign: the last one wins).
TensorAny scatter_reduce(TensorAny x, int64_t dim, TensorAny indices, TensorAny values, IndexingUpdateOp op);
/// burn's gather_nd / scatter_nd: indices [..., K] (Int) address the leading K dims of x; gather_nd
/// gives indices.shape[..-1] ++ x.shape[K..] and scatter_nd combines values of that shape into x as op
/// says. The index tuples are range-checked on the host (waits for the indices' device).
TensorAny gather_nd(TensorAny x, TensorAny indices);
TensorAny scatter_nd(TensorAny x, TensorAny indices, TensorAny values, IndexingUpdateOp op);
TensorAny select_assign_reduce(TensorAny x, int64_t dim, TensorAny indices, TensorAny values,
                               IndexingUpdateOp op);
/// The positions of the non-zero (true) elements in row-major order: argwhere gives [n, rank] (burn's
/// argwhere, torch.argwhere), nonzero one [n] tensor per dim (burn's nonzero, torch.nonzero with
/// as_tuple). Int (i32 unless a dim needs i64). Data-dependent: x is read on the host (waits for it).
TensorAny argwhere(TensorAny x);
/// The elements of x where mask (Bool, same rank, broadcast against x) is true, in row-major order, as
/// a 1-D tensor (torch.masked_select, burn's mask_select). Reads the mask on the host.
TensorAny mask_select(TensorAny x, TensorAny mask);
/// x's classes (negative ones count from num_classes, as ONNX's OneHot) as on_value / off_value along
/// a new dim at axis (burn's one_hot_fill); the output has x's dtype.
TensorAny one_hot_fill(TensorAny x, int64_t num_classes, double on_value, double off_value, int64_t axis);
/// x with the elements of ranges set to value (burn's slice_fill).
TensorAny slice_fill(TensorAny x, const std::vector<SliceArg>& ranges, double value);
std::vector<TensorAny> nonzero(TensorAny x);

// ---- autodiff (meaningful on devices made with .autodiff(); see docs/autodiff.md)
/// Marks x as a leaf that requires grad (on other devices: x unchanged, there is no tape).
TensorAny require_grad(TensorAny x, bool on = true);
bool is_require_grad(const TensorAny& x);
/// The same values, cut from the graph.
TensorAny detach(TensorAny x);
/// Gradients of loss with respect to every leaf that requires grad; frees the graph.
Gradients backward(const TensorAny& loss);
std::optional<TensorAny> grad(const TensorAny& x, const Gradients& grads);
std::optional<TensorAny> grad_remove(const TensorAny& x, Gradients& grads);
void grad_replace(const TensorAny& x, Gradients& grads, TensorAny grad);
/// The key of x's gradient in Gradients (0 when x requires none).
uint64_t grad_key(const TensorAny& x);
/// The tensor on the inner device (x itself on a plain device).
TensorAny inner_of(const TensorAny& x);

}  // namespace burn::ops
