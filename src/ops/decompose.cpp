// The primitive set and the table of decompositions of every other row (decompose.hpp).
#include "ops/decompose.hpp"

#include <algorithm>
#include <iterator>

#include "burn/core/error.hpp"

namespace burn::ops {

namespace {

/// What a backend must implement: the rows no decomposition replaces. docs/backends.md explains each.
constexpr OpId kPrimitives[] = {
    // elementwise: arithmetic, the transcendental functions the others are built from, comparison, select
    OpId::add, OpId::sub, OpId::mul, OpId::div, OpId::remainder, OpId::powf, OpId::atan2, OpId::exp,
    OpId::log, OpId::sqrt, OpId::erf, OpId::sin, OpId::floor, OpId::equal, OpId::greater, OpId::where,
    // bit operations of ints (or, xor and not derive from and, add and sub)
    OpId::bitwise_and, OpId::bitwise_left_shift, OpId::bitwise_right_shift,
    // creation and layout
    OpId::fill, OpId::arange, OpId::random, OpId::cast, OpId::copy,
    // views
    OpId::reshape, OpId::permute, OpId::expand, OpId::slice,
    // indexing
    OpId::slice_assign, OpId::cat, OpId::gather, OpId::scatter_add, OpId::scatter_reduce,
    // reductions, scan, sort, contraction
    OpId::sum_dim, OpId::prod_dim, OpId::max_dim, OpId::cumsum, OpId::sort, OpId::matmul};

const detail::DecompositionTable& table() {
    static const detail::DecompositionTable t = [] {
        detail::DecompositionTable d;
        detail::add_elementwise_decompositions(d);
        detail::add_activation_decompositions(d);
        detail::add_reduce_decompositions(d);
        detail::add_norm_decompositions(d);
        detail::add_pool_decompositions(d);
        detail::add_conv_decompositions(d);
        detail::add_scan_decompositions(d);
        detail::add_linear_decompositions(d);
        detail::add_fft_decompositions(d);
        return d;
    }();
    return t;
}

}  // namespace

Decomposition decomposition(OpId op) {
    const int i = static_cast<int>(op);
    BURN_CHECK(i >= 0 && i < kNumOps, "invalid op id ", i);
    return table().fn[i];
}

bool is_primitive(OpId op) {
    return std::find(std::begin(kPrimitives), std::end(kPrimitives), op) != std::end(kPrimitives);
}

std::vector<OpId> primitive_ops() {
    std::vector<OpId> out;
    for (int i = 0; i < kNumOps; ++i)
        if (is_primitive(static_cast<OpId>(i))) out.push_back(static_cast<OpId>(i));
    return out;
}

}  // namespace burn::ops
