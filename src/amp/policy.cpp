// The autocast policy table (burn/amp/policy.hpp): one place for every row of ops.def and
// elementwise.def. A row takes its family's default unless kLow / kFloat32 / kPassthrough names it, so
// a new row gets a policy from its family column, and a new compute-bound row is one name in kLow.
// The lists mirror torch.autocast's (CUDA) op lists: matmul/conv/attention in the low dtype; exp, log,
// pow, softmax, norms, reductions and losses in float32; everything else as called.
#include "burn/amp/policy.hpp"

#include <array>
#include <string_view>

#include "burn/core/error.hpp"

namespace burn::autocast {

namespace {

using namespace std::string_view_literals;

// Compute-bound rows: their float32 inputs run in bf16/f16 (the adjoints too, so backward matches).
// attention_backward is the attention row's adjoint (when the build has it).
constexpr std::array kLow = {"matmul"sv,     "conv"sv,      "conv_backward_input"sv, "conv_backward_weight"sv,
                             "conv_fused"sv, "attention"sv, "attention_backward"sv};
// Elementwise rows whose range or precision needs float32 (torch's fp32 list: exp, log, pow, ...), and
// dft (torch runs its FFTs in float32; the row takes float32 or float64 only).
constexpr std::array kFloat32 = {"exp"sv,   "log"sv,         "log1p"sv,    "log2"sv, "expm1"sv, "recip"sv,
                                 "rsqrt"sv, "tan"sv,         "sinh"sv,     "cosh"sv, "asin"sv,  "acos"sv,
                                 "powf"sv,  "powi_scalar"sv, "softplus"sv, "erf"sv,  "dft"sv};
// Rows of float32 families that are exact in any dtype (a max, an index, a pool's selection).
constexpr std::array kPassthrough = {"max_dim"sv, "min_dim"sv, "argmax"sv,     "argmin"sv,
                                     "any_dim"sv, "all_dim"sv, "max_pool2d"sv, "max_pool2d_backward"sv};

// Inputs of low rows that stay float32: statistics (the row's infer asks for the statistics dtype),
// attention_backward's lse, input 5 of {g, q, k, v, out, lse, (mask)}; and linear's bias (input 2 of
// {x, w, bias}), added in float32 to the float32 product (cuBLASLt's epilogue wants it in the output's
// dtype).
struct KeptInput {
    std::string_view row;
    std::size_t input;
};
constexpr std::array kKeepFloat32 = {KeptInput{"attention_backward"sv, 5}, KeptInput{"linear"sv, 2}};

constexpr Policy family_default(std::string_view family) {
    if (family == "contract") return Policy::low;
    // Reductions, scans (sums of many terms), norms, softmax, losses, pools, interpolation.
    if (family == "reduce" || family == "scan" || family == "nn") return Policy::float32;
    // elementwise (promote: inputs of one dtype), creation, view, layout, index, sort, optim.
    return Policy::passthrough;
}

template <std::size_t N>
constexpr bool listed(const std::array<std::string_view, N>& list, std::string_view name) {
    for (std::string_view s : list)
        if (s == name) return true;
    return false;
}

std::array<Policy, kNumOps> build_table() {
    std::array<Policy, kNumOps> t{};
    for (int i = 0; i < kNumOps; ++i) {
        const OpInfo& info = op_info(static_cast<OpId>(i));
        Policy p = family_default(info.family);
        if (listed(kLow, info.name)) p = Policy::low;
        if (listed(kFloat32, info.name)) p = Policy::float32;
        if (listed(kPassthrough, info.name)) p = Policy::passthrough;
        t[static_cast<std::size_t>(i)] = p;
    }
    return t;
}

}  // namespace

const char* policy_name(Policy p) {
    switch (p) {
        case Policy::low:
            return "low";
        case Policy::float32:
            return "float32";
        case Policy::passthrough:
            return "passthrough";
    }
    return "?";
}

Policy policy(OpId op) {
    static const std::array<Policy, kNumOps> table = build_table();
    (void)op_info(op);  // throws on an invalid id
    return table[static_cast<std::size_t>(op)];
}

bool keeps_float32(OpId op, std::size_t input) {
    const std::string_view name = op_info(op).name;
    for (const KeptInput& k : kKeepFloat32)
        if (k.row == name && k.input == input) return true;
    return false;
}

DType compute_dtype(Policy policy, DType input, DType low) {
    if (policy == Policy::low && input == DType::f32) return low;
    if (policy == Policy::float32 && (input == DType::f16 || input == DType::bf16)) return DType::f32;
    return input;
}

}  // namespace burn::autocast
