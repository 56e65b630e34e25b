// CUDA attention on the heads of a projection, read in place: q, k and v as [B, H, L, D] views of
// [B, L, H, D] tensors (what MultiHeadAttention hands the attention row), with ragged lengths, causal
// and not, in f32 and bf16. The strided path must give bit for bit what the same kernels give on
// contiguous copies (forward and all three gradients), and f32 must match the CPU. The output is laid
// out as q is, so that the transpose back to [B, L, H, Dv] is a view. The cast keeps a dense view's
// layout (a transposed matrix stays transposed) and stays exact on unaligned and non-dense views.
#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <cmath>

#include "cuda_test_util.hpp"
#include "reference.hpp"

namespace burn {
namespace cuda_attention_layout_test {

#ifdef BURN_HAVE_CUDA

std::vector<float> attn_values(const TensorAny& t) {
    return ops::into_data(ops::cast(t, DType::f32)).to_vec<float>();
}

struct Grads3 {
    std::vector<float> out, dq, dk, dv;
};

/// Attention of q, k, v given as [B, L, H, D] tensors on `dev` (autodiff), either through [B, H, L, D]
/// views (heads = true) or through contiguous [B, H, L, D] copies; out and the gradients of
/// sum(out * w), all as [B, H, L, *] values.
Grads3 attend(const Device& dev, DType dt, bool causal, bool heads, int64_t b, int64_t l, int64_t h,
              int64_t d, int64_t dv) {
    auto leaf = [&](const Dims& s, uint32_t seed) {
        TensorAny x = ops::cast(ops::from_data(ref::normal_data(s, seed), dev), dt);
        if (!heads) x = ops::from_data(ops::into_data(ops::swap_dims(x, 1, 2)), dev);  // [B, H, L, *]
        return Tensor<4>(ops::require_grad(x, true));
    };
    const Tensor<4> q = leaf({b, l, h, d}, 1), k = leaf({b, l, h, d}, 2), v = leaf({b, l, h, dv}, 3);
    auto view = [&](const Tensor<4>& x) { return heads ? ops::swap_dims(x.handle(), 1, 2) : x.handle(); };
    const Tensor<4> out(ops::attention(view(q), view(k), view(v), std::nullopt, causal));
    const Tensor<4> w(ops::cast(ops::from_data(ref::normal_data({b, h, l, dv}, 4), dev), dt));
    const auto grads = out.mul(w).sum().backward();
    auto grad = [&](const Tensor<4>& x) { return attn_values(view(x.grad(grads).value())); };
    return {attn_values(out.handle()), grad(q), grad(k), grad(v)};
}

TEST(CudaAttentionLayout, HeadViewsGiveTheContiguousResultsBitForBit) {
    if (!cuda_test::has_cuda()) GTEST_SKIP() << cuda_test::why_no_cuda();
    const Device dev = Device::cuda(0).autodiff();
    for (DType dt : {DType::f32, DType::bf16})
        for (bool causal : {false, true})
            for (int64_t d : {64, 40}) {  // 40: rows not 16-byte multiples in bf16 (the plain loads)
                SCOPED_TRACE(::testing::Message() << dt << " causal " << causal << " d " << d);
                const Grads3 strided = attend(dev, dt, causal, true, 2, 70, 3, d, d);
                const Grads3 dense = attend(dev, dt, causal, false, 2, 70, 3, d, d);
                EXPECT_EQ(strided.out, dense.out);
                EXPECT_EQ(strided.dq, dense.dq);
                EXPECT_EQ(strided.dk, dense.dk);
                EXPECT_EQ(strided.dv, dense.dv);
            }
}

TEST(CudaAttentionLayout, HeadViewsMatchTheCpuInF32) {
    if (!cuda_test::has_cuda()) GTEST_SKIP() << cuda_test::why_no_cuda();
    const Grads3 gpu = attend(Device::cuda(0).autodiff(), DType::f32, true, true, 2, 33, 2, 16, 24);
    const Grads3 cpu = attend(Device::cpu().autodiff(), DType::f32, true, true, 2, 33, 2, 16, 24);
    auto near = [](const std::vector<float>& a, const std::vector<float>& b) {
        ASSERT_EQ(a.size(), b.size());
        for (std::size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 2e-5 * (1 + std::abs(b[i]))) << i;
    };
    near(gpu.out, cpu.out);
    near(gpu.dq, cpu.dq);
    near(gpu.dk, cpu.dk);
    near(gpu.dv, cpu.dv);
}

TEST(CudaAttentionLayout, OutputOfHeadViewsTransposesBackWithoutACopy) {
    if (!cuda_test::has_cuda()) GTEST_SKIP() << cuda_test::why_no_cuda();
    const Device dev = Device::cuda(0);
    auto heads = [&](uint32_t seed) {
        return ops::swap_dims(
            ops::cast(ops::from_data(ref::normal_data({2, 10, 3, 8}, seed), dev), DType::bf16), 1, 2);
    };
    const TensorAny out = ops::attention(heads(1), heads(2), heads(3));
    EXPECT_EQ(cuda::tensor_strides(out.ref()), (Dims{240, 8, 24, 1}));  // [B, L, H, D] in memory
    EXPECT_EQ(cuda::tensor_strides(ops::swap_dims(out, 1, 2).ref()), (Dims{240, 24, 8, 1}));
    // contiguous inputs keep giving a contiguous output
    const TensorAny plain = ops::from_data(ref::normal_data({2, 3, 10, 8}, 5), dev);
    EXPECT_EQ(cuda::tensor_strides(ops::attention(plain, plain, plain).ref()), (Dims{240, 80, 8, 1}));
}

TEST(CudaCastLayout, DenseViewsKeepTheirLayoutOthersBecomeContiguous) {
    if (!cuda_test::has_cuda()) GTEST_SKIP() << cuda_test::why_no_cuda();
    const Device gpu = Device::cuda(0), cpu = Device::cpu();
    const TensorData data = ref::normal_data({101}, 9);
    for (DType to : {DType::bf16, DType::f16, DType::f64}) {
        SCOPED_TRACE(::testing::Message() << to);
        auto both = [&](auto view) {  // the same view cast on both devices
            const TensorAny g = ops::cast(view(ops::from_data(data, gpu)), to);
            const TensorAny c = ops::cast(view(ops::from_data(data, cpu)), to);
            EXPECT_EQ(attn_values(g), attn_values(c));
            return cuda::tensor_strides(g.ref());
        };
        // a transposed [10, 10] matrix (dense): stays transposed, the vectorised pass
        EXPECT_EQ(both([](TensorAny x) {
                      return ops::swap_dims(ops::reshape(ops::narrow(x, 0, 0, 100), {10, 10}), 0, 1);
                  }),
                  (Dims{1, 10}));
        // dense but one element off alignment: stays transposed, the element-wise pass
        EXPECT_EQ(both([](TensorAny x) {
                      return ops::swap_dims(ops::reshape(ops::narrow(x, 0, 1, 100), {4, 25}), 0, 1);
                  }),
                  (Dims{1, 25}));
        // every other column (not dense): contiguous
        EXPECT_EQ(both([](TensorAny x) {
                      return ops::slice_dim(ops::reshape(ops::narrow(x, 0, 0, 100), {10, 10}), 1,
                                            SliceArg(0, 10, 2));
                  }),
                  (Dims{5, 1}));
    }
}

#endif  // BURN_HAVE_CUDA

}  // namespace cuda_attention_layout_test
}  // namespace burn
