// Op-database entries of the contraction rows: matmul (batch dims broadcast), matmul_widen (the
// product written in a wider dtype: autocast's matmul of float32 tensors) and linear (x w^T + bias,
// nn::Linear's row, in the operands' dtype or widened).
#include "op_db.hpp"
#include "reference.hpp"

namespace burn::opdb {
namespace {

using V = const std::vector<TensorAny>&;
using In = const std::vector<TensorData>&;
using A = const Args&;

/// The float64 product of x [..., m, k] and y [..., k, n], batch dims broadcast.
ref::Host product(const TensorData& a, const TensorData& b) {
    ref::Host x = ref::host(a), y = ref::host(b);
    const int r = x.rank();
    const int64_t m = x.shape[r - 2], k = x.shape[r - 1], n = y.shape[r - 1];
    Dims s = ref::broadcast(x.shape, y.shape);
    s[r - 2] = m;
    s[r - 1] = n;
    ref::Host o = ref::filled(s, 0.0);
    for (int64_t i = 0; i < o.numel(); ++i) {
        auto idx = ref::unravel(i, s);
        auto xi = idx, yi = idx;
        double acc = 0;
        for (int64_t t = 0; t < k; ++t) {
            xi[static_cast<std::size_t>(r - 1)] = t;
            yi[static_cast<std::size_t>(r - 2)] = t;
            acc += ref::at_broadcast(x, xi) * ref::at_broadcast(y, yi);
        }
        o.v[static_cast<std::size_t>(i)] = acc;
    }
    return o;
}

void add_matmul(std::vector<OpEntry>& db) {
    OpEntry e = entry("matmul", {OpId::matmul}, kNumeric);
    e.samples = [](DType dt) {
        InputGen g{"matmul", dt};
        auto mm = [&](Tag t, Dims a, Dims b) {
            return sample(t, {g(a, Domain::small), g(b, Domain::small)});
        };
        return std::vector<Sample>{mm(Tag::basic, {2, 3}, {3, 4}),
                                   mm(Tag::basic, {2, 2, 3}, {2, 3, 4}),
                                   mm(Tag::basic, {5, 4}, {4, 5}),
                                   mm(Tag::broadcast, {2, 1, 2, 3}, {1, 3, 3, 2}),
                                   mm(Tag::broadcast, {3, 2, 3}, {1, 3, 2}),
                                   mm(Tag::scalar, {1, 1}, {1, 1}),
                                   mm(Tag::empty, {0, 3}, {3, 2}),
                                   mm(Tag::empty, {2, 0}, {0, 3}),
                                   mm(Tag::empty, {2, 3}, {3, 0})};
    };
    e.forward = [](V in, A) { return ops::matmul(in[0], in[1]); };
    e.reference = [](In in, A a) { return ref::to_data(product(in[0], in[1]), value_dtype(a.dtype)); };
    auto mm = [](Dims a, Dims b, DType ta = DType::f32, DType tb = DType::f32) {
        return [=](const Device& d) { ops::matmul(ops::full(a, 1, ta, d), ops::full(b, 1, tb, d)); };
    };
    e.bad.push_back(bad("inner dims 3 and 4", "[matmul]", mm({2, 3}, {4, 2})));
    e.bad.push_back(bad("rank 1", "[matmul]", mm({3}, {3})));
    e.bad.push_back(bad("dtypes differ", "[matmul]", mm({2, 3}, {3, 2}, DType::f32, DType::f64)));
    e.bad.push_back(bad("bool operands", "[matmul]", mm({2, 3}, {3, 2}, DType::boolean, DType::boolean)));
    e.bad.push_back(bad("batch dims 2 and 3", "[matmul]", mm({2, 2, 3}, {3, 3, 2})));
    e.bad.push_back(bad("undefined tensor", "[matmul]", [](const Device& d) {
        ops::matmul(TensorAny(), f32({2, 2}, d));
    }));
    e.differentiable = true;
    e.grad_inputs = {0, 1};
    db.push_back(std::move(e));
}

/// matmul_widen into f32 (f64 operands: into f64, a plain matmul). Backends without the kernel round the
/// product through the operands' dtype first (matmul, then cast), so f16/bf16 operands are held to their
/// own dtype's tolerance; CUDA's kernel is within float32's of the reference.
void add_matmul_widen(std::vector<OpEntry>& db) {
    OpEntry e = entry("matmul_widen", {OpId::matmul_widen}, kFloat);
    auto out = [](DType dt) { return dt == DType::f64 ? DType::f64 : DType::f32; };
    e.samples = [](DType dt) {
        InputGen g{"matmul_widen", dt};
        auto mm = [&](Tag t, Dims a, Dims b) {
            return sample(t, {g(a, Domain::small), g(b, Domain::small)});
        };
        return std::vector<Sample>{mm(Tag::basic, {2, 3}, {3, 4}),    mm(Tag::basic, {2, 2, 3}, {2, 3, 4}),
                                   mm(Tag::basic, {17, 33}, {33, 9}), mm(Tag::scalar, {1, 1}, {1, 1}),
                                   mm(Tag::empty, {0, 3}, {3, 2}),    mm(Tag::empty, {2, 0}, {0, 3})};
    };
    e.out_dtype = [out](A a) { return out(a.dtype); };
    e.tol = [](DType o) { return default_tol(o == DType::f64 ? DType::f64 : DType::bf16); };
    e.forward = [out](V in, A a) { return ops::matmul_widen(in[0], in[1], out(a.dtype)); };
    e.reference = [out](In in, A a) {
        return ref::to_data(product(in[0], in[1]), value_dtype(out(a.dtype)));
    };
    auto mw = [](Dims a, Dims b, DType ta, DType out) {
        return
            [=](const Device& d) { ops::matmul_widen(ops::full(a, 1, ta, d), ops::full(b, 1, ta, d), out); };
    };
    e.bad.push_back(bad("inner dims 3 and 4", "[matmul]", mw({2, 3}, {4, 2}, DType::bf16, DType::f32)));
    e.bad.push_back(bad("batch dims 2 and 1", "[matmul]", mw({2, 2, 3}, {1, 3, 2}, DType::bf16, DType::f32)));
    e.bad.push_back(bad("int operands", "[matmul_widen]", mw({2, 3}, {3, 2}, DType::i32, DType::f32)));
    e.bad.push_back(bad("int output", "[matmul_widen]", mw({2, 3}, {3, 2}, DType::bf16, DType::i32)));
    e.differentiable = true;
    e.grad_inputs = {0, 1};
    db.push_back(std::move(e));
}

/// The float64 x [m, k] w^T for w [n, k], plus bias [n] when there is a third input.
ref::Host linear_ref(In in) {
    ref::Host x = ref::host(in[0]), w = ref::host(in[1]);
    const int64_t m = x.shape[0], k = x.shape[1], n = w.shape[0];
    ref::Host o = ref::filled(Dims{m, n}, 0.0);
    const ref::Host b = in.size() > 2 ? ref::host(in[2]) : ref::filled(Dims{n}, 0.0);
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
            double acc = 0;
            for (int64_t t = 0; t < k; ++t)
                acc += x.v[static_cast<std::size_t>(i * k + t)] * w.v[static_cast<std::size_t>(j * k + t)];
            o.v[static_cast<std::size_t>(i * n + j)] = acc + b.v[static_cast<std::size_t>(j)];
        }
    return o;
}

std::vector<Sample> linear_samples(const char* name, DType dt) {
    InputGen g{name, dt};
    auto lin = [&](Tag t, Dims x, Dims w, bool bias) {
        std::vector<TensorData> in{g(x, Domain::small), g(w, Domain::small)};
        if (bias) in.push_back(g(Dims{w[0]}, Domain::small));
        return sample(t, std::move(in));
    };
    return {lin(Tag::basic, {2, 3}, {4, 3}, true),  lin(Tag::basic, {17, 33}, {9, 33}, true),
            lin(Tag::basic, {5, 7}, {3, 7}, false), lin(Tag::scalar, {1, 1}, {1, 1}, true),
            lin(Tag::empty, {0, 3}, {2, 3}, true),  lin(Tag::empty, {2, 0}, {3, 0}, true),
            lin(Tag::empty, {2, 0}, {3, 0}, false)};
}

/// linear in the operands' dtype (the bias in it too): what nn::Linear runs without autocast.
void add_linear(std::vector<OpEntry>& db) {
    OpEntry e = entry("linear", {OpId::linear}, kFloat);
    e.samples = [](DType dt) { return linear_samples("linear", dt); };
    e.forward = [](V in, A) {
        return ops::linear(in[0], in[1], in.size() > 2 ? std::optional<TensorAny>(in[2]) : std::nullopt);
    };
    e.reference = [](In in, A a) { return ref::to_data(linear_ref(in), value_dtype(a.dtype)); };
    auto lin = [](Dims x, Dims w, std::optional<Dims> b, DType tx, DType tb) {
        return [=](const Device& d) {
            std::optional<TensorAny> bias;
            if (b) bias = ops::full(*b, 1, tb, d);
            ops::linear(ops::full(x, 1, tx, d), ops::full(w, 1, tx, d), bias);
        };
    };
    e.bad.push_back(bad("in 3 against the weight's 4", "[linear]",
                        lin({2, 3}, {5, 4}, std::nullopt, DType::f32, DType::f32)));
    e.bad.push_back(
        bad("a rank-3 input", "[linear]", lin({2, 2, 3}, {5, 3}, std::nullopt, DType::f32, DType::f32)));
    e.bad.push_back(
        bad("a bias of 4 for out 5", "[linear]", lin({2, 3}, {5, 3}, Dims{4}, DType::f32, DType::f32)));
    e.bad.push_back(
        bad("an f64 bias for f32", "[linear]", lin({2, 3}, {5, 3}, Dims{5}, DType::f32, DType::f64)));
    e.bad.push_back(
        bad("int operands", "[linear]", lin({2, 3}, {5, 3}, std::nullopt, DType::i32, DType::i32)));
    e.differentiable = true;
    e.grad_inputs = {0, 1, 2};
    db.push_back(std::move(e));
}

/// linear widened: f16/bf16 (and f32) operands into f32 with an f32 bias, f64 into f64: autocast's
/// nn::Linear. As for matmul_widen, backends without the kernel round the product through the operands'
/// dtype first, so f16/bf16 operands are held to their own dtype's tolerance.
void add_linear_widen(std::vector<OpEntry>& db) {
    OpEntry e = entry("linear_widen", {OpId::linear}, kFloat);
    auto out = [](DType dt) { return dt == DType::f64 ? DType::f64 : DType::f32; };
    e.samples = [](DType dt) { return linear_samples("linear_widen", dt); };
    e.out_dtype = [out](A a) { return out(a.dtype); };
    e.tol = [](DType o) { return default_tol(o == DType::f64 ? DType::f64 : DType::bf16); };
    e.forward = [out](V in, A a) {
        std::optional<TensorAny> bias;
        if (in.size() > 2) bias = ops::cast(in[2], out(a.dtype));  // exact: the bias in the output's dtype
        return ops::linear(in[0], in[1], bias, out(a.dtype));
    };
    e.reference = [out](In in, A a) { return ref::to_data(linear_ref(in), value_dtype(out(a.dtype))); };
    e.bad.push_back(bad("int output", "[linear]", [](const Device& d) {
        ops::linear(ops::full({2, 3}, 1, DType::bf16, d), ops::full({4, 3}, 1, DType::bf16, d), std::nullopt,
                    DType::i32);
    }));
    e.bad.push_back(bad("a bf16 bias for f32 output", "[linear]", [](const Device& d) {
        ops::linear(ops::full({2, 3}, 1, DType::bf16, d), ops::full({4, 3}, 1, DType::bf16, d),
                    ops::full({4}, 1, DType::bf16, d), DType::f32);
    }));
    e.differentiable = true;
    e.grad_inputs = {0, 1, 2};
    db.push_back(std::move(e));
}

}  // namespace

void add_contract_entries(std::vector<OpEntry>& db) {
    add_matmul(db);
    add_matmul_widen(db);
    add_linear(db);
    add_linear_widen(db);
}

}  // namespace burn::opdb
