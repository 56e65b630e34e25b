// The public backward functions (tensor/module_backward.hpp) against float64 loops written from the
// definitions: conv2d's input, weight and bias gradients (stride, padding, dilation), avg_pool2d's with
// and without counting the padding, adaptive_avg_pool2d's, and max_pool2d's through its indices.
#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <burn/tensor/module_backward.hpp>
#include <cmath>
#include <vector>

using namespace burn;

namespace module_backward_test {

std::vector<float> values(std::size_t n, unsigned seed) {
    std::vector<float> v(n);
    for (auto& x : v) {
        seed = seed * 1103515245u + 12345u;
        x = static_cast<float>((seed >> 8) % 2001) / 1000.0f - 1.0f;
    }
    return v;
}

Tensor<4> tensor(const std::vector<float>& v, Dims shape) {
    return Tensor<4>::from_data(TensorData(v, shape));
}

void expect_near(const Tensor<4>& got, const std::vector<double>& want) {
    const auto g = got.to_data().to_vec<float>();
    ASSERT_EQ(g.size(), want.size());
    for (std::size_t i = 0; i < g.size(); ++i)
        EXPECT_NEAR(g[i], want[i], 1e-4 + 1e-4 * std::fabs(want[i])) << i;
}

TEST(ModuleBackward, Conv2dInputWeightAndBiasMatchLoops) {
    const int N = 2, C = 3, H = 6, W = 5, O = 4, K = 3, S = 2, P = 1, D = 1;
    const int OH = (H + 2 * P - D * (K - 1) - 1) / S + 1, OW = (W + 2 * P - D * (K - 1) - 1) / S + 1;
    const auto xv = values(N * C * H * W, 1), wv = values(O * C * K * K, 2), gv = values(N * O * OH * OW, 3);
    const auto x = tensor(xv, {N, C, H, W}), w = tensor(wv, {O, C, K, K}), g = tensor(gv, {N, O, OH, OW});
    ConvOptions<2> opt{{S, S}, {P, P}, {D, D}, 1, std::nullopt};
    std::vector<double> dx(xv.size(), 0.0), dw(wv.size(), 0.0), db(O, 0.0);
    for (int n = 0; n < N; ++n)
        for (int o = 0; o < O; ++o)
            for (int oh = 0; oh < OH; ++oh)
                for (int ow = 0; ow < OW; ++ow) {
                    const double gg = gv[((n * O + o) * OH + oh) * OW + ow];
                    db[o] += gg;
                    for (int c = 0; c < C; ++c)
                        for (int i = 0; i < K; ++i)
                            for (int j = 0; j < K; ++j) {
                                const int h = oh * S - P + i * D, ww = ow * S - P + j * D;
                                if (h < 0 || h >= H || ww < 0 || ww >= W) continue;
                                const int xi = ((n * C + c) * H + h) * W + ww,
                                          wi = ((o * C + c) * K + i) * K + j;
                                dw[wi] += gg * xv[xi];
                                dx[xi] += gg * wv[wi];
                            }
                }
    expect_near(tensor::module::conv2d_x_backward(x, w, g, opt), dx);
    expect_near(tensor::module::conv2d_weight_backward(x, w, g, opt), dw);
    const auto b =
        tensor::module::conv2d_bias_backward(x, Tensor<1>::zeros({O}), g).to_data().to_vec<float>();
    for (int o = 0; o < O; ++o) EXPECT_NEAR(b[o], db[o], 1e-4);
    // A gradient of the wrong shape names the op and the expected shape.
    try {
        tensor::module::conv2d_weight_backward(x, w, tensor(values(N * O * 4, 4), {N, O, 2, 2}), opt);
        FAIL() << "a wrong output_grad shape was accepted";
    } catch (const ShapeError& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("[conv2d_weight_backward]"), std::string::npos) << m;
        EXPECT_NE(m.find("[2, 4, 3, 3]"), std::string::npos) << m;
    }
}

TEST(ModuleBackward, PoolsMatchLoops) {
    const int N = 1, C = 2, H = 5, W = 6, K = 3, S = 2, P = 1;
    const int OH = (H + 2 * P - K) / S + 1, OW = (W + 2 * P - K) / S + 1;
    const auto xv = values(N * C * H * W, 5), gv = values(N * C * OH * OW, 6);
    const auto x = tensor(xv, {N, C, H, W}), g = tensor(gv, {N, C, OH, OW});
    for (bool include_pad : {true, false}) {
        std::vector<double> dx(xv.size(), 0.0);
        for (int c = 0; c < N * C; ++c)
            for (int oh = 0; oh < OH; ++oh)
                for (int ow = 0; ow < OW; ++ow) {
                    int count = 0;
                    for (int i = 0; i < K; ++i)
                        for (int j = 0; j < K; ++j) {
                            const int h = oh * S - P + i, w = ow * S - P + j;
                            count += include_pad || (h >= 0 && h < H && w >= 0 && w < W);
                        }
                    for (int i = 0; i < K; ++i)
                        for (int j = 0; j < K; ++j) {
                            const int h = oh * S - P + i, w = ow * S - P + j;
                            if (h >= 0 && h < H && w >= 0 && w < W)
                                dx[(c * H + h) * W + w] += gv[(c * OH + oh) * OW + ow] / count;
                        }
                }
        expect_near(tensor::module::avg_pool2d_backward(x, g, {K, K}, {S, S}, {P, P}, include_pad), dx);
    }
    // adaptive 5 x 6 -> 2 x 4: windows [floor(i * in / out), ceil((i + 1) * in / out)).
    const int AH = 2, AW = 4;
    const auto av = values(N * C * AH * AW, 7);
    std::vector<double> adx(xv.size(), 0.0);
    for (int c = 0; c < N * C; ++c)
        for (int i = 0; i < AH; ++i)
            for (int j = 0; j < AW; ++j) {
                const int h0 = i * H / AH, h1 = ((i + 1) * H + AH - 1) / AH;
                const int w0 = j * W / AW, w1 = ((j + 1) * W + AW - 1) / AW;
                for (int h = h0; h < h1; ++h)
                    for (int w = w0; w < w1; ++w)
                        adx[(c * H + h) * W + w] += av[(c * AH + i) * AW + j] / ((h1 - h0) * (w1 - w0));
            }
    expect_near(tensor::module::adaptive_avg_pool2d_backward(x, tensor(av, {N, C, AH, AW})), adx);
    // max: each gradient goes to its window's largest input (found here from x, not from the indices).
    auto [y, idx] = tensor::module::max_pool2d_with_indices(x, {K, K}, {S, S}, {P, P});
    std::vector<double> mdx(xv.size(), 0.0);
    for (int c = 0; c < N * C; ++c)
        for (int oh = 0; oh < OH; ++oh)
            for (int ow = 0; ow < OW; ++ow) {
                int best = -1;
                for (int i = 0; i < K; ++i)
                    for (int j = 0; j < K; ++j) {
                        const int h = oh * S - P + i, w = ow * S - P + j;
                        if (h < 0 || h >= H || w < 0 || w >= W) continue;
                        const int k = (c * H + h) * W + w;
                        if (best < 0 || xv[k] > xv[best]) best = k;
                    }
                mdx[best] += gv[(c * OH + oh) * OW + ow];
            }
    expect_near(
        tensor::module::max_pool2d_with_indices_backward(x, {K, K}, {S, S}, {P, P}, {1, 1}, false, g, idx),
        mdx);
    EXPECT_THROW(tensor::module::avg_pool2d_backward(x, g, {K, K}, {1, 1}, {P, P}), ShapeError);
}

}  // namespace module_backward_test
