// Op-database entries generated from elementwise.def. An elementwise reference is the kernels' own
// functor (burn::fn::<name>_fn) instantiated with double for float dtypes, int64 for int dtypes
// (then wrapped to the dtype, which matches modular integer arithmetic) and bool for bool: the
// kernels' storage, striding, broadcasting, dispatch and f16/bf16 rounding are under test; the
// scalar math itself is shared (cross-check new rows against PyTorch once by hand).
#include <array>
#include <cmath>

#include "backends/common/functors.hpp"
#include "op_db.hpp"
#include "reference.hpp"

namespace burn::opdb {

namespace {

#define BURN_KIND_F 'F'
#define BURN_KIND_N 'N'
#define BURN_KIND_A 'A'
#define BURN_KIND_B 'B'
#define BURN_KIND_I 'I'

std::vector<DType> dtypes_of(char kinds) {
    switch (kinds) {
        case 'F':
            return kFloat;
        case 'N':
            return kNumeric;
        case 'A':
            return kAll;
        case 'I':
            return kInt;
        default:
            return {DType::boolean};
    }
}

/// A wrong dtype for kinds (none for A: every dtype is accepted).
bool wrong_dtype(char kinds, DType& out) {
    switch (kinds) {
        case 'F':
            out = DType::i32;
            return true;
        case 'N':
            out = DType::boolean;
            return true;
        case 'B':
        case 'I':
            out = DType::f32;
            return true;
        default:
            return false;
    }
}

/// Parameter sets {p0, p1} of the unary ops that read them; the first is used for every shape.
std::vector<std::array<double, 2>> params_of(OpId id) {
    switch (id) {
        case OpId::leaky_relu:
            return {{0.01, 0}, {0.2, 0}};
        case OpId::softplus:
            return {{1, 20}, {2, 4}};
        case OpId::clamp:
            return {{-1, 1}, {0, 2}};
        case OpId::powi_scalar:
            return {{2, 0}, {3, 0}, {0, 0}, {-1, 0}};
        default:
            return {{0, 0}};
    }
}

/// The scalar operand of the _scalar / _elem variants (exact in every dtype).
double scalar_operand(DType dt, bool compare) {
    if (is_bool(dt)) return 1;
    if (!is_float(dt)) return compare ? 1 : 2;
    return compare ? 0.5 : 1.5;
}

const std::vector<double> kSpecialA = {NAN, 1, INFINITY, -INFINITY, 0, -0.0, 2, NAN, 0.5, -1};
const std::vector<double> kSpecialB = {1, NAN, INFINITY, 1, -0.0, 0, -INFINITY, NAN, -2, 3};

// ---- references: the functor on host values

template <class Fn, char K>
double apply_unary(double x, DType dt, double p0, double p1) {
    Fn fn;
    if (is_float(dt)) return static_cast<double>(fn(x, p0, p1));
    if constexpr (K == 'N' || K == 'A' || K == 'I')
        if (is_int(dt)) return static_cast<double>(fn(static_cast<int64_t>(x), p0, p1));
    if constexpr (K == 'B' || K == 'A') return static_cast<double>(fn(x != 0, p0, p1));
    return NAN;
}

template <class Fn, char K>
double apply_pred(double x, DType dt) {
    Fn fn;
    if constexpr (K != 'B') {
        if (is_float(dt)) return fn(x);
        if (is_int(dt)) return fn(static_cast<int64_t>(x));
    }
    if constexpr (K == 'B' || K == 'A') return fn(x != 0);
    return NAN;
}

template <class Fn, char K>
double apply_binary(double a, double b, DType dt) {
    Fn fn;
    if constexpr (K != 'B')
        if (is_float(dt)) return static_cast<double>(fn(a, b));
    if constexpr (K == 'N' || K == 'A' || K == 'I')
        if (is_int(dt)) return static_cast<double>(fn(static_cast<int64_t>(a), static_cast<int64_t>(b)));
    if constexpr (K == 'B' || K == 'A') return static_cast<double>(fn(a != 0, b != 0));
    return NAN;
}

template <class Fn, char K>
TensorData unary_ref(const std::vector<TensorData>& in, const Args& a) {
    ref::Host x = ref::host(in[0]);
    for (double& v : x.v) v = apply_unary<Fn, K>(v, in[0].dtype(), a.reals.at(0), a.reals.at(1));
    return ref::to_data(x, value_dtype(in[0].dtype()));
}

template <class Fn, char K>
TensorData pred_ref(const std::vector<TensorData>& in, const Args&) {
    ref::Host x = ref::host(in[0]);
    for (double& v : x.v) v = apply_pred<Fn, K>(v, in[0].dtype());
    return ref::to_data(x, DType::boolean);
}

/// Binary and compare ops: inputs {a, b} broadcast, or {a} and the scalar reals[0].
template <class Fn, char K, bool Compare>
TensorData binary_ref(const std::vector<TensorData>& in, const Args& args) {
    const DType dt = in[0].dtype();
    ref::Host a = ref::host(in[0]);
    ref::Host b = in.size() > 1 ? ref::host(in[1]) : ref::filled(Dims::filled(a.rank(), 1), args.reals.at(0));
    ref::Host out = ref::filled(ref::broadcast(a.shape, b.shape), 0.0);
    for (int64_t i = 0; i < out.numel(); ++i) {
        auto idx = ref::unravel(i, out.shape);
        out.v[static_cast<std::size_t>(i)] =
            apply_binary<Fn, K>(ref::at_broadcast(a, idx), ref::at_broadcast(b, idx), dt);
    }
    return ref::to_data(out, Compare ? DType::boolean : value_dtype(dt));
}

template <class Fn>
TensorData where_ref(const std::vector<TensorData>& in, const Args&) {
    ref::Host c = ref::host(in[0]), a = ref::host(in[1]), b = ref::host(in[2]);
    ref::Host out = ref::filled(ref::broadcast(ref::broadcast(c.shape, a.shape), b.shape), 0.0);
    Fn fn;
    for (int64_t i = 0; i < out.numel(); ++i) {
        auto idx = ref::unravel(i, out.shape);
        out.v[static_cast<std::size_t>(i)] =
            fn(ref::at_broadcast(c, idx) != 0, ref::at_broadcast(a, idx), ref::at_broadcast(b, idx));
    }
    return ref::to_data(out, value_dtype(in[1].dtype()));
}

// ---- samples

std::vector<Sample> unary_samples(const std::string& name, OpId id, DType dt, Domain dom, bool special) {
    InputGen g{name, dt};
    auto ps = params_of(id);
    auto args = [&](std::size_t p) { return Args{dt, Device::cpu(), {}, {ps[p][0], ps[p][1]}}; };
    std::vector<Sample> s;
    for (std::size_t p = 0; p < ps.size(); ++p) s.push_back({"", Tag::basic, {g({2, 3}, dom)}, args(p)});
    s.push_back({"", Tag::basic, {g({2, 3, 4}, dom)}, args(0)});
    s.push_back({"", Tag::scalar, {g({1}, dom)}, args(0)});
    s.push_back({"", Tag::empty, {g({0, 3}, dom)}, args(0)});
    if (special && is_float(dt))
        for (std::size_t p = 0; p < ps.size(); ++p)
            s.push_back({"NaN, inf, -0", Tag::special, {data_of({10}, kSpecialA, dt)}, args(p)});
    return s;
}

std::vector<Sample> binary_samples(const std::string& name, DType dt, Domain dom, bool special) {
    InputGen g{name, dt};
    std::vector<Sample> s;
    auto pair = [&](Tag t, Dims a, Dims b) { s.push_back({"", t, {g(a, dom), g(b, dom)}, {}}); };
    pair(Tag::basic, {2, 3}, {2, 3});
    pair(Tag::basic, {2, 3, 4}, {2, 3, 4});
    pair(Tag::broadcast, {2, 1, 4}, {1, 3, 4});
    pair(Tag::broadcast, {2, 3}, {1, 3});
    pair(Tag::broadcast, {3, 1}, {1, 1});
    pair(Tag::scalar, {1}, {1});
    pair(Tag::empty, {0, 3}, {0, 3});
    pair(Tag::empty, {0, 3}, {1, 3});
    if (special && is_float(dt))
        s.push_back(
            {"NaN, inf, -0", Tag::special, {data_of({10}, kSpecialA, dt), data_of({10}, kSpecialB, dt)}, {}});
    return s;
}

std::vector<Sample> scalar_operand_samples(const std::string& name, DType dt, Domain dom, bool compare) {
    InputGen g{name, dt};
    Args a{dt, Device::cpu(), {}, {scalar_operand(dt, compare)}};
    std::vector<Sample> s;
    s.push_back({"", Tag::basic, {g({2, 3}, dom)}, a});
    s.push_back({"", Tag::basic, {g({2, 3, 4}, dom)}, a});
    s.push_back({"", Tag::scalar, {g({1}, dom)}, a});
    s.push_back({"", Tag::empty, {g({0, 3}, dom)}, a});
    return s;
}

std::vector<Sample> where_samples(const std::string& name, DType dt) {
    InputGen g{name, dt};
    std::vector<Sample> s;
    auto triple = [&](Tag t, Dims c, Dims a, Dims b) { s.push_back({"", t, {g.mask(c), g(a), g(b)}, {}}); };
    triple(Tag::basic, {2, 3}, {2, 3}, {2, 3});
    triple(Tag::basic, {2, 3, 4}, {2, 3, 4}, {2, 3, 4});
    triple(Tag::broadcast, {2, 1, 4}, {1, 3, 4}, {2, 3, 1});
    triple(Tag::broadcast, {2, 3}, {1, 1}, {2, 3});
    triple(Tag::scalar, {1}, {1}, {1});
    triple(Tag::empty, {0, 3}, {0, 3}, {1, 3});
    return s;
}

// ---- entries

bool differentiable_unary(OpId id) {
    switch (id) {
        case OpId::sign:
        case OpId::floor:
        case OpId::ceil:
        case OpId::round:
        case OpId::trunc:
            return false;
        default:
            return true;
    }
}

OpEntry ew_entry(std::string name, OpId id, char kinds) {
    OpEntry e;
    e.name = std::move(name);
    e.ops = {id};
    e.dtypes = dtypes_of(kinds);
    return e;
}

void add_unary(std::vector<OpEntry>& db, OpId id, char kinds, Domain dom, Reference r, Forward f) {
    OpEntry e = ew_entry(std::string(op_name(id)), id, kinds);
    const std::string n = e.name;
    e.samples = [n, id, dom, kinds](DType dt) { return unary_samples(n, id, dt, dom, kinds != 'B'); };
    e.reference = std::move(r);
    e.forward = f;
    e.bad.push_back(bad("undefined tensor", "[" + n + "]", [f](const Device&) {
        f({TensorAny()}, {{}, {}, {}, {0, 0}});
    }));
    DType wrong;
    if (wrong_dtype(kinds, wrong))
        e.bad.push_back(bad("wrong dtype", "[" + n + "]", [f, wrong](const Device& d) {
            f({tensor({2}, {1, 2}, wrong, d)}, {{}, {}, {}, {0, 0}});
        }));
    e.differentiable = kinds == 'F' && differentiable_unary(id);
    if (e.differentiable) e.grad_inputs = {0};
    db.push_back(std::move(e));
}

void add_pred(std::vector<OpEntry>& db, OpId id, char kinds, Reference r, Forward f) {
    OpEntry e = ew_entry(std::string(op_name(id)), id, kinds);
    // Float-only predicates also accept ints (always false), which is worth checking.
    if (kinds == 'F') e.dtypes = kNumeric;
    const std::string n = e.name;
    e.samples = [n, id](DType dt) { return unary_samples(n, id, dt, Domain::real, true); };
    e.reference = std::move(r);
    e.forward = f;
    e.out_dtype = [](const Args&) { return DType::boolean; };
    e.bad.push_back(bad("undefined tensor", "[" + n + "]", [f](const Device&) { f({TensorAny()}, {}); }));
    if (kinds == 'B')
        e.bad.push_back(bad("wrong dtype", "[" + n + "]", [f](const Device& d) {
            f({tensor({2}, {1, 2}, DType::f32, d)}, {});
        }));
    db.push_back(std::move(e));
}

bool differentiable_binary(OpId id) {
    switch (id) {
        case OpId::add:
        case OpId::sub:
        case OpId::mul:
        case OpId::div:
        case OpId::powf:
        case OpId::atan2:
        case OpId::hypot:
        case OpId::max_pair:
        case OpId::min_pair:
        case OpId::relu_backward:
        case OpId::gelu_backward:
            return true;
        default:
            return false;
    }
}

/// A binary or compare op: the tensor-tensor entry and the tensor-scalar entry.
void add_binary(std::vector<OpEntry>& db, OpId id, char kinds, Domain dom, bool compare, Reference r,
                Forward f, Forward fs) {
    const std::string n(op_name(id));
    const Domain d = compare ? Domain::ties : dom;
    OpEntry e = ew_entry(n, id, kinds);
    e.samples = [n, d](DType dt) { return binary_samples(n, dt, d, true); };
    e.reference = r;
    e.forward = f;
    if (compare) e.out_dtype = [](const Args&) { return DType::boolean; };
    const DType ok = kinds == 'B' ? DType::boolean : DType::f32;
    const DType other = kinds == 'B' ? DType::f32 : DType::f64;
    e.bad.push_back(bad("undefined tensor", "[" + n + "]", [f](const Device&) {
        f({TensorAny(), TensorAny()}, {});
    }));
    e.bad.push_back(bad("shapes [2, 3] and [3, 2]", "[" + n + "]", [f, ok](const Device& dv) {
        f({ops::full({2, 3}, 1, ok, dv), ops::full({3, 2}, 1, ok, dv)}, {});
    }));
    e.bad.push_back(bad("ranks 2 and 1", "[" + n + "]", [f, ok](const Device& dv) {
        f({ops::full({2, 3}, 1, ok, dv), ops::full({3}, 1, ok, dv)}, {});
    }));
    e.bad.push_back(bad("dtype mismatch", "[" + n + "]", [f, ok, other](const Device& dv) {
        f({ops::full({2, 3}, 1, ok, dv), ops::full({2, 3}, 1, other, dv)}, {});
    }));
    DType wrong;
    if (wrong_dtype(kinds, wrong))
        e.bad.push_back(bad("wrong dtype", "[" + n + "]", [f, wrong](const Device& dv) {
            f({ops::full({2}, 1, wrong, dv), ops::full({2}, 1, wrong, dv)}, {});
        }));
    e.differentiable = !compare && differentiable_binary(id);
    if (e.differentiable) e.grad_inputs = {0, 1};
    db.push_back(std::move(e));

    const std::string ns = n + (compare ? "_elem" : "_scalar");
    OpEntry s = ew_entry(ns, id, kinds);
    s.samples = [ns, d, compare](DType dt) { return scalar_operand_samples(ns, dt, d, compare); };
    s.reference = r;
    s.forward = fs;
    if (compare) s.out_dtype = [](const Args&) { return DType::boolean; };
    s.bad.push_back(bad("undefined tensor", "[" + ns + "]", [fs](const Device&) {
        fs({TensorAny()}, {{}, {}, {}, {1}});
    }));
    if (wrong_dtype(kinds, wrong))
        s.bad.push_back(bad("wrong dtype", "[" + ns + "]", [fs, wrong](const Device& dv) {
            fs({ops::full({2}, 1, wrong, dv)}, {{}, {}, {}, {1}});
        }));
    s.differentiable = e.differentiable;
    if (s.differentiable) s.grad_inputs = {0};
    db.push_back(std::move(s));
}

void add_where(std::vector<OpEntry>& db, char kinds, Reference r) {
    OpEntry e = ew_entry("mask_where", OpId::where, kinds);
    e.samples = [](DType dt) { return where_samples("mask_where", dt); };
    e.reference = std::move(r);
    e.forward = [](const std::vector<TensorAny>& in, const Args&) { return ops::where(in[0], in[1], in[2]); };
    const std::string x = "[mask_where]";
    e.bad.push_back(bad("mask is not bool", x, [](const Device& d) {
        ops::where(ops::full({2}, 1, DType::f32, d), ops::full({2}, 1, DType::f32, d),
                   ops::full({2}, 1, DType::f32, d));
    }));
    e.bad.push_back(bad("value dtypes differ", x, [](const Device& d) {
        ops::where(ops::full({2}, 1, DType::boolean, d), ops::full({2}, 1, DType::f32, d),
                   ops::full({2}, 1, DType::i32, d));
    }));
    e.bad.push_back(bad("shapes do not broadcast", x, [](const Device& d) {
        ops::where(ops::full({2, 3}, 1, DType::boolean, d), ops::full({3, 2}, 1, DType::f32, d),
                   ops::full({2, 3}, 1, DType::f32, d));
    }));
    e.bad.push_back(bad("undefined mask", x, [](const Device& d) {
        ops::where(TensorAny(), ops::full({2}, 1, DType::f32, d), ops::full({2}, 1, DType::f32, d));
    }));
    e.differentiable = true;
    e.grad_inputs = {1, 2};
    db.push_back(std::move(e));
}

}  // namespace

void add_elementwise_entries(std::vector<OpEntry>& db) {
    using V = const std::vector<TensorAny>&;
    using A = const Args&;
#define BURN_UNARY(name, kinds, body, vjp, domain)               \
    add_unary(db, OpId::name, BURN_KIND_##kinds, Domain::domain, \
              &unary_ref<fn::name##_fn, BURN_KIND_##kinds>,      \
              [](V in, A a) { return ops::name(in.at(0), a.reals.at(0), a.reals.at(1)); });
#define BURN_UNARY_PRED(name, kinds, body, domain)                                           \
    add_pred(db, OpId::name, BURN_KIND_##kinds, &pred_ref<fn::name##_fn, BURN_KIND_##kinds>, \
             [](V in, A) { return ops::name(in.at(0)); });
#define BURN_BINARY(name, kinds, body, vjp_a, vjp_b, domain)      \
    add_binary(                                                   \
        db, OpId::name, BURN_KIND_##kinds, Domain::domain, false, \
        &binary_ref<fn::name##_fn, BURN_KIND_##kinds, false>,     \
        [](V in, A) { return ops::name(in.at(0), in.at(1)); },    \
        [](V in, A a) { return ops::name##_scalar(in.at(0), a.reals.at(0)); });
#define BURN_COMPARE(name, kinds, body, domain)                  \
    add_binary(                                                  \
        db, OpId::name, BURN_KIND_##kinds, Domain::domain, true, \
        &binary_ref<fn::name##_fn, BURN_KIND_##kinds, true>,     \
        [](V in, A) { return ops::name(in.at(0), in.at(1)); },   \
        [](V in, A a) { return ops::name##_elem(in.at(0), a.reals.at(0)); });
#define BURN_TERNARY(name, kinds, body, domain) add_where(db, BURN_KIND_##kinds, &where_ref<fn::name##_fn>);
#include "burn/backend/elementwise.def"
}

}  // namespace burn::opdb
