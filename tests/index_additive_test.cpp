// Index family, additive ops: scatter (scatter_add) and select_assign (select_add), against naive
// references, on non-contiguous inputs, numeric dtypes, every dim, duplicates (accumulated in a fixed
// order), the in-place path and bad inputs.
#include "index_test_util.hpp"

// The tests live in the helpers' namespace: a using-directive at file scope would leak into the
// other files of a unity batch (tests/CMakeLists.txt).
namespace burn::index_test {

namespace {

// ---------------------------------------------------------------------------------------- scatter

TEST(IndexScatter, NumericDtypesDimsLayoutsDuplicates) {
    std::mt19937 rng(6);
    const Dims xs{3, 4, 5};
    for (DType dt : kNumeric) {
        for (int dim : {0, 1, 2, -1}) {
            const int d = dim < 0 ? dim + 3 : dim;
            for (int layout : {0, 1, 2}) {
                Host x = random_host(xs, dt, rng);
                Dims is{2, 3, 4};
                is[d] = 4;  // 4 contributions per column into a dim of size 3..5: duplicates
                Dims vs{3, 3, 5};
                vs[d] = 5;  // values may be larger than the indices
                Host ix = random_indices(is, xs[d], rng);
                Host v = random_host(vs, dt, rng);
                Host ref = x;
                for (int64_t p = 0; p < is.numel(); ++p) {
                    auto c = unravel(p, is);
                    double add = v.v[ravel(c, vs)];
                    c[d] = static_cast<int64_t>(ix.v[p]);
                    ref.v[ravel(c, xs)] += add;
                }
                auto out = ops::scatter(make(x, dt, layout), dim, make(ix, kIndex[layout], (layout + 1) % 3),
                                        make(v, dt, 2 - layout));
                expect_equal(out, dt, ref, tag(dt, dim, layout));
            }
        }
    }
}

TEST(IndexScatter, DeterministicLargeFloatAccumulation) {
    // Many duplicates with inexact float sums, large enough to run in parallel: the result must be
    // bitwise the serial accumulation in index order. Dim 1 and the last dim take the kernel's two
    // loop orders.
    for (int dim : {1, 2}) {
        std::mt19937 rng(7);
        const Dims xs{4, 16, 16};
        Dims is{4, 16, 16};
        is[dim] = 2000;
        std::uniform_real_distribution<float> u(-1, 1);
        std::vector<float> x(static_cast<std::size_t>(xs.numel())), v(static_cast<std::size_t>(is.numel()));
        std::vector<int32_t> ix(v.size());
        for (auto& e : x) e = u(rng);
        for (auto& e : v) e = u(rng);
        for (auto& e : ix) e = static_cast<int32_t>(rng() % 16);
        std::vector<float> ref = x;
        for (int64_t p = 0; p < is.numel(); ++p) {
            auto c = unravel(p, is);
            c[dim] = ix[static_cast<std::size_t>(p)];
            ref[static_cast<std::size_t>(ravel(c, xs))] += v[static_cast<std::size_t>(p)];
        }
        auto X = ops::from_data(TensorData(x, xs), Device::cpu());
        auto I = ops::from_data(TensorData(ix, is), Device::cpu());
        auto V = ops::from_data(TensorData(v, is), Device::cpu());
        auto out1 = ops::into_data(ops::scatter(X, dim, I, V)).to_vec<float>();
        auto out2 = ops::into_data(ops::scatter(X, dim, I, V)).to_vec<float>();
        EXPECT_EQ(out1, ref) << "dim " << dim;
        EXPECT_EQ(out2, ref) << "dim " << dim;
        EXPECT_EQ(ops::into_data(X).to_vec<float>(), x) << "the shared input was modified";
    }
}

TEST(IndexScatter, InPlaceAndErrors) {
    std::mt19937 rng(8);
    Host x = random_host(Dims{3, 4}, DType::f32, rng);
    auto idx = [](std::vector<double> v, Dims s) { return make(Host{std::move(v), s}, DType::i32, 0); };
    auto ones = ops::full(Dims{1, 2}, 1, DType::f32, Device::cpu());
    // Uniquely owned x: the kernel may write in place; the result must still be right.
    Host ref = x;
    ref.v[1] += 1;
    ref.v[3] += 1;
    expect_equal(ops::scatter(make(x, DType::f32, 0), 1, idx({1, 3}, Dims{1, 2}), ones), DType::f32, ref,
                 "in place");
    TensorAny shared = make(x, DType::f32, 0);
    expect_error<IndexError>(
        [&] {
            ops::scatter(shared, 1, idx({1, 4}, Dims{1, 2}), ones);
        },
        {"[scatter]", "index 4", "size 4"});
    expect_error<IndexError>(
        [&] {
            ops::scatter(shared, 0, idx({-2, 0}, Dims{1, 2}), ones);
        },
        {"[scatter]", "index -2", "size 3"});
    EXPECT_EQ(read(shared), x.v) << "a failed scatter changed its input";
    expect_error<DTypeError>(
        [&] {
            ops::scatter(ops::cast(shared, DType::boolean), 1, idx({0}, Dims{1, 1}),
                         ops::cast(ones, DType::boolean));
        },
        {"[scatter]"});
    expect_error<DTypeError>(
        [&] {
            ops::scatter(shared, 1, idx({0, 1}, Dims{1, 2}), ops::cast(ones, DType::f64));
        },
        {"[scatter]", "f64"});
    expect_error<ShapeError>(
        [&] {
            ops::scatter(shared, 1, idx({0, 1, 2}, Dims{1, 3}), ones);
        },
        {"[scatter]", "values"});
    // Empty indices leave x unchanged.
    expect_equal(ops::scatter(shared, 1, make(Host{{}, Dims{1, 0}}, DType::i64, 0), ones), DType::f32, x,
                 "empty");
}

TEST(IndexSelectAssign, NumericDtypesDimsLayoutsDuplicates) {
    std::mt19937 rng(11);
    const Dims xs{3, 4, 5};
    for (DType dt : kNumeric) {
        for (int dim : {0, 1, 2, -3}) {
            const int d = dim < 0 ? dim + 3 : dim;
            for (int layout : {0, 1, 2}) {
                Host x = random_host(xs, dt, rng);
                Host ix = random_indices(Dims{4}, xs[d], rng);
                Dims vs = xs;
                vs[d] = 4;
                Host v = random_host(vs, dt, rng);
                Host ref = x;
                for (int64_t p = 0; p < vs.numel(); ++p) {
                    auto c = unravel(p, vs);
                    c[d] = static_cast<int64_t>(ix.v[c[d]]);
                    ref.v[ravel(c, xs)] += v.v[p];
                }
                auto out = ops::select_assign(make(x, dt, layout), dim, make(ix, kIndex[layout], 2),
                                              make(v, dt, (layout + 1) % 3));
                expect_equal(out, dt, ref, tag(dt, dim, layout));
            }
        }
    }
}

TEST(IndexSelectAssign, Errors) {
    TensorAny x = ops::full(Dims{3, 4}, 0, DType::f32, Device::cpu());
    TensorAny idx = make(Host{{0, 3}, Dims{2}}, DType::i32, 0);
    TensorAny v = ops::full(Dims{3, 2}, 1, DType::f32, Device::cpu());
    expect_error<IndexError>(
        [&] {
            ops::select_assign(x, 0, idx, ops::full(Dims{2, 4}, 1, DType::f32, Device::cpu()));
        },
        {"[select_assign]", "index 3", "size 3"});
    expect_error<ShapeError>(
        [&] {
            ops::select_assign(x, 1, idx, ops::full(Dims{3, 3}, 1, DType::f32, Device::cpu()));
        },
        {"[select_assign]", "[3, 2]"});
    expect_error<DTypeError>([&] { ops::select_assign(x, 1, idx, ops::cast(v, DType::i32)); },
                             {"[select_assign]"});
    expect_error<DTypeError>(
        [&] { ops::select_assign(ops::cast(x, DType::boolean), 1, idx, ops::cast(v, DType::boolean)); },
        {"[select_assign]"});
    auto ok = read(ops::select_assign(x, 1, idx, v));
    EXPECT_EQ(ok, (std::vector<double>{1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1}));
    EXPECT_EQ(read(x), std::vector<double>(12, 0.0));
}

TEST(IndexInPlace, UniquelyOwnedInputIsReused) {
    std::mt19937 rng(13);
    Host x = random_host(Dims{3, 4}, DType::f32, rng);
    auto storage = [](const TensorAny& t) {
        return static_cast<const void*>(cpu::as_cpu(t.ref()).storage->data);
    };
    auto idx = make(Host{{0, 2}, Dims{2}}, DType::i32, 0);
    auto v = ops::full(Dims{3, 2}, 1, DType::f32, Device::cpu());
    Host ref = x;
    for (int r = 0; r < 3; ++r) ref.v[r * 4] += 1, ref.v[r * 4 + 2] += 1;
    // select_assign / scatter on a handed-over x write into its buffer.
    TensorAny owned = make(x, DType::f32, 0);
    const void* before = storage(owned);
    TensorAny out = ops::select_assign(std::move(owned), 1, idx, v);
    EXPECT_EQ(storage(out), before);
    expect_equal(out, DType::f32, ref, "select_assign in place");
    // A shared x is copied, never written.
    TensorAny shared = make(x, DType::f32, 0);
    EXPECT_NE(storage(ops::select_assign(shared, 1, idx, v)), storage(shared));
    EXPECT_EQ(read(shared), x.v);
    // slice_assign's kernel through the backend door (its frontend lives in layout.cpp).
    TensorAny target = make(x, DType::f32, 0);
    before = storage(target);
    OpCall call{OpId::slice_assign, DType::f32, Dims{3, 4}, {0, 3, 1, 1, 4, 2}, {0, 0}};
    TensorRefs in;
    in.push_back(std::move(target).ref());
    in.push_back(v.ref());
    TensorAny sa(Device::cpu().backend().execute(call, std::move(in))[0]);
    EXPECT_EQ(storage(sa), before);
    ref = x;
    for (int r = 0; r < 3; ++r) ref.v[r * 4 + 1] = 1, ref.v[r * 4 + 3] = 1;
    expect_equal(sa, DType::f32, ref, "slice_assign in place");
}

}  // namespace

}  // namespace burn::index_test
