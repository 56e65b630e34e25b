#pragma once
// The op database (PyTorch's OpInfo): one OpEntry per op of the frontend, holding its sample inputs,
// dtypes, a naive float64 reference, tolerances and bad-input cases. Generic checks in
// op_sweep_test.cpp run over every entry x dtype x sample; coverage_test.cpp checks that every OpId
// has an entry. docs/testing.md explains how to add one.
#include <burn/burn.hpp>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "burn/backend/op.hpp"
#include "burn/tensor/ops.hpp"
#include "reference.hpp"

namespace burn::opdb {

/// Where sample values come from (the domain column of elementwise.def, plus index-like domains).
enum class Domain : uint8_t {
    real,       // floats in [-3, 3], signed ints in [-8, 8], u8 in [0, 15]
    positive,   // floats in [0.1, 3], ints in [1, 8]
    nonzero,    // |x| in [0.5, 3] (floats), [1, 8] (ints)
    unit,       // |x| < 0.9 (floats), ints in [-1, 1]
    small,      // floats in [-1, 1], ints in [-3, 3] (products stay small)
    ties,       // multiples of 0.5 in [-2, 2] (ints: [-2, 2]): equal values are common
    above_one,  // floats in [1.1, 4] (acosh's domain), ints in [1, 8]
};

/// What a sample exercises; the sweep runs each kind in its own test.
enum class Tag : uint8_t {
    basic,      // ordinary shapes like [2, 3] and [2, 3, 4]
    broadcast,  // operands of different shapes that broadcast, e.g. [2, 1, 4] x [1, 3, 4]
    empty,      // a zero-sized dimension, e.g. [0, 3]
    scalar,     // scalar-like [1] (or [1, 1] where the op needs rank 2)
    special,    // NaN, inf, -0, ties and other edge values
};
const char* tag_name(Tag t);

/// Attributes of one call besides its tensor inputs. dtype and device are set by the runner.
struct Args {
    DType dtype = DType::f32;   // the dtype under test (creation ops create this dtype)
    Device device;              // where creation ops create their output
    std::vector<int64_t> ints;  // dims, shapes, slice ranges, counts
    std::vector<double> reals;  // fill values, scalar operands, op parameters
};

struct Sample {
    std::string desc;  // for failure messages; filled from the inputs when left empty
    Tag tag = Tag::basic;
    std::vector<TensorData> inputs;  // host data, contiguous
    Args args;
};

struct Tol {
    double rtol = 0, atol = 0;  // |actual - expected| <= atol + rtol * |expected|; 0, 0 = exact
};

/// A call that must throw burn::Error whose what() contains one of expect's '|'-separated parts.
struct BadCase {
    std::string desc;
    std::function<void(const Device&)> run;
    std::string expect;  // e.g. "[add]" or "[scatter]|[scatter_add]"
};

using Forward = std::function<TensorAny(const std::vector<TensorAny>& inputs, const Args& args)>;
using Reference = std::function<TensorData(const std::vector<TensorData>& inputs, const Args& args)>;
using Samples = std::function<std::vector<Sample>(DType dtype)>;

struct OpEntry {
    std::string name;           // unique; the gtest parameter name
    std::vector<OpId> ops;      // the OpIds this entry exercises (coverage_test counts these)
    std::vector<DType> dtypes;  // the dtypes under test (the dtype of the first input, or the created one)
    Samples samples;
    Forward forward;  // calls the ops:: frontend
    /// Expected values from the host inputs, in float64 (or exactly, in the output dtype, for
    /// integer and bool outputs). Null for entries checked by `custom` only (random).
    Reference reference;
    /// The output dtype; null means the dtype under test.
    std::function<DType(const Args&)> out_dtype;
    /// Tolerance by output dtype; null means default_tol.
    std::function<Tol(DType)> tol;
    std::vector<BadCase> bad;
    /// Extra checks that do not fit forward/reference (statistics of random, piece counts of
    /// chunk/split); run by the Forward test for every dtype.
    std::function<void(DType, const Device&)> custom;
    /// Whether inputs may be presented as strided views (check 2). Off only for input-less ops.
    bool noncontiguous = true;
    /// Gradcheck hook (check 7, for the autodiff issue): whether the op is differentiable and which
    /// inputs (by position) take finite-difference perturbations in float64. Positions past a
    /// sample's inputs are skipped (variadic ops such as cat list {0, 1}).
    bool differentiable = false;
    std::vector<int> grad_inputs;
};

/// Every entry, built once. Names are unique.
const std::vector<OpEntry>& op_db();
const OpEntry* find_entry(const std::string& name);

/// Default tolerances: f64 1e-9, f32 1e-5, f16/bf16 loose, ints and bool exact.
Tol default_tol(DType out);
Tol entry_tol(const OpEntry& e, DType out);
DType entry_out_dtype(const OpEntry& e, const Args& a);

// ---- helpers for writing entries (op_db.cpp)

inline const std::vector<DType> kFloat = {DType::f32, DType::f64, DType::f16, DType::bf16};
inline const std::vector<DType> kInt = {DType::i32, DType::i64, DType::i8, DType::u8};
inline const std::vector<DType> kNumeric = {DType::f32, DType::f64, DType::f16, DType::bf16,
                                            DType::i32, DType::i64, DType::i8,  DType::u8};
inline const std::vector<DType> kAll = {DType::f32, DType::f64, DType::f16, DType::bf16,   DType::i32,
                                        DType::i64, DType::i8,  DType::u8,  DType::boolean};

/// Deterministic sample values of a domain in dtype's range (seeded by seed), as TensorData of dtype.
TensorData make_input(const Dims& shape, DType dtype, Domain domain, uint64_t seed);
/// TensorData of dtype from doubles (floats round, ints wrap like a cast from int64, bool is != 0).
TensorData data_of(const Dims& shape, const std::vector<double>& values, DType dtype);
/// The identity of a sample for messages: "f32 [2, 3], i32 [2]; ints {1}".
std::string describe(const Sample& s);
/// Whether what() matches one of the '|'-separated parts of expect.
bool message_matches(const std::string& what, const std::string& expect);
/// A BadCase running fn; fn gets the device to create its inputs on.
BadCase bad(std::string desc, std::string expect, std::function<void(const Device&)> fn);
/// A tensor on device from doubles.
TensorAny tensor(const Dims& shape, const std::vector<double>& values, DType dtype, const Device& device);
/// Dims from an attribute list.
inline Dims dims_of(const std::vector<int64_t>& v) {
    return Dims::from(v.data(), static_cast<int>(v.size()));
}
/// A sample with attributes; desc names what the attributes mean when that helps.
Sample sample(Tag tag, std::vector<TensorData> inputs, std::vector<int64_t> ints = {},
              std::vector<double> reals = {}, std::string desc = "");
/// An entry with its name, covered ops and dtypes; the rest is filled by the caller.
OpEntry entry(std::string name, std::vector<OpId> ops, std::vector<DType> dtypes);
/// The float64 (float dtypes) or exact (int and bool dtypes) dtype a reference reports values in.
inline DType value_dtype(DType dt) {
    return is_float(dt) ? DType::f64 : dt;
}
/// Zeros of shape s (f32) on d: an input whose values do not matter (bad-input cases).
inline TensorAny f32(const Dims& s, const Device& d) {
    return ops::full(s, 0, DType::f32, d);
}
/// A reference's value in the dtype references report for dt.
inline TensorData out(const ref::Host& h, DType dt) {
    return ref::to_data(h, value_dtype(dt));
}
/// t as one flat dim.
inline TensorAny flat(const TensorAny& t) {
    return ops::reshape(t, Dims{t.numel()});
}

/// Deterministic inputs for one entry and dtype: each call draws a fresh seed.
struct InputGen {
    std::string name;
    DType dtype;
    int k = 0;
    TensorData operator()(const Dims& shape, Domain domain = Domain::real) {
        return of(shape, dtype, domain);
    }
    TensorData of(const Dims& shape, DType dt, Domain domain = Domain::real);
    /// Random bools.
    TensorData mask(const Dims& shape) { return of(shape, DType::boolean); }
    /// Random indices in [0, n) of an integer dtype.
    TensorData index(const Dims& shape, int64_t n, DType dt = DType::i32);
};

// Entry groups, one per file.
void add_elementwise_entries(std::vector<OpEntry>& db);  // op_db_elementwise.cpp
void add_layout_entries(std::vector<OpEntry>& db);       // op_db_layout.cpp: creation, cast, views
void add_slice_entries(std::vector<OpEntry>& db);        // op_db_slice.cpp: slice, cat, chunk, ...
void add_index_entries(std::vector<OpEntry>& db);        // op_db_index.cpp: gather, scatter, masks, ...
void add_reduce_entries(std::vector<OpEntry>& db);       // op_db_reduce.cpp: reductions, sort
void add_contract_entries(std::vector<OpEntry>& db);     // op_db_contract.cpp: matmul, matmul_widen
void add_conv_entries(std::vector<OpEntry>& db);   // op_db_conv.cpp, op_db_pool.cpp: conv, pools, interpolate
void add_optim_entries(std::vector<OpEntry>& db);  // op_db_optim.cpp: fused optimizer updates
void add_norm_entries(std::vector<OpEntry>& db);   // op_db_norm.cpp: layer_norm, cross_entropy
void add_attention_entries(std::vector<OpEntry>& db);   // op_db_attention.cpp: attention
void add_api_reduce_entries(std::vector<OpEntry>& db);  // op_db_api_reduce.cpp: sum_dims, is_close, ...
void add_api_shape_entries(std::vector<OpEntry>& db);   // op_db_api_shape.cpp: squeeze_dims, masks, grids
void add_api_linalg_entries(std::vector<OpEntry>& db);  // op_db_api_linalg.cpp: dot, trace, vector_norm
void add_api_stats_entries(std::vector<OpEntry>& db);   // op_db_api_stats.cpp: cummax, median, cov
void add_api_window_entries(std::vector<OpEntry>& db);  // op_db_api_window.cpp: pad, unfold
void add_api_select_entries(std::vector<OpEntry>& db);  // op_db_api_select.cpp: argwhere, nonzero
void add_api_solve_entries(std::vector<OpEntry>& db);   // op_db_api_solve.cpp: det, inv, solve, qr, ...
void add_api_signal_entries(std::vector<OpEntry>& db);  // op_db_api_signal.cpp: windows, multinomial
void add_api_take_entries(std::vector<OpEntry>& db);    // op_db_api_take.cpp: take, repeat
void add_api_grid_entries(std::vector<OpEntry>& db);    // op_db_api_grid.cpp: grid_sample_2d, affine_grid_2d
void add_api_fft_entries(std::vector<OpEntry>& db);     // op_db_api_fft.cpp: rfft, irfft, cfft, stft
void add_api_update_entries(std::vector<OpEntry>& db);  // op_db_api_scatter.cpp: IndexingUpdateOp modes
void add_api_parity_entries(std::vector<OpEntry>& db);  // op_db_api_parity.cpp: iter_dim, shrink, ...
void add_api_module_fn_entries(std::vector<OpEntry>& db);  // op_db_api_module_fn.cpp: embedding, batch_norm

}  // namespace burn::opdb
