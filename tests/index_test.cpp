// Index family, copying ops: cat, gather, select, slice_assign, one_hot and the Tensor-level API. Every
// op is checked against a naive reference written here (nested loops over row-major doubles), on
// non-contiguous inputs (transposed and flipped views), every dtype, every dim of rank-3 tensors,
// negative dims, empty tensors and bad inputs. The additive ops are in index_additive_test.cpp.
#include "index_test_util.hpp"

// The tests live in the helpers' namespace: a using-directive at file scope would leak into the
// other files of a unity batch (tests/CMakeLists.txt).
namespace burn::index_test {

namespace {

TEST(IndexHelpers, LayoutsAreNonContiguous) {
    std::mt19937 rng(1);
    Host h = random_host(Dims{3, 4, 5}, DType::f32, rng);
    EXPECT_TRUE(contiguous(make(h, DType::f32, 0)));
    EXPECT_FALSE(contiguous(make(h, DType::f32, 1)));
    EXPECT_FALSE(contiguous(make(h, DType::f32, 2)));
    EXPECT_EQ(read(make(h, DType::f32, 1)), h.v);
    EXPECT_EQ(read(make(h, DType::f32, 2)), h.v);
}

// ---------------------------------------------------------------------------------------- cat

TEST(IndexCat, AllDtypesDimsLayouts) {
    std::mt19937 rng(2);
    for (DType dt : kAll) {
        for (int dim : {0, 1, 2, -1, -3}) {
            const int d = dim < 0 ? dim + 3 : dim;
            std::vector<Host> parts;
            std::vector<TensorAny> xs;
            const int64_t sizes[] = {2, 0, 3};
            for (int i = 0; i < 3; ++i) {
                Dims s{3, 4, 5};
                s[d] = sizes[i];
                parts.push_back(random_host(s, dt, rng));
                xs.push_back(make(parts.back(), dt, (i + d) % 3));
            }
            Dims os{3, 4, 5};
            os[d] = 5;
            Host ref{std::vector<double>(static_cast<std::size_t>(os.numel())), os};
            for (int64_t p = 0; p < os.numel(); ++p) {
                auto c = unravel(p, os);
                int part = 0;
                while (c[d] >= parts[part].shape[d]) c[d] -= parts[part++].shape[d];
                ref.v[p] = parts[part].v[ravel(c, parts[part].shape)];
            }
            expect_equal(ops::cat(xs, dim), dt, ref, tag(dt, dim, 0));
        }
    }
}

TEST(IndexCat, SingleAndEmpty) {
    std::mt19937 rng(3);
    Host h = random_host(Dims{2, 3}, DType::f32, rng);
    TensorAny x = make(h, DType::f32, 1);
    EXPECT_TRUE(ops::cat({x}, 0).same(x));
    TensorAny e = make(Host{{}, Dims{0, 3}}, DType::f32, 0);
    expect_equal(ops::cat({e, e}, 0), DType::f32, Host{{}, Dims{0, 3}}, "all empty");
    expect_equal(ops::cat({e, x}, 0), DType::f32, h, "empty + x");
}

TEST(IndexCat, Errors) {
    TensorAny a = ops::full(Dims{2, 3}, 1, DType::f32, Device::cpu());
    TensorAny b = ops::full(Dims{2, 4}, 1, DType::f32, Device::cpu());
    expect_error<DTypeError>([&] { ops::cat({a, ops::cast(a, DType::i32)}, 0); }, {"[cat]", "i32"});
    expect_error<ShapeError>([&] { ops::cat({a, b}, 0); }, {"[cat]", "[2, 4]"});
    expect_error<ShapeError>(
        [&] {
            ops::cat({a, ops::full(Dims{6}, 1, DType::f32, Device::cpu())}, 0);
        },
        {"[cat]", "rank"});
    expect_error<Error>([&] { ops::cat({}, 0); }, {"[cat]"});
    expect_error<Error>([&] { ops::cat({a, b}, 2); }, {"cat"});
    expect_equal(ops::cat({a, b}, 1), DType::f32, Host{std::vector<double>(14, 1.0), Dims{2, 7}}, "dim 1 ok");
}

// ---------------------------------------------------------------------------------------- gather

TEST(IndexGather, AllDtypesDimsLayouts) {
    std::mt19937 rng(4);
    const Dims xs{3, 4, 5};
    for (DType dt : kAll) {
        for (int dim : {0, 1, 2, -1, -2}) {
            const int d = dim < 0 ? dim + 3 : dim;
            for (int layout : {0, 1, 2}) {
                DType it = kIndex[(layout + d) % 4];
                Host x = random_host(xs, dt, rng);
                Dims is{2, 3, 4};  // other dims <= x's; dim may grow
                is[d] = 6;
                Host ix = random_indices(is, xs[d], rng);
                Host ref{std::vector<double>(static_cast<std::size_t>(is.numel())), is};
                for (int64_t p = 0; p < is.numel(); ++p) {
                    auto c = unravel(p, is);
                    c[d] = static_cast<int64_t>(ix.v[p]);
                    ref.v[p] = x.v[ravel(c, xs)];
                }
                auto out = ops::gather(make(x, dt, layout), dim, make(ix, it, 2 - layout));
                expect_equal(out, dt, ref, tag(dt, dim, layout));
            }
        }
    }
}

TEST(IndexGather, EmptyAndErrors) {
    std::mt19937 rng(5);
    TensorAny x = make(random_host(Dims{3, 4}, DType::f32, rng), DType::f32, 1);
    TensorAny none = make(Host{{}, Dims{3, 0}}, DType::i32, 0);
    expect_equal(ops::gather(x, 1, none), DType::f32, Host{{}, Dims{3, 0}}, "empty indices");
    auto idx = [](std::vector<double> v, Dims s) { return make(Host{std::move(v), s}, DType::i64, 0); };
    expect_error<IndexError>(
        [&] {
            ops::gather(x, 1, idx({0, 4, 1}, Dims{3, 1}));
        },
        {"[gather]", "index 4", "dim 1", "size 4"});
    expect_error<IndexError>(
        [&] {
            ops::gather(x, 0, idx({0, -1}, Dims{1, 2}));
        },
        {"[gather]", "index -1", "size 3"});
    expect_error<DTypeError>(
        [&] {
            ops::gather(x, 0, ops::cast(idx({0}, Dims{1, 1}), DType::f32));
        },
        {"[gather]", "indices"});
    expect_error<ShapeError>([&] { ops::gather(x, 0, idx({0, 0}, Dims{2})); }, {"[gather]", "rank"});
    expect_error<ShapeError>(
        [&] {
            ops::gather(x, 0, idx(std::vector<double>(5, 0), Dims{1, 5}));
        },
        {"[gather]", "[1, 5]"});
    // Gathering from an empty dim with indices present is out of range, never a read.
    TensorAny empty_x = make(Host{{}, Dims{2, 0}}, DType::f32, 0);
    expect_error<IndexError>(
        [&] {
            ops::gather(empty_x, 1, idx({0, 0}, Dims{2, 1}));
        },
        {"[gather]", "size 0"});
}

// ---------------------------------------------------------------------------------------- select

TEST(IndexSelect, AllDtypesDimsLayouts) {
    std::mt19937 rng(9);
    const Dims xs{3, 4, 5};
    for (DType dt : kAll) {
        for (int dim : {0, 1, 2, -1}) {
            const int d = dim < 0 ? dim + 3 : dim;
            for (int layout : {0, 1, 2}) {
                Host x = random_host(xs, dt, rng);
                Host ix = random_indices(Dims{7}, xs[d], rng);  // 7 picks from 3..5: duplicates
                Dims os = xs;
                os[d] = 7;
                Host ref{std::vector<double>(static_cast<std::size_t>(os.numel())), os};
                for (int64_t p = 0; p < os.numel(); ++p) {
                    auto c = unravel(p, os);
                    c[d] = static_cast<int64_t>(ix.v[c[d]]);
                    ref.v[p] = x.v[ravel(c, xs)];
                }
                auto out =
                    ops::select(make(x, dt, layout), dim, make(ix, kIndex[layout], layout == 0 ? 2 : 0));
                expect_equal(out, dt, ref, tag(dt, dim, layout));
            }
        }
    }
}

TEST(IndexSelect, EmptyAndErrors) {
    std::mt19937 rng(10);
    TensorAny x = make(random_host(Dims{3, 4}, DType::i32, rng), DType::i32, 1);
    auto idx = [](std::vector<double> v) {
        Dims s{static_cast<int64_t>(v.size())};
        return make(Host{std::move(v), s}, DType::i64, 0);
    };
    expect_equal(ops::select(x, 0, idx({})), DType::i32, Host{{}, Dims{0, 4}}, "no indices");
    TensorAny e = make(Host{{}, Dims{0, 4}}, DType::f32, 0);
    expect_equal(ops::select(e, 1, idx({3, 0})), DType::f32, Host{{}, Dims{0, 2}}, "empty x");
    expect_error<IndexError>(
        [&] {
            ops::select(x, 1, idx({0, 7}));
        },
        {"[select]", "index 7", "dim 1", "size 4"});
    expect_error<IndexError>([&] { ops::select(x, -2, idx({-1})); }, {"[select]", "index -1", "size 3"});
    expect_error<ShapeError>(
        [&] {
            ops::select(x, 0, make(Host{{0, 0}, Dims{1, 2}}, DType::i32, 0));
        },
        {"[select]", "1-D"});
    expect_error<DTypeError>([&] { ops::select(x, 0, ops::cast(idx({0}), DType::boolean)); }, {"[select]"});
    expect_error<Error>([&] { ops::select(x, 2, idx({0})); }, {"select"});
}

// ---------------------------------------------------------------------------------------- slice_assign

TEST(IndexSliceAssign, StepsLayoutsDtypes) {
    std::mt19937 rng(12);
    const Dims xs{4, 5, 6};
    // {start, end, step} per dim, as the user writes them (negative start/end count from the end).
    const std::vector<std::vector<SliceArg>> cases = {
        {SliceArg(all), SliceArg(1, 3)},
        {SliceArg(0, std::nullopt, 2), SliceArg(all), SliceArg(1, 6, 3)},
        {SliceArg(all), SliceArg(0, std::nullopt, -1), SliceArg(-4, -1, -2)},
        {SliceArg(2), SliceArg(1, 5, -3), SliceArg(0, 6, -1)},
        {SliceArg(all), SliceArg(2, 2)},  // empty region
    };
    for (DType dt : {DType::f32, DType::f16, DType::i64, DType::i8, DType::boolean}) {
        for (std::size_t ci = 0; ci < cases.size(); ++ci) {
            for (int layout : {0, 1, 2}) {
                // Expected positions per dim.
                std::vector<std::vector<int64_t>> pos(3);
                Dims vs = xs;
                for (int d = 0; d < 3; ++d) {
                    const int64_t n = xs[d];
                    SliceArg a = d < static_cast<int>(cases[ci].size()) ? cases[ci][d] : SliceArg(all);
                    int64_t s = a.start < 0 ? a.start + n : a.start;
                    int64_t e = a.end ? (*a.end < 0 ? *a.end + n : *a.end) : n;
                    if (a.step > 0)
                        for (int64_t i = s; i < e; i += a.step) pos[d].push_back(i);
                    else
                        for (int64_t i = e - 1; i >= s; i += a.step) pos[d].push_back(i);
                    vs[d] = static_cast<int64_t>(pos[d].size());
                }
                Host x = random_host(xs, dt, rng);
                Host v = random_host(vs, dt, rng);
                Host ref = x;
                for (int64_t p = 0; p < vs.numel(); ++p) {
                    auto c = unravel(p, vs);
                    for (int d = 0; d < 3; ++d) c[d] = pos[d][c[d]];
                    ref.v[ravel(c, xs)] = v.v[p];
                }
                const std::string what = tag(dt, static_cast<int>(ci), layout);
                // Shared x (copy path): x must be unchanged afterwards.
                TensorAny shared = make(x, dt, layout);
                expect_equal(ops::slice_assign(shared, cases[ci], make(v, dt, 2 - layout)), dt, ref, what);
                EXPECT_EQ(read(shared), x.v) << what;
                // Uniquely owned x (in-place path for contiguous layouts).
                expect_equal(ops::slice_assign(make(x, dt, layout), cases[ci], make(v, dt, layout)), dt, ref,
                             what);
            }
        }
    }
}

TEST(IndexSliceAssign, Errors) {
    TensorAny x = ops::full(Dims{3, 4}, 0, DType::f32, Device::cpu());
    expect_error<DTypeError>(
        [&] {
            ops::slice_assign(x, {SliceArg(all), SliceArg(0, 2)},
                              ops::full(Dims{3, 2}, 1, DType::i32, Device::cpu()));
        },
        {"[slice_assign]"});
    expect_error<ShapeError>(
        [&] {
            ops::slice_assign(x, {SliceArg(all), SliceArg(0, 2)},
                              ops::full(Dims{3, 3}, 1, DType::f32, Device::cpu()));
        },
        {"[slice_assign]", "[3, 3]"});
    expect_error<IndexError>(
        [&] {
            ops::slice_assign(x, {SliceArg(0, 5)}, ops::full(Dims{5, 4}, 1, DType::f32, Device::cpu()));
        },
        {"[slice_assign]"});
}

// ---------------------------------------------------------------------------------------- one_hot

TEST(IndexOneHot, IntAndFloat) {
    for (DType dt : {DType::i32, DType::i64, DType::u8, DType::f32, DType::f16}) {
        Host x{{2, 0, 3, 3, 1, 0}, Dims{2, 3}};
        Host ref{std::vector<double>(24, 0.0), Dims{2, 3, 4}};
        for (int p = 0; p < 6; ++p) ref.v[static_cast<std::size_t>(p * 4 + static_cast<int>(x.v[p]))] = 1;
        expect_equal(ops::one_hot(make(x, dt, 1), 4), dt, ref, std::string(name(dt)));
        auto bad_hi = Host{{0, 4}, Dims{2}};
        expect_error<IndexError>([&] { ops::one_hot(make(bad_hi, dt, 0), 4); }, {"[one_hot]", "4"});
    }
    expect_error<IndexError>(
        [&] {
            ops::one_hot(make(Host{{1, -1}, Dims{2}}, DType::i32, 0), 3);
        },
        {"[one_hot]", "-1"});
    expect_error<DTypeError>(
        [&] {
            ops::one_hot(make(Host{{1}, Dims{1}}, DType::boolean, 0), 3);
        },
        {"[one_hot]"});
    expect_equal(ops::one_hot(make(Host{{}, Dims{0}}, DType::i32, 0), 3), DType::i32, Host{{}, Dims{0, 3}},
                 "empty");
}

// ---------------------------------------------------------------------------------------- Tensor API

TEST(IndexTensorApi, CatStackSliceAssignOneHot) {
    Device dev;
    auto a = Tensor<2>::from_floats({{1, 2, 3}, {4, 5, 6}}, dev);
    auto b = Tensor<2>::from_floats({{7, 8, 9}}, dev);
    auto c = Tensor<2>::cat({a, b}, 0);
    EXPECT_EQ(c.dims(), (Shape<2>{3, 3}));
    EXPECT_EQ(c.to_vec<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8, 9}));
    auto ct = Tensor<2>::cat({a.transpose(), b.transpose()}, -1);  // [3, 2] ++ [3, 1]
    EXPECT_EQ(ct.to_vec<float>(), (std::vector<float>{1, 4, 7, 2, 5, 8, 3, 6, 9}));

    auto s = Tensor<2>::stack({a, a.mul_scalar(10)}, 1);  // [2, 2, 3]
    EXPECT_EQ(s.dims(), (Shape<3>{2, 2, 3}));
    EXPECT_EQ(s.to_vec<float>(), (std::vector<float>{1, 2, 3, 10, 20, 30, 4, 5, 6, 40, 50, 60}));
    auto s0 = Tensor<2>::stack({a, b.repeat_dim(0, 2)}, 0);
    EXPECT_EQ(s0.dims(), (Shape<3>{2, 2, 3}));

    auto vals = Tensor<2>::from_floats({{-1, -2}, {-3, -4}}, dev);
    auto sa = a.slice_assign({all, {0, 2}}, vals);
    EXPECT_EQ(sa.to_vec<float>(), (std::vector<float>{-1, -2, 3, -3, -4, 6}));
    EXPECT_EQ(a.to_vec<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
    // A negative step walks [0, 3) backwards: columns 2, 1, 0 take the values' columns in order.
    auto rev = Tensor<2>::from_floats({{10, 11, 12}, {13, 14, 15}}, dev);
    auto sn = a.slice_assign({all, {0, std::nullopt, -1}}, rev);
    EXPECT_EQ(sn.to_vec<float>(), (std::vector<float>{12, 11, 10, 15, 14, 13}));
    auto sn2 =
        a.slice_assign({{0, std::nullopt, -1}, {0, 3, -2}}, Tensor<2>::from_floats({{1, 2}, {3, 4}}, dev));
    EXPECT_EQ(sn2.to_vec<float>(), (std::vector<float>{4, 2, 3, 2, 5, 1}));

    auto classes = Tensor<1, Int>::from_ints({0, 2, 1}, dev);
    auto oh = classes.one_hot(3);
    EXPECT_EQ(oh.dims(), (Shape<2>{3, 3}));
    EXPECT_EQ(oh.to_vec<int32_t>(), (std::vector<int32_t>{1, 0, 0, 0, 0, 1, 0, 1, 0}));
    auto ohf = Tensor<1>::from_floats({1, 0}, dev).one_hot(2);
    EXPECT_EQ(ohf.to_vec<float>(), (std::vector<float>{0, 1, 1, 0}));

    auto sel = a.select(1, Tensor<1, Int>::from_ints({2, 0, 2}, dev));
    EXPECT_EQ(sel.to_vec<float>(), (std::vector<float>{3, 1, 3, 6, 4, 6}));
    auto sas = a.select_assign(0, Tensor<1, Int>::from_ints({1, 1}, dev), Tensor<2>::ones({2, 3}, dev));
    EXPECT_EQ(sas.to_vec<float>(), (std::vector<float>{1, 2, 3, 6, 7, 8}));
    auto g = a.gather(1, Tensor<2, Int>::from_ints({{2, 2}, {0, 1}}, dev));
    EXPECT_EQ(g.to_vec<float>(), (std::vector<float>{3, 3, 4, 5}));
    auto sc = a.scatter(1, Tensor<2, Int>::from_ints({{0, 0}, {2, 1}}, dev), Tensor<2>::ones({2, 2}, dev));
    EXPECT_EQ(sc.to_vec<float>(), (std::vector<float>{3, 2, 3, 4, 6, 7}));
    EXPECT_THROW(a.gather(1, Tensor<2, Int>::from_ints({{3, 0}, {0, 0}}, dev)), IndexError);
}

}  // namespace

}  // namespace burn::index_test
