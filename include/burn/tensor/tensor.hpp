#pragma once
/// Tensor<D, K>: a reference-counted handle to a tensor of rank D and kind K (Float, Int, Bool).
/// Copying shares the buffer. The dtype and device are run-time properties. Every op validates its
/// inputs and throws a burn::Error naming the op, the shapes, dtypes and devices.
#include <cstddef>
#include <initializer_list>
#include <iosfwd>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "burn/tensor/ops.hpp"
#include "burn/tensor/pending_data.hpp"

namespace burn {

template <std::size_t D, TensorKind K>
class DimIter;  // burn/tensor/dim_iter.hpp: what iter_dim returns

namespace detail {
template <class T, std::size_t D>
struct Nested {
    using type = std::initializer_list<typename Nested<T, D - 1>::type>;
};
template <class T>
struct Nested<T, 1> {
    using type = std::initializer_list<T>;
};
/// Flattens a nested initializer list, checking that it is rectangular.
template <class T, std::size_t D>
void flatten_nested(const typename Nested<T, D>::type& list, std::vector<T>& out, Dims& shape,
                    int depth = 0) {
    int64_t n = static_cast<int64_t>(list.size());
    if (static_cast<int>(shape.rank()) <= depth) {
        shape.push_back(n);
    } else {
        BURN_CHECK_KIND(shape[depth] == n, shape, "[from_data] ragged nested list: dim ", depth, " has ", n,
                        " elements where an earlier row had ", shape[depth]);
    }
    if constexpr (D == 1) {
        for (const T& v : list) out.push_back(v);
    } else {
        for (const auto& sub : list) flatten_nested<T, D - 1>(sub, out, shape, depth + 1);
        if (n == 0)
            for (std::size_t i = 1; i < D; ++i) shape.push_back(0);
    }
}
void check_tensor(const TensorAny& t, int rank, const char* kind_name, bool kind_ok);
/// values as an int dtype; a DTypeError naming op and the first value that does not fit.
TensorData int_data(const std::vector<int64_t>& values, const Dims& shape, DType dtype, const char* op);
std::string format_tensor(const TensorAny& t, const char* kind_name);
}  // namespace detail

template <std::size_t D, TensorKind K = Float>
class Tensor {
    static_assert(D >= 1 && D <= kMaxRank, "tensor rank must be between 1 and 8");

  public:
    static constexpr std::size_t rank = D;
    using kind = K;
    using elem = typename K::elem;

    /// An undefined tensor (a placeholder to assign to later).
    Tensor() = default;
    /// Wraps a rank-erased tensor, checking its rank and kind.
    explicit Tensor(TensorAny t) : t_(std::move(t)) {
        detail::check_tensor(t_, D, K::name, K::accepts(t_.dtype()));
    }

    // ------------------------------------------------------------------ creation
    static Tensor zeros(const Shape<D>& shape, const Device& device = Device(),
                        DType dtype = K::default_dtype) {
        return Tensor(ops::full(shape, 0.0, dtype, device));
    }
    static Tensor ones(const Shape<D>& shape, const Device& device = Device(),
                       DType dtype = K::default_dtype) {
        return Tensor(ops::full(shape, 1.0, dtype, device));
    }
    static Tensor full(const Shape<D>& shape, double value, const Device& device = Device(),
                       DType dtype = K::default_dtype) {
        return Tensor(ops::full(shape, value, dtype, device));
    }
    /// Uninitialised contents are not exposed: empty tensors are zero-filled.
    static Tensor empty(const Shape<D>& shape, const Device& device = Device(),
                        DType dtype = K::default_dtype) {
        return Tensor(ops::empty(shape, dtype, device));
    }
    static Tensor random(const Shape<D>& shape, const Distribution& dist, const Device& device = Device(),
                         DType dtype = K::default_dtype) {
        return Tensor(ops::random(shape, dist, dtype, device));
    }
    static Tensor from_data(const TensorData& data, const Device& device = Device()) {
        return Tensor(ops::from_data(data, device));
    }
    static Tensor from_floats(typename detail::Nested<double, D>::type values,
                              const Device& device = Device()) requires std::is_same_v<K, Float> {
        return from_nested<double, float>(values, device);
    }
    /// Int values, stored as dtype (i32, Int's default). Nothing is truncated: a value that does not fit
    /// the dtype is a burn::DTypeError naming it (pass DType::i64 for values beyond 32 bits).
    static Tensor from_ints(typename detail::Nested<int64_t, D>::type values, const Device& device = Device(),
                            DType dtype = K::default_dtype) requires std::is_same_v<K, Int> {
        std::vector<int64_t> flat;
        Dims shape;
        detail::flatten_nested<int64_t, D>(values, flat, shape);
        return Tensor(ops::from_data(detail::int_data(flat, shape, dtype, "from_ints"), device));
    }
    static Tensor from_bool(typename detail::Nested<bool, D>::type values,
                            const Device& device = Device()) requires std::is_same_v<K, Bool> {
        return from_nested<bool, bool>(values, device);
    }
    /// [start, end) with step 1 (Int, rank 1).
    static Tensor arange(int64_t start, int64_t end,
                         const Device& device = Device()) requires(D == 1 && !std::is_same_v<K, Bool>) {
        return Tensor(ops::arange(start, end, 1, K::default_dtype, device));
    }
    static Tensor arange_step(int64_t start, int64_t end, int64_t step,
                              const Device& device = Device()) requires(D == 1 && !std::is_same_v<K, Bool>) {
        return Tensor(ops::arange(start, end, step, K::default_dtype, device));
    }
    /// The n x n identity.
    static Tensor eye(int64_t n,
                      const Device& device = Device()) requires(D == 2 && !std::is_same_v<K, Bool>) {
        return Tensor(ops::eye(n, K::default_dtype, device));
    }
    Tensor zeros_like() const { return Tensor(ops::full(t_.shape(), 0.0, dtype(), device())); }
    Tensor ones_like() const { return Tensor(ops::full(t_.shape(), 1.0, dtype(), device())); }
    Tensor full_like(double v) const { return Tensor(ops::full(t_.shape(), v, dtype(), device())); }
    Tensor random_like(const Distribution& dist) const {
        return Tensor(ops::random(t_.shape(), dist, dtype(), device()));
    }
    /// This tensor's shape, dtype and device, zero-filled (nothing uninitialised is exposed).
    Tensor empty_like() const { return Tensor(ops::empty(t_.shape(), dtype(), device())); }
    /// Masks over the last two dims, true where the element is removed (burn's rule): tril_mask where
    /// j - i > offset, triu_mask where j - i < offset, diag_mask where j - i != offset.
    static Tensor tril_mask(const Shape<D>& shape, int64_t offset,
                            const Device& device = Device()) requires(D >= 2 && std::is_same_v<K, Bool>) {
        return Tensor(ops::tril_mask(Dims(shape), offset, device));
    }
    static Tensor triu_mask(const Shape<D>& shape, int64_t offset,
                            const Device& device = Device()) requires(D >= 2 && std::is_same_v<K, Bool>) {
        return Tensor(ops::triu_mask(Dims(shape), offset, device));
    }
    static Tensor diag_mask(const Shape<D>& shape, int64_t offset,
                            const Device& device = Device()) requires(D >= 2 && std::is_same_v<K, Bool>) {
        return Tensor(ops::diag_mask(Dims(shape), offset, device));
    }
    /// The coordinates of every position of shape, [...shape, D] (burn's cartesian_grid).
    template <std::size_t D2 = D + 1>
    static Tensor<D2, Int> cartesian_grid(const Shape<D>& shape,
                                          const Device& device = Device()) requires std::is_same_v<K, Int> {
        static_assert(D2 == D + 1, "cartesian_grid adds one dim");
        return Tensor<D2, Int>(ops::cartesian_grid(Dims(shape), K::default_dtype, device));
    }

    // ------------------------------------------------------------------ properties
    bool defined() const { return t_.defined(); }
    Shape<D> dims() const { return t_.shape().template to_shape<D>(); }
    const Dims& shape() const { return t_.shape(); }
    DType dtype() const { return t_.dtype(); }
    const Device& device() const { return t_.device(); }
    int64_t numel() const { return t_.numel(); }
    /// The rank-erased handle (what backends, autodiff and storage work on).
    const TensorAny& handle() const& { return t_; }
    TensorAny handle() && { return std::move(t_); }

    // ------------------------------------------------------------------ reading out
    /// Copies to the host; the only call (with into_scalar) that waits for the device.
    TensorData into_data() const { return ops::into_data(t_); }
    TensorData to_data() const { return ops::into_data(t_); }
    template <class T = elem>
    std::vector<T> to_vec() const {
        return into_data().template to_vec<T>();
    }
    /// The single value of a one-element tensor, converted to T (the kind's host type by default).
    template <class T = elem>
    T into_scalar() const {
        BURN_CHECK_KIND(numel() == 1, shape, "[into_scalar] the tensor has shape ", shape(), " (", numel(),
                        " elements); into_scalar needs exactly one element");
        return into_data().convert(dtype_of<T>).template to_vec<T>()[0];
    }
    /// Starts the read now (flushes the device: pending lazy graphs launch, a GPU keeps computing) and
    /// returns a handle whose get() waits for the values (burn's into_data_async).
    PendingData into_data_async() const { return PendingData(t_); }
    /// into_data_async of a one-element tensor: get() then scalar<T>() (burn's into_scalar_async).
    PendingData into_scalar_async() const {
        BURN_CHECK_KIND(numel() == 1, shape, "[into_scalar_async] the tensor has shape ", shape(), " (",
                        numel(), " elements); it needs exactly one element");
        return PendingData(t_);
    }
    std::string to_string() const { return detail::format_tensor(t_, K::name); }
    Tensor to_device(const Device& device) const { return Tensor(ops::to_device(t_, device)); }

    // ------------------------------------------------------------------ arithmetic
    // Generated from elementwise.def: one method per row (its _FREE rows excepted), offered to the kinds
    // its kinds column accepts (F: Float; N: Float and Int; I: Int; B: Bool; A: every kind). Binary and
    // compare rows also take a scalar right-hand side (add_scalar, equal_elem); Bool rows do not.
#define BURN_T_KINDS_F requires std::is_same_v<K, Float>
#define BURN_T_KINDS_N requires Numeric<K>
#define BURN_T_KINDS_B requires std::is_same_v<K, Bool>
#define BURN_T_KINDS_I requires std::is_same_v<K, Int>
#define BURN_T_KINDS_A
#define BURN_T_SCALAR_F(fn) BURN_T_SCALAR(fn, F)
#define BURN_T_SCALAR_N(fn) BURN_T_SCALAR(fn, N)
#define BURN_T_SCALAR_B(fn)
#define BURN_T_SCALAR_I(fn) BURN_T_SCALAR(fn, I)
#define BURN_T_SCALAR_A(fn) BURN_T_SCALAR(fn, A)
#define BURN_T_SCALAR(fn, kinds)                               \
    Tensor fn##_scalar(double s) const& BURN_T_KINDS_##kinds { \
        return Tensor(ops::fn##_scalar(t_, s));                \
    }                                                          \
    Tensor fn##_scalar(double s) && BURN_T_KINDS_##kinds {     \
        return Tensor(ops::fn##_scalar(std::move(t_), s));     \
    }
#define BURN_UNARY(fn, kinds, body, vjp, domain) \
    Tensor fn() const& BURN_T_KINDS_##kinds {    \
        return Tensor(ops::fn(t_));              \
    }                                            \
    Tensor fn() && BURN_T_KINDS_##kinds {        \
        return Tensor(ops::fn(std::move(t_)));   \
    }
#define BURN_UNARY_FREE(fn, kinds, body, vjp, domain)
#define BURN_UNARY_PRED(fn, kinds, body, domain)      \
    Tensor<D, Bool> fn() const BURN_T_KINDS_##kinds { \
        return Tensor<D, Bool>(ops::fn(t_));          \
    }
#define BURN_BINARY(fn, kinds, body, vjp_a, vjp_b, domain)   \
    Tensor fn(const Tensor& o) const& BURN_T_KINDS_##kinds { \
        return Tensor(ops::fn(t_, o.t_));                    \
    }                                                        \
    Tensor fn(const Tensor& o) && BURN_T_KINDS_##kinds {     \
        return Tensor(ops::fn(std::move(t_), o.t_));         \
    }                                                        \
    BURN_T_SCALAR_##kinds(fn)
#define BURN_BINARY_FREE(fn, kinds, body, vjp_a, vjp_b, domain)
#define BURN_COMPARE(fn, kinds, body, domain)                        \
    Tensor<D, Bool> fn(const Tensor& o) const BURN_T_KINDS_##kinds { \
        return Tensor<D, Bool>(ops::fn(t_, o.t_));                   \
    }                                                                \
    Tensor<D, Bool> fn##_elem(double s) const BURN_T_KINDS_##kinds { \
        return Tensor<D, Bool>(ops::fn##_elem(t_, s));               \
    }
#include "burn/backend/elementwise.def"
#undef BURN_T_SCALAR
#undef BURN_T_SCALAR_F
#undef BURN_T_SCALAR_N
#undef BURN_T_SCALAR_B
#undef BURN_T_SCALAR_I
#undef BURN_T_SCALAR_A
#undef BURN_T_KINDS_F
#undef BURN_T_KINDS_N
#undef BURN_T_KINDS_B
#undef BURN_T_KINDS_I
#undef BURN_T_KINDS_A
    /// x ^ exponent (float exponent; powi_scalar for an integer exponent).
    Tensor powi(const Tensor<D, Int>& exponent) const {
        return Tensor(ops::powi(t_, exponent.handle()));
    }
    Tensor powi_scalar(int exponent) const {
        return Tensor(ops::powi_scalar(t_, exponent));
    }
    Tensor clamp(double min, double max) const {
        return Tensor(ops::clamp(t_, min, max));
    }
    Tensor clamp_min(double min) const {
        return Tensor(ops::clamp(t_, min, std::numeric_limits<double>::infinity()));
    }
    Tensor clamp_max(double max) const {
        return Tensor(ops::clamp(t_, -std::numeric_limits<double>::infinity(), max));
    }

    /// Where mask is true take value, elsewhere this tensor.
    Tensor mask_where(const Tensor<D, Bool>& mask, const Tensor& value) const {
        return Tensor(ops::where(mask.handle(), value.t_, t_));
    }
    Tensor mask_fill(const Tensor<D, Bool>& mask, double value) const {
        return Tensor(ops::mask_fill(t_, mask.handle(), value));
    }
    /// Whether any element is NaN, as a bool [1] (burn's contains_nan).
    Tensor<1, Bool> contains_nan() const requires std::is_same_v<K, Float> {
        return Tensor<1, Bool>(ops::contains_nan(t_));
    }
    /// torch.isclose (equal_nan = false): |a - b| <= atol + rtol |b|, or equal where not finite.
    Tensor<D, Bool> is_close(const Tensor& o, double rtol = 1e-5,
                             double atol = 1e-8) const requires Numeric<K> {
        return Tensor<D, Bool>(ops::is_close(t_, o.t_, rtol, atol));
    }
    /// Whether every element is_close (waits for the device).
    bool all_close(const Tensor& o, double rtol = 1e-5, double atol = 1e-8) const requires Numeric<K> {
        return ops::all_close(t_, o.t_, rtol, atol);
    }

#include "burn/tensor/tensor_reductions.inc"  // reductions, sorting

    // ------------------------------------------------------------------ matmul
    /// [..., m, k] x [..., k, n] -> [..., m, n]; batch dims broadcast.
    Tensor matmul(const Tensor& o) const requires(D >= 2 && !std::is_same_v<K, Bool>) {
        return Tensor(ops::matmul(t_, o.t_));
    }

#include "burn/tensor/tensor_layout.inc"  // layout, indexing

    // ------------------------------------------------------------------ autodiff
    /// Marks this tensor as a leaf whose gradient backward() computes (autodiff devices only; a no-op
    /// elsewhere).
    Tensor require_grad() const {
        return Tensor(ops::require_grad(t_, true));
    }
    Tensor set_require_grad(bool on) const {
        return Tensor(ops::require_grad(t_, on));
    }
    bool is_require_grad() const {
        return ops::is_require_grad(t_);
    }
    /// The same values without a graph behind them.
    Tensor detach() const {
        return Tensor(ops::detach(t_));
    }
    /// Same as detach(): a tensor that records no gradient.
    Tensor no_grad() const {
        return detach();
    }
    /// Gradients of this (scalar-like) tensor with respect to every leaf that requires grad.
    Gradients backward() const {
        return ops::backward(t_);
    }
    /// This leaf's gradient (on the inner device), if backward reached it.
    std::optional<Tensor<D, K>> grad(const Gradients& grads) const {
        auto g = ops::grad(t_, grads);
        if (!g) return std::nullopt;
        return Tensor<D, K>(std::move(*g));
    }
    std::optional<Tensor<D, K>> grad_remove(Gradients& grads) const {
        auto g = ops::grad_remove(t_, grads);
        if (!g) return std::nullopt;
        return Tensor<D, K>(std::move(*g));
    }
    void grad_replace(Gradients& grads, const Tensor<D, K>& grad) const {
        ops::grad_replace(t_, grads, grad.t_);
    }
    /// This tensor on the inner device (itself on a plain device).
    Tensor inner() const {
        return Tensor(ops::inner_of(t_));
    }

    // ------------------------------------------------------------------ casts
    /// Another dtype of the same kind (f32 -> f16, i32 -> i64, ...).
    Tensor cast(DType dtype) const {
        return Tensor(ops::cast(t_, dtype));
    }
    Tensor<D, Float> float_(DType dtype = DType::f32) const {
        return Tensor<D, Float>(ops::cast(t_, dtype));
    }
    Tensor<D, Int> int_(DType dtype = DType::i32) const {
        return Tensor<D, Int>(ops::cast(t_, dtype));
    }
    Tensor<D, Bool> bool_() const {
        return Tensor<D, Bool>(ops::not_equal_elem(t_, 0.0));
    }

  private:
    template <std::size_t D2>
    static Tensor<D2, K> squeezed(TensorAny reduced, std::initializer_list<int64_t> dims) {
        if (dims.size() == 0) return Tensor<D2, K>(std::move(reduced));  // nothing reduced, nothing removed
        return Tensor<D2, K>(ops::squeeze_dims(std::move(reduced), Dims(dims), static_cast<int64_t>(D2)));
    }
    template <class In, class Store>
    static Tensor from_nested(typename detail::Nested<In, D>::type values, const Device& device) {
        std::vector<In> flat;
        Dims shape;
        detail::flatten_nested<In, D>(values, flat, shape);
        std::vector<Store> cast(flat.begin(), flat.end());
        return Tensor(ops::from_data(TensorData(cast, shape), device));
    }
    static std::vector<Tensor> wrap_all(std::vector<TensorAny> xs) {
        std::vector<Tensor> out;
        out.reserve(xs.size());
        for (auto& x : xs) out.emplace_back(std::move(x));
        return out;
    }
    static std::vector<TensorAny> unwrap_all(const std::vector<Tensor>& xs) {
        std::vector<TensorAny> out;
        out.reserve(xs.size());
        for (const auto& x : xs) out.push_back(x.t_);
        return out;
    }

    TensorAny t_;
};

// ---------------------------------------------------------------------- operators
#define BURN_T_OPERATOR(op, fn)                                       \
    template <std::size_t D, class K>                                 \
    Tensor<D, K> operator op(Tensor<D, K> a, const Tensor<D, K>& b) { \
        return std::move(a).fn(b);                                    \
    }                                                                 \
    template <std::size_t D, class K>                                 \
    Tensor<D, K> operator op(Tensor<D, K> a, double s) {              \
        return std::move(a).fn##_scalar(s);                           \
    }
BURN_T_OPERATOR(+, add)
BURN_T_OPERATOR(-, sub)
BURN_T_OPERATOR(*, mul)
BURN_T_OPERATOR(/, div)
BURN_T_OPERATOR(%, remainder)
#undef BURN_T_OPERATOR
template <std::size_t D, class K>
Tensor<D, K> operator+(double s, Tensor<D, K> a) {
    return std::move(a).add_scalar(s);
}
template <std::size_t D, class K>
Tensor<D, K> operator*(double s, Tensor<D, K> a) {
    return std::move(a).mul_scalar(s);
}
template <std::size_t D, class K>
Tensor<D, K> operator-(double s, Tensor<D, K> a) {
    return Tensor<D, K>(ops::rsub_scalar(std::move(a).handle(), s));
}
template <std::size_t D, class K>
Tensor<D, K> operator/(double s, Tensor<D, K> a) {
    return Tensor<D, K>(ops::rdiv_scalar(std::move(a).handle(), s));
}
template <std::size_t D, class K>
Tensor<D, K> operator-(Tensor<D, K> a) {
    return std::move(a).neg();
}
template <std::size_t D>
Tensor<D, Bool> operator&&(const Tensor<D, Bool>& a, const Tensor<D, Bool>& b) {
    return a.bool_and(b);
}
template <std::size_t D>
Tensor<D, Bool> operator||(const Tensor<D, Bool>& a, const Tensor<D, Bool>& b) {
    return a.bool_or(b);
}
template <std::size_t D>
Tensor<D, Bool> operator!(const Tensor<D, Bool>& a) {
    return a.bool_not();
}

/// Bit operators of Int tensors (bitwise_and, bitwise_or, bitwise_xor, bitwise_not).
template <std::size_t D>
Tensor<D, Int> operator&(const Tensor<D, Int>& a, const Tensor<D, Int>& b) {
    return a.bitwise_and(b);
}
template <std::size_t D>
Tensor<D, Int> operator|(const Tensor<D, Int>& a, const Tensor<D, Int>& b) {
    return a.bitwise_or(b);
}
template <std::size_t D>
Tensor<D, Int> operator^(const Tensor<D, Int>& a, const Tensor<D, Int>& b) {
    return a.bitwise_xor(b);
}
template <std::size_t D>
Tensor<D, Int> operator~(const Tensor<D, Int>& a) {
    return a.bitwise_not();
}

template <std::size_t D, class K>
std::ostream& operator<<(std::ostream& os, const Tensor<D, K>& t) {
    return os << t.to_string();
}

}  // namespace burn

#include "burn/tensor/dim_iter.hpp"  // DimIter, needs the complete Tensor
