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
#define BURN_OP(name, family, outputs) name,
#include "burn/backend/ops.def"
    count_
};
inline constexpr int kNumOps = static_cast<int>(OpId::count_);

enum class OpClass : uint8_t { unary, unary_pred, binary, compare, ternary, structural };

/// Which dtypes an elementwise op accepts.
enum class OpKinds : uint8_t { float_only, numeric, all, bool_only, any };

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

/// One op invocation: what to compute, not on what. Hashable, so a lazy decorator can cache plans.
struct OpCall {
    OpId op{};
    DType dtype = DType::f32;    // output dtype (first output)
    Dims shape;                  // output shape (first output), inferred by the frontend
    std::vector<int64_t> ints;   // integer attributes (dims, slice ranges, ...), see ops.def
    double scalars[2] = {0, 0};  // scalar attributes (fill value, clamp bounds, ...)

    friend bool operator==(const OpCall& a, const OpCall& b);
};

std::size_t hash_value(const OpCall& call);

}  // namespace burn
