// In-place reuse of elementwise outputs (reuse_or_alloc): a temporary held only by the op is
// overwritten, anything still referenced (a handle, a view of its storage) is left untouched.
// Also the strided fast paths of binary ops (bias rows, columns, slices with contiguous rows).
#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <cmath>
#include <vector>

#include "backends/cpu/cpu_tensor.hpp"

using namespace burn;

namespace {

const void* buffer_of(const TensorAny& t) {
    return cpu::as_cpu(t.ref()).storage->data;
}

std::vector<double> to_double(const std::vector<float>& v) {
    return {v.begin(), v.end()};
}

void expect_near_all(const std::vector<float>& got, const std::vector<double>& want, const char* what) {
    ASSERT_EQ(got.size(), want.size()) << what;
    int64_t bad = 0;
    for (std::size_t i = 0; i < got.size(); ++i)
        if (std::abs(double(got[i]) - want[i]) > 1e-5 * (1 + std::abs(want[i]))) ++bad;
    EXPECT_EQ(bad, 0) << what;
}

TEST(InplaceReuse, SharedInputIsNotOverwritten) {
    Device dev = Device::cpu();
    const std::size_t n = 100003;  // several parallel chunks and an odd tail
    auto x = Tensor<1>::random({n}, Distribution::Normal(0, 1), dev);
    auto y = Tensor<1>::random({n}, Distribution::Normal(0, 1), dev);
    auto z = Tensor<1>::random({n}, Distribution::Normal(0, 1), dev);
    auto xs = to_double(x.to_vec<float>()), ys = to_double(y.to_vec<float>()),
         zs = to_double(z.to_vec<float>());
    std::vector<double> prod(n), sum(n), relu(n);
    for (std::size_t i = 0; i < n; ++i) {
        prod[i] = double(float(xs[i] * ys[i]));
        sum[i] = double(float(prod[i] + zs[i]));
        relu[i] = sum[i] > 0 ? sum[i] : 0.0;
    }

    auto a = x * y;
    auto b = a + z;  // a is still referenced: b must get its own buffer
    EXPECT_NE(buffer_of(a.handle()), buffer_of(b.handle()));
    expect_near_all(a.to_vec<float>(), prod, "a after a + z");
    expect_near_all(b.to_vec<float>(), sum, "b = a + z");
    auto c = activation::relu(b);  // b is an lvalue: untouched
    expect_near_all(b.to_vec<float>(), sum, "b after relu(b)");
    expect_near_all(c.to_vec<float>(), relu, "relu(b)");
    // The inputs themselves never change.
    expect_near_all(x.to_vec<float>(), xs, "x");
    expect_near_all(z.to_vec<float>(), zs, "z");
}

TEST(InplaceReuse, UniqueTemporaryIsReused) {
    Device dev = Device::cpu();
    const std::size_t n = 70001;
    auto x = Tensor<1>::random({n}, Distribution::Normal(0, 1), dev);
    auto y = Tensor<1>::random({n}, Distribution::Normal(0, 1), dev);
    auto z = Tensor<1>::random({n}, Distribution::Normal(0, 1), dev);
    auto xs = x.to_vec<float>(), ys = y.to_vec<float>(), zs = z.to_vec<float>();

    auto t = x * y;
    const void* p = buffer_of(t.handle());
    auto u = std::move(t) + z;  // the only reference: overwritten in place
    EXPECT_EQ(buffer_of(u.handle()), p);
    auto r = activation::relu(std::move(u));
    EXPECT_EQ(buffer_of(r.handle()), p);
    auto e = std::move(r).exp();
    EXPECT_EQ(buffer_of(e.handle()), p);
    auto got = e.to_vec<float>();
    std::vector<double> want(n);
    for (std::size_t i = 0; i < n; ++i) {
        double s = double(float(float(xs[i] * ys[i]) + zs[i]));
        want[i] = std::exp(s > 0 ? s : 0.0);
    }
    expect_near_all(got, want, "exp(relu(x * y + z))");

    // The benchmark expression allocates only the product: x * y is reused by + z and by relu.
    cpu::empty_cache();
    const auto before = cpu::allocator_stats();
    auto f = activation::relu(x * y + z);
    const auto after = cpu::allocator_stats();
    EXPECT_EQ(after.live_bytes - before.live_bytes, n * sizeof(float) + 4096 - (n * sizeof(float)) % 4096);
    EXPECT_EQ(after.cached_bytes, 0u) << "a temporary was allocated and freed";
}

TEST(InplaceReuse, ViewsKeepTheirStorage) {
    Device dev = Device::cpu();
    auto x = Tensor<2>::random({64, 33}, Distribution::Normal(0, 1), dev);
    auto xs = x.to_vec<float>();
    // A view of a temporary's storage (slice, transpose, reshape) keeps the storage shared.
    auto t = x * 2.0;
    auto view = t.slice({{0, 10}});
    auto tr = t.transpose();
    auto flat = t.reshape({-1});
    auto v0 = view.to_vec<float>(), tr0 = tr.to_vec<float>(), fl0 = flat.to_vec<float>();
    auto r = std::move(t) + 1.0;  // t's handle is unique, its storage is not
    EXPECT_EQ(view.to_vec<float>(), v0);
    EXPECT_EQ(tr.to_vec<float>(), tr0);
    EXPECT_EQ(flat.to_vec<float>(), fl0);
    auto rs = r.to_vec<float>();
    for (std::size_t i = 0; i < xs.size(); ++i) ASSERT_FLOAT_EQ(rs[i], float(float(xs[i] * 2.0f) + 1.0f));
    // A unique but non-contiguous temporary is not reused (the output must be dense).
    auto w = Tensor<2>::random({33, 64}, Distribution::Normal(0, 1), dev);
    auto ws = w.to_vec<float>();
    auto s = (x * 1.0).transpose() + w;
    auto ss = s.to_vec<float>();
    for (int i = 0; i < 33; ++i)
        for (int j = 0; j < 64; ++j)
            ASSERT_FLOAT_EQ(ss[i * 64 + j], xs[j * 33 + i] + ws[i * 64 + j]) << i << "," << j;
}

TEST(InplaceReuse, IntegerAndBroadcastTemporaries) {
    Device dev = Device::cpu();
    auto a = Tensor<2, Int>::from_ints({{1, 2, 3}, {4, 5, 6}}, dev);
    auto row = Tensor<2, Int>::from_ints({{10, 20, 30}}, dev);
    auto t = a * 3;  // unique [2, 3] temporary
    auto r = std::move(t) + row;
    EXPECT_EQ(r.to_vec<int32_t>(), (std::vector<int32_t>{13, 26, 39, 22, 35, 48}));
    EXPECT_EQ(a.to_vec<int32_t>(), (std::vector<int32_t>{1, 2, 3, 4, 5, 6}));
    // A unique [1, 3] temporary broadcast to [2, 3] cannot hold the output.
    auto b = (row * 1) - a;
    EXPECT_EQ(b.to_vec<int32_t>(), (std::vector<int32_t>{9, 18, 27, 6, 15, 24}));
    EXPECT_EQ(row.to_vec<int32_t>(), (std::vector<int32_t>{10, 20, 30}));
}

// [B, N] op [1, N], [B, N] op [B, 1], [1, N] op [B, N] and sliced rows, against double loops.
TEST(BinaryFastPaths, BroadcastRowsColumnsAndSlices) {
    Device dev = Device::cpu();
    const int64_t B = 1500, N = 37;  // more than one parallel grain, odd row length
    auto m = Tensor<2>::random({std::size_t(B), std::size_t(N)}, Distribution::Normal(0, 1), dev);
    auto row = Tensor<2>::random({1, std::size_t(N)}, Distribution::Normal(0, 1), dev);
    auto col = Tensor<2>::random({std::size_t(B), 1}, Distribution::Normal(0, 1), dev);
    auto ms = m.to_vec<float>(), rs = row.to_vec<float>(), cs = col.to_vec<float>();
    std::vector<double> want(std::size_t(B * N));
    auto at = [&](int64_t i, int64_t j) { return std::size_t(i * N + j); };

    for (int64_t i = 0; i < B; ++i)
        for (int64_t j = 0; j < N; ++j) want[at(i, j)] = double(float(ms[at(i, j)] + rs[std::size_t(j)]));
    expect_near_all((m + row).to_vec<float>(), want, "[B, N] + [1, N]");
    for (int64_t i = 0; i < B; ++i)
        for (int64_t j = 0; j < N; ++j) want[at(i, j)] = double(float(rs[std::size_t(j)] - ms[at(i, j)]));
    expect_near_all((row - m).to_vec<float>(), want, "[1, N] - [B, N]");
    for (int64_t i = 0; i < B; ++i)
        for (int64_t j = 0; j < N; ++j) want[at(i, j)] = double(float(ms[at(i, j)] * cs[std::size_t(i)]));
    expect_near_all((m * col).to_vec<float>(), want, "[B, N] * [B, 1]");
    for (int64_t i = 0; i < B; ++i)
        for (int64_t j = 0; j < N; ++j) want[at(i, j)] = double(float(cs[std::size_t(i)] / ms[at(i, j)]));
    expect_near_all((col / m).to_vec<float>(), want, "[B, 1] / [B, N]");

    // Column slices: rows stay contiguous but are not adjacent (strides [N, 1]).
    auto left = m.slice({all, {0, 20}});
    auto right = m.slice({all, {17, 37}});
    std::vector<double> want2(std::size_t(B * 20)), want3(std::size_t(B * 20));
    for (int64_t i = 0; i < B; ++i)
        for (int64_t j = 0; j < 20; ++j) {
            float l = ms[at(i, j)], r = ms[at(i, 17 + j)];
            want2[std::size_t(i * 20 + j)] = double(float(l - r));
            want3[std::size_t(i * 20 + j)] = l > 0 ? double(l) : 0.0;
        }
    expect_near_all((left - right).to_vec<float>(), want2, "slice - slice");
    expect_near_all(activation::relu(left).to_vec<float>(), want3, "relu(slice)");
    // A flipped row (negative stride) takes the general strided path.
    auto flipped = m + row.flip({1});
    auto fs = flipped.to_vec<float>();
    for (int64_t i = 0; i < B; ++i)
        for (int64_t j = 0; j < N; ++j)
            ASSERT_FLOAT_EQ(fs[at(i, j)], ms[at(i, j)] + rs[std::size_t(N - 1 - j)]);
    // f64 and i32 bias rows.
    auto md = m.cast(DType::f64), rd = row.cast(DType::f64);
    auto sd = (md + rd).to_vec<double>();
    for (int64_t i = 0; i < B; ++i)
        for (int64_t j = 0; j < N; ++j)
            ASSERT_DOUBLE_EQ(sd[at(i, j)], double(ms[at(i, j)]) + double(rs[std::size_t(j)]));
    // Empty batches.
    auto e = Tensor<2>::zeros({0, std::size_t(N)}, dev) + row;
    EXPECT_EQ(e.dims(), (Shape<2>{0, std::size_t(N)}));
}

}  // namespace
