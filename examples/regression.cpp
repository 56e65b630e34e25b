// The seed's hand-written training loop: linear regression with Adam on an autodiff device.
// Learns y = 2 x0 - 3 x1 + 0.5 from noisy samples and prints what it did.
#include <burn/burn.hpp>
#include <cstdio>

using namespace burn;

struct Model {
    nn::Linear layer;
    explicit Model(const Device& device) : layer(nn::LinearConfig{2, 1}.init(device)) {}
    Tensor<2> forward(const Tensor<2>& x) const { return layer.forward(x); }
    BURN_MODULE(Model, layer)
};

int main() {
    auto device = Device().autodiff();  // .autodiff() is what makes gradients available
    device.seed(42);
    const std::size_t n = 4096, batch = 64;
    auto x = Tensor<2>::random({n, 2}, Distribution::Normal(0, 1), device);
    auto w_true = Tensor<2>::from_floats({{2.0}, {-3.0}}, device);
    auto noise = Tensor<2>::random({n, 1}, Distribution::Normal(0, 0.1), device);
    auto y = x.matmul(w_true) + 0.5 + noise;

    Model model(device);
    auto optimizer = optim::AdamConfig{}.init();
    std::printf("training Linear(2 -> 1) on %zu samples, batch %zu, Adam lr 0.05, %s\n", n, batch,
                device.str().c_str());
    for (int epoch = 1; epoch <= 10; ++epoch) {
        double total = 0;
        for (std::size_t start = 0; start < n; start += batch) {
            auto xb = x.slice({{static_cast<int64_t>(start), static_cast<int64_t>(start + batch)}});
            auto yb = y.slice({{static_cast<int64_t>(start), static_cast<int64_t>(start + batch)}});
            auto loss = nn::loss::MseLoss().forward(model.forward(xb), yb, nn::loss::Reduction::Mean);
            total += loss.into_scalar();
            // Gradients are matched back to the module's parameters by path.
            auto grads = optim::GradientsParams::from_grads(loss.backward(), model);
            model = optimizer.step(0.05, std::move(model), grads);
        }
        std::printf("epoch %2d  mse %.5f\n", epoch, total / static_cast<double>(n / batch));
    }
    auto w = model.layer.weight.val().to_vec<float>();
    float b = model.layer.bias->val().into_scalar();
    std::printf("learned y = %.3f x0 %+.3f x1 %+.3f (true: 2 x0 - 3 x1 + 0.5)\n", w[0], w[1], b);
    bool ok = std::abs(w[0] - 2) < 0.05 && std::abs(w[1] + 3) < 0.05 && std::abs(b - 0.5) < 0.05;
    std::printf("%s\n", ok ? "converged" : "did not converge");
    return ok ? 0 : 1;
}
