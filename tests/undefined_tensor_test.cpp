// Every public entry point on an undefined (default-constructed) tensor throws a burn::Error saying
// so, and so does forward on a default-constructed module (libtorch's "Accessing empty
// ModuleHolder"); before, dims() and Linear{}.forward dereferenced a null tensor and segfaulted.
#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <string>

namespace burn {
namespace {

template <class F>
void expect_undefined(F&& f, const char* what) {
    try {
        f();
        ADD_FAILURE() << what << ": no error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("undefined (default-constructed)"), std::string::npos)
            << what << ": " << e.what();
    }
}
#define EXPECT_UNDEFINED(...) expect_undefined([&] { (void)(__VA_ARGS__); }, #__VA_ARGS__)

TEST(UndefinedTensor, PropertiesThrowInsteadOfCrashing) {
    Tensor<2> t;
    EXPECT_FALSE(t.defined());
    EXPECT_UNDEFINED(t.dims());
    EXPECT_UNDEFINED(t.shape());
    EXPECT_UNDEFINED(t.dtype());
    EXPECT_UNDEFINED(t.device());
    EXPECT_UNDEFINED(t.numel());
    EXPECT_UNDEFINED(t.handle().rank());
    EXPECT_UNDEFINED(t.into_data());
    EXPECT_UNDEFINED(t.to_vec());
    EXPECT_UNDEFINED(t.into_scalar());
    EXPECT_EQ(t.to_string(), "Tensor { undefined }");  // printing is harmless, like libtorch
}

TEST(UndefinedTensor, EveryOpThrows) {
    Tensor<2> u;
    const auto x = Tensor<2>::ones({2, 2});
    const auto i = Tensor<1, Int>::from_ints({0, 1});
    EXPECT_UNDEFINED(u.add(x));
    EXPECT_UNDEFINED(x.add(u));
    EXPECT_UNDEFINED(u + 1.0);
    EXPECT_UNDEFINED(2.0 - u);
    EXPECT_UNDEFINED(-u);
    EXPECT_UNDEFINED(u.exp());
    EXPECT_UNDEFINED(u.powi_scalar(2));
    EXPECT_UNDEFINED(u.clamp(0, 1));
    EXPECT_UNDEFINED(u.equal_elem(1.0));
    EXPECT_UNDEFINED(u.is_nan());
    EXPECT_UNDEFINED(u.mask_fill(x.equal_elem(1.0), 0.0));
    EXPECT_UNDEFINED(x.mask_where(x.equal_elem(1.0), u));
    EXPECT_UNDEFINED(u.sum());
    EXPECT_UNDEFINED(u.mean_dim(0));
    EXPECT_UNDEFINED(u.max_dim_with_indices(1));
    EXPECT_UNDEFINED(u.argmax(1));
    EXPECT_UNDEFINED(u.var(0));
    EXPECT_UNDEFINED(u.any());
    EXPECT_UNDEFINED(u.cumsum(0));
    EXPECT_UNDEFINED(u.sort(0));
    EXPECT_UNDEFINED(u.topk(1, 0));
    EXPECT_UNDEFINED(u.matmul(x));
    EXPECT_UNDEFINED(x.matmul(u));
    EXPECT_UNDEFINED(u.reshape<1>({-1}));
    EXPECT_UNDEFINED(u.transpose());
    EXPECT_UNDEFINED(u.permute({1, 0}));
    EXPECT_UNDEFINED(u.flip({0}));
    EXPECT_UNDEFINED(u.flatten<1>(0, 1));
    EXPECT_UNDEFINED(u.unsqueeze<3>());
    EXPECT_UNDEFINED(u.unsqueeze_dim(0));
    EXPECT_UNDEFINED(u.squeeze_dim(0));
    EXPECT_UNDEFINED(u.expand(Shape<2>{2, 2}));
    EXPECT_UNDEFINED(u.repeat_dim(0, 2));
    EXPECT_UNDEFINED(u.narrow(0, 0, 1));
    EXPECT_UNDEFINED(u.chunk(2, 0));
    EXPECT_UNDEFINED(u.split(1, 0));
    EXPECT_UNDEFINED(Tensor<2>::cat({x, u}, 0));
    EXPECT_UNDEFINED(Tensor<2>::stack({x, u}, 0));
    EXPECT_UNDEFINED(u.slice({{0, 1}}));
    EXPECT_UNDEFINED(u.slice_assign({{0, 1}}, x));
    EXPECT_UNDEFINED(x.slice_assign({{0, 2}}, u));
    EXPECT_UNDEFINED(u.tril());
    EXPECT_UNDEFINED(u.select(0, i));
    EXPECT_UNDEFINED(x.select(0, Tensor<1, Int>{}));
    EXPECT_UNDEFINED(u.select_assign(0, i, x));
    EXPECT_UNDEFINED(u.gather(0, Tensor<2, Int>::zeros({2, 2})));
    EXPECT_UNDEFINED(u.scatter(0, Tensor<2, Int>::zeros({2, 2}), x));
    EXPECT_UNDEFINED(Tensor<1, Int>{}.one_hot(3));
    EXPECT_UNDEFINED(u.zeros_like());
    EXPECT_UNDEFINED(u.random_like(Distribution::Default));
    EXPECT_UNDEFINED(u.to_device(Device::cpu()));
    EXPECT_UNDEFINED(u.cast(DType::f64));
    EXPECT_UNDEFINED(u.int_());
    EXPECT_UNDEFINED(u.bool_());
    // The autodiff entry points (src/autodiff/backward.cpp) have their own message.
    EXPECT_THROW((void)u.require_grad(), Error);
    EXPECT_THROW((void)u.detach(), Error);
    EXPECT_THROW((void)u.backward(), Error);
    EXPECT_UNDEFINED(u.inner());
    EXPECT_UNDEFINED(activation::relu(u));
    EXPECT_UNDEFINED(activation::softmax(u, 1));
}

TEST(UndefinedModule, ForwardOnADefaultConstructedLayerThrows) {
    const Device dev = Device::cpu();
    EXPECT_UNDEFINED(nn::Linear{}.forward(Tensor<2>::ones({2, 3}, dev)));
    EXPECT_UNDEFINED(nn::Conv2d{}.forward(Tensor<4>::ones({1, 1, 4, 4}, dev)));
    EXPECT_UNDEFINED(nn::Embedding{}.forward(Tensor<2, Int>::zeros({1, 2}, dev)));
    EXPECT_UNDEFINED(nn::LayerNorm{}.forward(Tensor<2>::ones({2, 3}, dev)));
    EXPECT_UNDEFINED(nn::BatchNorm{}.forward(Tensor<2>::ones({2, 3}, dev)));
    EXPECT_UNDEFINED(nn::Lstm{}.forward(Tensor<3>::ones({1, 2, 3}, dev)));
    const auto x = Tensor<3>::ones({1, 2, 4}, dev);
    // MultiHeadAttention checks d_model (0 when default-constructed) first.
    EXPECT_THROW((void)nn::MultiHeadAttention{}.forward(nn::MhaInput::self_attn(x)), Error);
    EXPECT_UNDEFINED(
        nn::MultiHeadAttention{}.forward(nn::MhaInput::self_attn(Tensor<3>::ones({1, 2, 0}, dev))));
}

}  // namespace
}  // namespace burn
