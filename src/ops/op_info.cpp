#include <cstdint>
#include <cstring>
#include <functional>
#include <ostream>

#include "burn/backend/op.hpp"
#include "burn/core/error.hpp"
#include "ops/op_kinds.hpp"

namespace burn {

namespace {

constexpr OpInfo kOpInfo[] = {
#define BURN_UNARY(name, kinds, body, vjp, domain) \
    {#name, OpClass::unary, kinds_of(BURN_KIND_##kinds), "elementwise", 1},
#define BURN_UNARY_PRED(name, kinds, body, domain) \
    {#name, OpClass::unary_pred, kinds_of(BURN_KIND_##kinds), "elementwise", 1},
#define BURN_BINARY(name, kinds, body, vjp_a, vjp_b, domain) \
    {#name, OpClass::binary, kinds_of(BURN_KIND_##kinds), "elementwise", 1},
#define BURN_COMPARE(name, kinds, body, domain) \
    {#name, OpClass::compare, kinds_of(BURN_KIND_##kinds), "elementwise", 1},
#define BURN_TERNARY(name, kinds, body, domain) \
    {#name, OpClass::ternary, kinds_of(BURN_KIND_##kinds), "elementwise", 1},
#include "burn/backend/elementwise.def"
#define BURN_OP(name, family, outputs, attrs) {#name, OpClass::structural, OpKinds::any, #family, outputs},
#include "burn/backend/ops.def"
};
static_assert(sizeof(kOpInfo) / sizeof(kOpInfo[0]) == kNumOps, "op info table out of step with OpId");
static_assert(
    [] {
        for (int i = 0; i < kNumOps; ++i)
            if ((kOpInfo[i].cls == OpClass::structural) != (i >= kNumElementwiseOps)) return false;
        return true;
    }(),
    "the elementwise rows must come first (kNumElementwiseOps)");

[[noreturn, gnu::noinline, gnu::cold]] void throw_invalid_op(int i) {
    BURN_THROW("invalid op id ", i);
}
}  // namespace

const OpInfo& op_info(OpId id) {
    // Read several times per op: the error is built out of line, so this is a bounds check and a load.
    auto i = static_cast<int>(id);
    if (i < 0 || i >= kNumOps) [[unlikely]]
        throw_invalid_op(i);
    return kOpInfo[i];
}

std::ostream& operator<<(std::ostream& os, OpId id) {
    return os << op_name(id);
}

detail::Text& operator<<(detail::Text& os, OpId id) {
    return os << op_name(id);
}

namespace {
/// Scalars of two calls are the same when their bits are: a fill of NaN equals itself (== on doubles
/// would say no, and no NaN call would match its own record), and a fill of -0.0 is not one of 0.0.
bool same_bits(double a, double b) {
    uint64_t x = 0, y = 0;
    std::memcpy(&x, &a, sizeof x);
    std::memcpy(&y, &b, sizeof y);
    return x == y;
}
}  // namespace

bool operator==(const OpCall& a, const OpCall& b) {
    return a.op == b.op && a.dtype == b.dtype && a.shape == b.shape && a.ints == b.ints &&
           same_bits(a.scalars[0], b.scalars[0]) && same_bits(a.scalars[1], b.scalars[1]) &&
           a.extra_outs == b.extra_outs;
}

std::ostream& operator<<(std::ostream& os, const TensorMeta& m) {
    return os << m.dtype << ' ' << m.shape;
}

detail::Text& operator<<(detail::Text& os, const TensorMeta& m) {
    return os << m.dtype << ' ' << m.shape;
}

TensorMeta OpCall::output(std::size_t i) const {
    if (i == 0) return {dtype, shape};
    BURN_CHECK(i <= extra_outs.size(), "[", op, "] has no output ", i, " (the call records ",
               1 + extra_outs.size(), ")");
    return extra_outs[i - 1];
}

std::vector<TensorMeta> OpCall::outputs() const {
    std::vector<TensorMeta> out{{dtype, shape}};
    out.insert(out.end(), extra_outs.begin(), extra_outs.end());
    return out;
}

std::size_t hash_value(const OpCall& call) {
    std::size_t h = std::hash<int>{}(static_cast<int>(call.op));
    auto mix = [&h](std::size_t v) { h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2); };
    mix(static_cast<std::size_t>(call.dtype));
    for (int64_t d : call.shape) mix(std::hash<int64_t>{}(d));
    for (int64_t v : call.ints) mix(std::hash<int64_t>{}(v));
    mix(std::hash<double>{}(call.scalars[0]));
    mix(std::hash<double>{}(call.scalars[1]));
    for (const TensorMeta& m : call.extra_outs) {
        mix(static_cast<std::size_t>(m.dtype));
        for (int64_t d : m.shape) mix(std::hash<int64_t>{}(d));
    }
    return h;
}

}  // namespace burn
