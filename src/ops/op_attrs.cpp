// The attribute structs' encode/decode (burn/backend/op_attrs.hpp): each writes its fields into
// OpCall's untyped storage in the layout ops.def documents, and reads them back with a checked error
// naming the op when the call is not one of the struct's rows or its storage is malformed.
#include "burn/backend/op_attrs.hpp"

#include <string>

#include "burn/core/error.hpp"

namespace burn {

namespace {

const std::string_view kAttrsNames[] = {
#define BURN_UNARY(name, kinds, body, vjp, domain) "Scalars",
#define BURN_UNARY_ATTRS(name, kinds, body, vjp, domain, A) #A,
#define BURN_UNARY_PRED(name, kinds, body, domain) "Scalars",
#define BURN_BINARY(name, kinds, body, vjp_a, vjp_b, domain) "None",
#define BURN_COMPARE(name, kinds, body, domain) "None",
#define BURN_TERNARY(name, kinds, body, domain) "None",
#include "burn/backend/elementwise.def"
#define BURN_OP(name, family, outputs, A) #A,
#include "burn/backend/ops.def"
};
static_assert(sizeof(kAttrsNames) / sizeof(kAttrsNames[0]) == kNumOps, "attrs table out of step with OpId");

/// Checks that call holds n ints (or one of [lo, hi]) for struct `what`.
void check_ints(const OpCall& c, std::size_t lo, std::size_t hi, std::string_view what) {
    BURN_CHECK(c.ints.size() >= lo && c.ints.size() <= hi, "[", c.op, "] malformed attributes: attrs::", what,
               " needs ", lo, lo == hi ? "" : " to ", lo == hi ? "" : std::to_string(hi),
               " ints, the call has ", c.ints.size(), "; build the call with make_call(OpId::", c.op,
               ", attrs::", what, "{...})");
}

template <class A>
void check_decode(const OpCall& c, std::size_t lo, std::size_t hi) {
    check_attrs(c.op, A::kName);
    if (c.ints.size() < lo || c.ints.size() > hi) check_ints(c, lo, hi, A::kName);  // throws
}

}  // namespace

std::string_view attrs_name(OpId op) {
    (void)op_info(op);  // checks the id
    return kAttrsNames[static_cast<int>(op)];
}

namespace {
[[gnu::noinline]] void check_attrs_slow(OpId op, std::string_view name) {
    const std::string_view want = attrs_name(op);
    if (want == name) return;
    if (name == attrs::Scalars::kName && op_info(op).cls == OpClass::unary) return;  // the common layout
    BURN_CHECK(want == name, "[", op, "] takes attrs::", want, ", not attrs::", name,
               "; use call.attrs<attrs::", want, ">() / make_call(OpId::", op, ", attrs::", want, "{...})");
}
}  // namespace

void check_attrs(OpId op, std::string_view name) {
    // Every make_call and decode passes here: the usual match is one table read and a pointer compare
    // (the names are literals, which the linker usually merges); the rest compares the characters.
    const auto i = static_cast<std::size_t>(op);
    if (i < static_cast<std::size_t>(kNumOps) && kAttrsNames[i].data() == name.data() &&
        kAttrsNames[i].size() == name.size())
        return;
    check_attrs_slow(op, name);
}

namespace attrs {

None None::decode(const OpCall& c) {
    check_decode<None>(c, 0, 0);
    return {};
}

void Scalars::encode(OpCall& c) const {
    c.scalars[0] = p0;
    c.scalars[1] = p1;
}
Scalars Scalars::decode(const OpCall& c) {
    check_decode<Scalars>(c, 0, 0);
    return {c.scalars[0], c.scalars[1]};
}

void LeakyRelu::encode(OpCall& c) const {
    Scalars{slope, 0}.encode(c);
}
LeakyRelu LeakyRelu::decode(const OpCall& c) {
    check_decode<LeakyRelu>(c, 0, 0);
    return {c.scalars[0]};
}

void Softplus::encode(OpCall& c) const {
    Scalars{beta, threshold}.encode(c);
}
Softplus Softplus::decode(const OpCall& c) {
    check_decode<Softplus>(c, 0, 0);
    return {c.scalars[0], c.scalars[1]};
}

void Clamp::encode(OpCall& c) const {
    Scalars{min, max}.encode(c);
}
Clamp Clamp::decode(const OpCall& c) {
    check_decode<Clamp>(c, 0, 0);
    return {c.scalars[0], c.scalars[1]};
}

void Powi::encode(OpCall& c) const {
    Scalars{static_cast<double>(exponent), 0}.encode(c);
}
Powi Powi::decode(const OpCall& c) {
    check_decode<Powi>(c, 0, 0);
    const double e = c.scalars[0];
    const bool integral =
        e >= -2147483648.0 && e <= 2147483647.0 && e == static_cast<double>(static_cast<int64_t>(e));
    BURN_CHECK(integral, "[", c.op, "] malformed attributes: the exponent ", e,
               " is not a 32-bit integer; use powf for real powers");
    return {static_cast<int64_t>(e)};
}

void Dim::encode(OpCall& c) const {
    c.ints = {dim};
}
Dim Dim::decode(const OpCall& c) {
    check_decode<Dim>(c, 1, 1);
    return {c.ints[0]};
}

void ScatterReduce::encode(OpCall& c) const {
    c.ints = {dim, mode};
}
ScatterReduce ScatterReduce::decode(const OpCall& c) {
    check_decode<ScatterReduce>(c, 2, 2);
    BURN_CHECK(c.ints[1] >= assign && c.ints[1] <= max, "[", c.op, "] malformed attributes: scatter mode ",
               c.ints[1], " is not one of assign (0), mul (1), min (2), max (3)");
    return {c.ints[0], c.ints[1]};
}

void Fill::encode(OpCall& c) const {
    c.scalars[0] = value;
    c.dtype = dtype;
    c.shape = shape;
}
Fill Fill::decode(const OpCall& c) {
    check_decode<Fill>(c, 0, 0);
    return {c.scalars[0], c.dtype, c.shape};
}

void Arange::encode(OpCall& c) const {
    c.scalars[0] = start;
    c.scalars[1] = step;
    c.dtype = dtype;
    c.shape = Dims{n};
}
Arange Arange::decode(const OpCall& c) {
    check_decode<Arange>(c, 0, 0);
    BURN_CHECK(c.shape.rank() == 1, "[", c.op, "] malformed attributes: the output shape ", c.shape,
               " must be [n]");
    return {c.scalars[0], c.scalars[1], c.dtype, c.shape[0]};
}

void Random::encode(OpCall& c) const {
    c.ints = {distribution, static_cast<int64_t>(key), static_cast<int64_t>(offset)};
    c.scalars[0] = a;
    c.scalars[1] = b;
    c.dtype = dtype;
    c.shape = shape;
}
Random Random::decode(const OpCall& c) {
    check_decode<Random>(c, 3, 3);
    return {c.ints[0],
            static_cast<uint64_t>(c.ints[1]),
            static_cast<uint64_t>(c.ints[2]),
            c.scalars[0],
            c.scalars[1],
            c.dtype,
            c.shape};
}

void Cast::encode(OpCall& c) const {
    c.dtype = dtype;
}
Cast Cast::decode(const OpCall& c) {
    check_decode<Cast>(c, 0, 0);
    return {c.dtype};
}

void OutShape::encode(OpCall& c) const {
    c.shape = shape;
}
OutShape OutShape::decode(const OpCall& c) {
    check_decode<OutShape>(c, 0, 0);
    return {c.shape};
}

void Permute::encode(OpCall& c) const {
    c.ints = axes;
}
Permute Permute::decode(const OpCall& c) {
    check_decode<Permute>(c, 0, kMaxRank);
    return {c.ints};
}

int64_t Slice::Range::length() const {  // SliceRange::length: overflow-free for any step
    if (end <= start) return 0;
    const uint64_t span = static_cast<uint64_t>(end) - static_cast<uint64_t>(start);
    const uint64_t s = step < 0 ? 0 - static_cast<uint64_t>(step) : static_cast<uint64_t>(step);
    return static_cast<int64_t>((span - 1) / s + 1);
}

void Slice::encode(OpCall& c) const {
    c.ints.clear();
    c.ints.reserve(3 * ranges.size());
    for (const Range& r : ranges) c.ints.insert(c.ints.end(), {r.start, r.end, r.step});
}
Slice Slice::decode(const OpCall& c) {
    check_decode<Slice>(c, 0, 3 * kMaxRank);
    BURN_CHECK(c.ints.size() % 3 == 0, "[", c.op, "] malformed attributes: attrs::Slice needs {start, end, ",
               "step} per dim, the call has ", c.ints.size(), " ints");
    Slice s;
    for (std::size_t i = 0; i < c.ints.size(); i += 3)
        s.ranges.push_back({c.ints[i], c.ints[i + 1], c.ints[i + 2]});
    return s;
}

void SoftmaxBackward::encode(OpCall& c) const {
    c.ints = {dim, log ? 1 : 0};
}
SoftmaxBackward SoftmaxBackward::decode(const OpCall& c) {
    check_decode<SoftmaxBackward>(c, 2, 2);
    return {c.ints[0], c.ints[1] != 0};
}

void MaskedSoftmax::encode(OpCall& c) const {
    c.ints = {dim};
    c.scalars[0] = fill;
}
MaskedSoftmax MaskedSoftmax::decode(const OpCall& c) {
    check_decode<MaskedSoftmax>(c, 1, 1);
    return {c.ints[0], c.scalars[0]};
}

void Sort::encode(OpCall& c) const {
    c.ints = {dim, descending ? 1 : 0};
    if (k >= 0) c.ints.push_back(k);
}
Sort Sort::decode(const OpCall& c) {
    check_decode<Sort>(c, 2, 3);
    return {c.ints[0], c.ints[1] != 0, c.ints.size() > 2 ? c.ints[2] : -1};
}

namespace {
/// Conv's ints (and shape) into c; shared with ConvFused.
void put_conv(const Conv& v, OpCall& c) {
    BURN_CHECK(v.spatial >= 1 && v.spatial <= 3, "[", c.op, "] attrs::Conv has ", v.spatial,
               " spatial dims; 1 to 3 are supported");
    c.ints.clear();
    c.ints.reserve(static_cast<std::size_t>(4 * v.spatial + 2));
    for (const auto* a : {&v.stride, &v.pad_begin, &v.pad_end, &v.dilation})
        for (int i = 0; i < v.spatial; ++i) c.ints.push_back((*a)[static_cast<std::size_t>(i)]);
    c.ints.push_back(v.groups);
    c.shape = v.shape;
}
/// Conv from the first n ints of c (4 per spatial dim and groups).
Conv get_conv(const OpCall& c, std::size_t n) {
    BURN_CHECK(n >= 5 && n <= 13 && (n - 1) % 4 == 0, "[", c.op,
               "] malformed attributes: a convolution needs 4 ints ",
               "per spatial dim and groups, the call has ", n);
    Conv v;
    v.spatial = static_cast<int>((n - 1) / 4);
    std::size_t k = 0;
    for (auto* a : {&v.stride, &v.pad_begin, &v.pad_end, &v.dilation})
        for (int i = 0; i < v.spatial; ++i) (*a)[static_cast<std::size_t>(i)] = c.ints[k++];
    v.groups = c.ints[n - 1];
    v.shape = c.shape;
    return v;
}
}  // namespace

void ConvFused::encode(OpCall& c) const {
    put_conv(conv, c);
    c.ints.push_back(residual ? 1 : 0);
    c.scalars[0] = lo;
    c.scalars[1] = hi;
}
ConvFused ConvFused::decode(const OpCall& c) {
    check_decode<ConvFused>(c, 6, 14);
    ConvFused v;
    v.conv = get_conv(c, c.ints.size() - 1);
    v.residual = c.ints.back() != 0;
    v.lo = c.scalars[0];
    v.hi = c.scalars[1];
    return v;
}

void Conv::encode(OpCall& c) const {
    put_conv(*this, c);
}
Conv Conv::decode(const OpCall& c) {
    check_decode<Conv>(c, 5, 13);
    return get_conv(c, c.ints.size());
}

namespace {
void put_window(std::vector<int64_t>& ints, const PoolWindow& w) {
    ints = {w.kernel[0], w.kernel[1], w.stride[0],   w.stride[1],
            w.pad[0],    w.pad[1],    w.dilation[0], w.dilation[1]};
}
PoolWindow get_window(const std::vector<int64_t>& v) {
    return {{v[0], v[1]}, {v[2], v[3]}, {v[4], v[5]}, {v[6], v[7]}};
}
}  // namespace

void MaxPool2d::encode(OpCall& c) const {
    put_window(c.ints, window);
    c.shape = shape;
}
MaxPool2d MaxPool2d::decode(const OpCall& c) {
    check_decode<MaxPool2d>(c, 8, 8);
    return {get_window(c.ints), c.shape};
}

void MaxPool2dBackward::encode(OpCall& c) const {
    if (window)
        put_window(c.ints, *window);
    else
        c.ints.clear();
    c.shape = shape;
}
MaxPool2dBackward MaxPool2dBackward::decode(const OpCall& c) {
    check_decode<MaxPool2dBackward>(c, 0, 8);
    BURN_CHECK(c.ints.empty() || c.ints.size() == 8, "[", c.op, "] malformed attributes: the window needs ",
               "8 ints {kh, kw, sh, sw, ph, pw, dh, dw} or none, the call has ", c.ints.size());
    MaxPool2dBackward v;
    if (!c.ints.empty()) v.window = get_window(c.ints);
    v.shape = c.shape;
    return v;
}

void AvgPool2d::encode(OpCall& c) const {
    c.ints = {kernel[0],  kernel[1],    stride[0],
              stride[1],  pad_begin[0], pad_begin[1],
              pad_end[0], pad_end[1],   count_include_pad ? 1 : 0};
    c.shape = shape;
}
AvgPool2d AvgPool2d::decode(const OpCall& c) {
    check_decode<AvgPool2d>(c, 9, 9);
    const auto& v = c.ints;
    return {{v[0], v[1]}, {v[2], v[3]}, {v[4], v[5]}, {v[6], v[7]}, v[8] != 0, c.shape};
}

void Interpolate::encode(OpCall& c) const {
    c.ints = {mode, align_corners ? 1 : 0};
    c.shape = shape;
}
Interpolate Interpolate::decode(const OpCall& c) {
    check_decode<Interpolate>(c, 2, 2);
    return {c.ints[0], c.ints[1] != 0, c.shape};
}

void Attention::encode(OpCall& c) const {
    c.ints = {causal ? 1 : 0, has_mask ? 1 : 0};
    c.scalars[0] = scale;
}
Attention Attention::decode(const OpCall& c) {
    check_decode<Attention>(c, 2, 2);
    return {c.ints[0] != 0, c.ints[1] != 0, c.scalars[0]};
}

void LayerNorm::encode(OpCall& c) const {
    c.ints = {has_gamma ? 1 : 0, has_beta ? 1 : 0, rms ? 1 : 0};
    c.scalars[0] = eps;
}
LayerNorm LayerNorm::decode(const OpCall& c) {
    check_decode<LayerNorm>(c, 2, 3);  // rms was added later: two ints mean rms = 0
    return {c.ints[0] != 0, c.ints[1] != 0, c.ints.size() > 2 && c.ints[2] != 0, c.scalars[0]};
}

void LayerNormBackward::encode(OpCall& c) const {
    c.ints = {has_gamma ? 1 : 0, want_params ? 1 : 0, rms ? 1 : 0};
}
LayerNormBackward LayerNormBackward::decode(const OpCall& c) {
    check_decode<LayerNormBackward>(c, 2, 3);
    return {c.ints[0] != 0, c.ints[1] != 0, c.ints.size() > 2 && c.ints[2] != 0};
}

void CrossEntropy::encode(OpCall& c) const {
    c.scalars[0] = smoothing;
}
CrossEntropy CrossEntropy::decode(const OpCall& c) {
    check_decode<CrossEntropy>(c, 0, 0);
    return {c.scalars[0]};
}

void Dft::encode(OpCall& c) const {
    c.ints = {inverse ? 1 : 0};
}
Dft Dft::decode(const OpCall& c) {
    check_decode<Dft>(c, 1, 1);
    return {c.ints[0] != 0};
}

}  // namespace attrs

}  // namespace burn
