// Op-database entries of the contraction rows: matmul (batch dims broadcast) and matmul_widen (the
// product written in a wider dtype: autocast's matmul of float32 tensors).
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

}  // namespace

void add_contract_entries(std::vector<OpEntry>& db) {
    add_matmul(db);
    add_matmul_widen(db);
}

}  // namespace burn::opdb
