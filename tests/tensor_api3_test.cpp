// The typed API of burn 0.22's functions added for parity: iter_dim, max_abs_dims, argtopk,
// linalg::{outer_dim, vector_normalize, lp_norm, l0_norm, l1_norm, l2_norm}, grid::meshgrid_stack and the
// functional module ops embedding, batch_norm and batch_norm_train, against hand-worked values (burn's
// documented examples where it has them) and the nn modules they replace. The op database
// (op_db_api_parity.cpp, op_db_api_module_fn.cpp) sweeps dtypes, strides, devices and gradients.
#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <cmath>
#include <string>
#include <vector>

using namespace burn;

namespace tensor_api3_test {

template <class F>
std::string error_of(F f) {
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

TEST(TensorApi3, IterDimWalksSlicesForwardsAndBackwards) {
    auto x = Tensor<2>::from_floats({{1, 2, 3}, {4, 5, 6}});
    std::vector<std::vector<float>> rows;
    for (Tensor<2> row : x.iter_dim(0)) {
        EXPECT_EQ(row.dims(), (Shape<2>{1, 3}));
        rows.push_back(row.to_vec<float>());
    }
    EXPECT_EQ(rows, (std::vector<std::vector<float>>{{1, 2, 3}, {4, 5, 6}}));
    auto cols = x.iter_dim(-1);
    EXPECT_EQ(cols.size(), 3);
    std::vector<float> backwards;
    for (auto it = cols.rbegin(); it != cols.rend(); ++it) {
        EXPECT_EQ((*it).dims(), (Shape<2>{2, 1}));
        backwards.push_back((*it).to_vec<float>()[1]);
    }
    EXPECT_EQ(backwards, (std::vector<float>{6, 5, 4}));
    EXPECT_EQ(cols[-1].to_vec<float>(), (std::vector<float>{3, 6}));
    // a strided view iterates as its values; the slices cat back into the tensor
    auto t = x.transpose();
    std::vector<Tensor<2>> pieces(t.iter_dim(0).begin(), t.iter_dim(0).end());
    EXPECT_EQ(Tensor<2>::cat(pieces, 0).to_vec<float>(), (std::vector<float>{1, 4, 2, 5, 3, 6}));
    // an empty dim gives nothing; Int and Bool tensors iterate too
    auto empty = Tensor<2>::zeros({0, 3});
    EXPECT_TRUE(empty.iter_dim(0).empty());
    EXPECT_TRUE(empty.iter_dim(0).begin() == empty.iter_dim(0).end());
    auto ints = Tensor<1, Int>::from_ints({7, 8});
    EXPECT_EQ(ints.iter_dim(0)[1].to_vec<int32_t>(), (std::vector<int32_t>{8}));
    EXPECT_NE(error_of([&] { (void)x.iter_dim(2); }).find("[iter_dim] dim 2"), std::string::npos);
    EXPECT_NE(error_of([&] { (void)x.iter_dim(0)[2]; }).find("[iter_dim] index 2"), std::string::npos);
    EXPECT_NE(error_of([] { (void)Tensor<2>().iter_dim(0); }).find("undefined"), std::string::npos);
}

TEST(TensorApi3, IterDimGradientsReachTheSource) {
    auto ad = Device().autodiff();
    auto x = Tensor<2>::from_floats({{1, 2}, {3, 4}}, ad).require_grad();
    Tensor<2> total = Tensor<2>::zeros({1, 2}, ad);
    int k = 1;
    for (Tensor<2> row : x.iter_dim(0)) total = total + row * static_cast<double>(k++);
    auto grads = total.sum().backward();
    EXPECT_EQ(x.grad(grads).value().to_vec<float>(), (std::vector<float>{1, 1, 2, 2}));
}

TEST(TensorApi3, MaxAbsDimsAndArgtopk) {
    // burn's max_abs_dims example
    auto x = Tensor<2>::from_floats({{1, -2, 3}, {5, 9, 6}});
    auto m = x.max_abs_dims({0, 1});
    EXPECT_EQ(m.dims(), (Shape<2>{1, 1}));
    EXPECT_EQ(m.to_vec<float>(), (std::vector<float>{9}));
    auto y = Tensor<2>::from_floats({{1, -7, 3}, {-5, 2, 6}});
    EXPECT_EQ(y.max_abs_dims({0}).to_vec<float>(), (std::vector<float>{5, 7, 6}));
    EXPECT_EQ(y.max_abs_dims({}).to_vec<float>(), (std::vector<float>{1, 7, 3, 5, 2, 6}));
    auto yi = Tensor<2, Int>::from_ints({{1, -7, 3}, {-5, 2, 6}});
    EXPECT_EQ(yi.max_abs_dims({1}).to_vec<int32_t>(), (std::vector<int32_t>{7, 6}));
    EXPECT_NE(error_of([&] { (void)y.max_abs_dims({1, -1}); }).find("[max_abs_dims]"), std::string::npos);

    auto s = Tensor<2>::from_floats({{3, 1, 4, 1, 5}, {9, 2, 6, 5, 3}});
    auto idx = s.argtopk(3, 1);
    EXPECT_EQ(idx.dims(), (Shape<2>{2, 3}));
    EXPECT_EQ(idx.to_vec<int32_t>(), (std::vector<int32_t>{4, 2, 0, 0, 2, 3}));
    EXPECT_EQ(idx.to_vec<int32_t>(), s.topk_with_indices(3, 1).second.to_vec<int32_t>());
    EXPECT_EQ(s.argtopk(1, 0).to_vec<int32_t>(), (std::vector<int32_t>{1, 1, 1, 1, 0}));
    EXPECT_NE(error_of([&] { (void)s.argtopk(6, 1); }).find("[argtopk] k = 6"), std::string::npos);
}

TEST(TensorApi3, OuterDimBatchesOuterProducts) {
    // burn's outer_batch example: [2, 2] x [2, 3] -> [2, 2, 3]
    auto x = Tensor<2>::from_floats({{1, 2}, {3, 4}});
    auto y = Tensor<2>::from_floats({{5, 6, 7}, {8, 9, 10}});
    auto o = linalg::outer_dim(x, y, -1);
    EXPECT_EQ(o.dims(), (Shape<3>{2, 2, 3}));
    EXPECT_EQ(o.to_vec<float>(), (std::vector<float>{5, 6, 7, 10, 12, 14, 24, 27, 30, 32, 36, 40}));
    // along dim 0: out[i, j, b] = x[i, b] * y[j, b]
    auto a = Tensor<2>::from_floats({{1, 2}, {3, 4}, {5, 6}});
    auto b = Tensor<2>::from_floats({{1, -1}, {2, 0}});
    auto o0 = linalg::outer_dim(a, b, 0);
    EXPECT_EQ(o0.dims(), (Shape<3>{3, 2, 2}));
    EXPECT_EQ(o0.to_vec<float>(), (std::vector<float>{1, -2, 2, 0, 3, -4, 6, 0, 5, -6, 10, 0}));
    // rank 1 is outer
    auto v = Tensor<1>::from_floats({1, 2});
    auto w = Tensor<1>::from_floats({3, 4, 5});
    EXPECT_EQ(linalg::outer_dim(v, w, 0).to_vec<float>(), linalg::outer(v, w).to_vec<float>());
    auto vi = Tensor<1, Int>::from_ints({2, 3});
    EXPECT_EQ(linalg::outer_dim(vi, vi, 0).to_vec<int32_t>(), (std::vector<int32_t>{4, 6, 6, 9}));
    EXPECT_NE(error_of([&] { (void)linalg::outer_dim(x, y, 2); }).find("[outer_dim]"), std::string::npos);
}

TEST(TensorApi3, NormsAndVectorNormalize) {
    auto x = Tensor<2>::from_floats({{3, -4, 0}, {0, 0, 0}});
    EXPECT_EQ(linalg::l1_norm(x, 1).to_vec<float>(), (std::vector<float>{7, 0}));
    EXPECT_EQ(linalg::l2_norm(x, 1).to_vec<float>(), (std::vector<float>{5, 0}));
    EXPECT_EQ(linalg::l1_norm(x, 0).to_vec<float>(), (std::vector<float>{3, 4, 0}));
    EXPECT_EQ(linalg::l0_norm(x, 1).to_vec<float>(), (std::vector<float>{2, 0}));
    EXPECT_EQ(linalg::l0_norm(x, 0).to_vec<float>(), (std::vector<float>{1, 1, 0}));
    EXPECT_NEAR(linalg::lp_norm(x, 3, 1).to_vec<float>()[0], std::cbrt(91.0), 1e-5);
    EXPECT_EQ(linalg::lp_norm(x, 2, 1).to_vec<float>(), linalg::l2_norm(x, 1).to_vec<float>());
    EXPECT_EQ(linalg::lp_norm(x, 1, 0).to_vec<float>(), linalg::l1_norm(x, 0).to_vec<float>());

    // x / max(norm, eps): the zero row stays 0
    auto n = linalg::vector_normalize(x, linalg::Norm::L2(), 1, 1e-12);
    EXPECT_EQ(n.dims(), (Shape<2>{2, 3}));
    auto nv = n.to_vec<float>();
    const std::vector<float> want{0.6f, -0.8f, 0, 0, 0, 0};
    for (std::size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(nv[i], want[i], 1e-6) << i;
    EXPECT_EQ(linalg::vector_normalize(x, linalg::Norm::L1(), 1, 1e-12).to_vec<float>()[0], 3.0f / 7.0f);
    EXPECT_EQ(linalg::vector_normalize(x, linalg::Norm::LInf(), 1, 1e-12).to_vec<float>()[1], -1.0f);
    EXPECT_EQ(linalg::vector_normalize(x, 2.0, 1, 10.0).to_vec<float>()[1], -0.4f);  // eps above the norm
    EXPECT_NE(error_of([&] { (void)linalg::vector_normalize(x, 2.0, 1, -1.0); }).find("[vector_normalize]"),
              std::string::npos);
    // the gradient of a normalised vector is orthogonal to it
    auto ad = Device().autodiff();
    auto v = Tensor<1>::from_floats({3, 4}, ad).require_grad();
    auto u = linalg::vector_normalize(v, 2.0, 0, 1e-12);
    auto g = v.grad((u * Tensor<1>::from_floats({1, 0}, ad)).sum().backward()).value().to_vec<float>();
    EXPECT_NEAR(g[0], 16.0 / 125.0, 1e-6);
    EXPECT_NEAR(g[1], -12.0 / 125.0, 1e-6);
}

TEST(TensorApi3, MeshgridStack) {
    auto x = Tensor<1>::from_floats({1, 2, 3});
    auto y = Tensor<1>::from_floats({4, 5});
    auto first = grid::meshgrid_stack<2>({x, y});
    EXPECT_EQ(first.dims(), (Shape<3>{2, 3, 2}));
    EXPECT_EQ(first.to_vec<float>(), (std::vector<float>{1, 1, 2, 2, 3, 3, 4, 5, 4, 5, 4, 5}));
    auto last = grid::meshgrid_stack<2>({x, y}, grid::IndexPos::Last);
    EXPECT_EQ(last.dims(), (Shape<3>{3, 2, 2}));
    EXPECT_EQ(last.to_vec<float>(), (std::vector<float>{1, 4, 1, 5, 2, 4, 2, 5, 3, 4, 3, 5}));
    // Int coordinates: the last form is cartesian_grid
    auto a = Tensor<1, Int>::arange(0, 2);
    auto b = Tensor<1, Int>::arange(0, 3);
    auto coords = grid::meshgrid_stack<2, Int>({a, b}, grid::IndexPos::Last);
    auto cartesian = Tensor<2, Int>::cartesian_grid({2, 3});
    EXPECT_EQ(coords.to_vec<int32_t>(), cartesian.to_vec<int32_t>());
}

TEST(TensorApi3, FunctionalEmbeddingAndBatchNormMatchTheModules) {
    Device d;
    auto emb = nn::EmbeddingConfig{4, 3}.init(d);
    auto idx = Tensor<2, Int>::from_ints({{3, 0}, {1, 1}}, d);
    auto y = tensor::module::embedding(emb.weight.val(), idx);
    EXPECT_EQ(y.dims(), (Shape<3>{2, 2, 3}));
    EXPECT_EQ(y.to_vec<float>(), emb.forward(idx).to_vec<float>());
    auto w = emb.weight.val().to_vec<float>();
    EXPECT_EQ(y.to_vec<float>()[0], w[9]);  // row 3
    EXPECT_NE(error_of([&] {
                  (void)ops::embedding(emb.weight.val().handle(), emb.weight.val().handle());
              }).find("[embedding] indices must be an Int tensor"),
              std::string::npos);

    // batch_norm with running statistics is the module's evaluation
    auto bn = nn::BatchNormConfig{2}.init(d);
    bn.running_mean.set(Tensor<1>::from_floats({1, -1}, d));
    bn.running_var.set(Tensor<1>::from_floats({4, 0.25}, d));
    bn.gamma = Param<Tensor<1>>(Tensor<1>::from_floats({2, 1}, d));
    bn.beta = Param<Tensor<1>>(Tensor<1>::from_floats({0, 10}, d));
    auto x = Tensor<3>::from_floats({{{3, 1}, {0, -1}}, {{1, 5}, {-2, 1}}}, d);
    auto f = tensor::module::batch_norm(x, bn.gamma.val(), bn.beta.val(), bn.running_mean.val(),
                                        bn.running_var.val(), 0.0);
    EXPECT_EQ(f.to_vec<float>(), (std::vector<float>{2, 0, 12, 10, 0, 4, 8, 14}));
    auto m = nn::BatchNormConfig{2, 1e-5, 0.0}.init(d);
    m.running_mean = bn.running_mean;
    m.running_var = bn.running_var;
    m.gamma = bn.gamma;
    m.beta = bn.beta;
    auto fm =
        tensor::module::batch_norm(x, m.gamma.val(), m.beta.val(), m.running_mean.val(), m.running_var.val());
    const auto got = fm.to_vec<float>(), ref = m.forward(x).to_vec<float>();
    for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], ref[i], 1e-6) << i;
    EXPECT_NE(error_of([&] {
                  (void)tensor::module::batch_norm(x, Tensor<1>::ones({3}, d), bn.beta.val(),
                                                   bn.running_mean.val(), bn.running_var.val());
              }).find("[batch_norm] gamma"),
              std::string::npos);
}

TEST(TensorApi3, BatchNormTrainGivesDetachedStatistics) {
    auto ad = Device().autodiff();
    // channel 0 values {1, 3, 5, 7}: mean 4, biased var 5; channel 1 {2, 2, 2, 2}
    auto x = Tensor<3>::from_floats({{{1, 3}, {2, 2}}, {{5, 7}, {2, 2}}}, ad).require_grad();
    auto gamma = Tensor<1>::ones({2}, ad).require_grad();
    auto beta = Tensor<1>::zeros({2}, ad);
    auto r = tensor::module::batch_norm_train(x, gamma, beta, 1e-5);
    EXPECT_EQ(r.mean.to_vec<float>(), (std::vector<float>{4, 2}));
    EXPECT_EQ(r.variance.to_vec<float>(), (std::vector<float>{5, 0}));
    EXPECT_FALSE(r.mean.is_require_grad());
    EXPECT_NEAR(r.output.to_vec<float>()[0], -3 / std::sqrt(5 + 1e-5), 1e-5);
    // the module's training forward gives the same output
    auto bn = nn::BatchNormConfig{2}.init(ad);
    const auto got = r.output.to_vec<float>(), ref = bn.forward(x).to_vec<float>();
    for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], ref[i], 1e-6) << i;
    // gradients flow through the batch statistics: the sum of a normalised channel is constant
    auto grads = r.output.sum().backward();
    for (float gx : x.grad(grads).value().to_vec<float>()) EXPECT_NEAR(gx, 0.0f, 1e-5);
    EXPECT_TRUE(gamma.grad(grads).has_value());
}

}  // namespace tensor_api3_test
