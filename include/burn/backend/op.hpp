#pragma once
/// Op identities and calls: the value every backend receives through Backend::execute.
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string_view>
#include <vector>

#include "burn/core/dtype.hpp"
#include "burn/core/shape.hpp"

namespace burn {

enum class OpId : uint16_t {
#define BURN_UNARY(name, kinds, body, vjp, domain) name,
#define BURN_UNARY_PRED(name, kinds, body, domain) name,
#define BURN_BINARY(name, kinds, body, vjp_a, vjp_b, domain) name,
#define BURN_COMPARE(name, kinds, body, domain) name,
#define BURN_TERNARY(name, kinds, body, domain) name,
#include "burn/backend/elementwise.def"
#define BURN_OP(name, family, outputs, attrs) name,
#include "burn/backend/ops.def"
    count_
};
inline constexpr int kNumOps = static_cast<int>(OpId::count_);

enum class OpClass : uint8_t { unary, unary_pred, binary, compare, ternary, structural };

/// Which dtypes an elementwise op accepts.
enum class OpKinds : uint8_t { float_only, numeric, all, bool_only, any, int_only };

struct OpInfo {
    std::string_view name;
    OpClass cls;
    OpKinds kinds;
    std::string_view family;  // "elementwise" for table rows, the family column otherwise
    int outputs;
};

const OpInfo& op_info(OpId id);
inline std::string_view op_name(OpId id) {
    return op_info(id).name;
}
std::ostream& operator<<(std::ostream& os, OpId id);
detail::Text& operator<<(detail::Text& os, OpId id);

/// What an op's output (or input) is, without its data: what `infer` computes.
struct TensorMeta {
    DType dtype = DType::f32;
    Dims shape;

    friend bool operator==(const TensorMeta& a, const TensorMeta& b) {
        return a.dtype == b.dtype && a.shape == b.shape;
    }
    friend bool operator!=(const TensorMeta& a, const TensorMeta& b) { return !(a == b); }
};
std::ostream& operator<<(std::ostream& os, const TensorMeta& m);
detail::Text& operator<<(detail::Text& os, const TensorMeta& m);

/// One op invocation: what to compute, not on what. Hashable, so a lazy decorator can cache plans.
/// The attributes are stored untyped (ints, scalars and, for rows whose output shape or dtype is an
/// attribute, dtype/shape); read and write them through the row's typed struct of
/// burn/backend/op_attrs.hpp: `call.attrs<attrs::Conv>()`, `make_call(OpId::conv, attrs::Conv{...})`.
struct OpCall {
    OpId op{};
    DType dtype = DType::f32;              // output 0's dtype (what every kernel allocates)
    Dims shape;                            // output 0's shape, inferred by the frontend (burn::infer)
    std::vector<int64_t> ints;             // integer attributes, encoded by the row's attribute struct
    double scalars[2] = {0, 0};            // scalar attributes, encoded by the row's attribute struct
    std::vector<TensorMeta> extra_outs{};  // outputs 1.. of a multi-output row, inferred by the frontend

    /// Output i's meta: {dtype, shape} for 0, extra_outs[i - 1] after.
    TensorMeta output(std::size_t i) const;
    /// Every output's meta (1 + extra_outs.size() of them).
    std::vector<TensorMeta> outputs() const;
    /// The typed attributes (burn/backend/op_attrs.hpp); throws naming the op when A is not its row's.
    template <class A>
    A attrs() const {
        return A::decode(*this);
    }

    friend bool operator==(const OpCall& a, const OpCall& b);
};

std::size_t hash_value(const OpCall& call);

}  // namespace burn
