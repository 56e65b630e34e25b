// Training-step workloads of WORKLOADS.md: mlp_train (forward, cross-entropy, backward, Adam).
#include <memory>
#include <random>

#include "harness.hpp"

namespace bench {

using namespace burn;

namespace {

struct Mlp {
    nn::Linear l1, l2, l3;
    BURN_MODULE(Mlp, l1, l2, l3)

    Tensor<2> forward(const Tensor<2>& x) const {
        return l3.forward(activation::relu(l2.forward(activation::relu(l1.forward(x)))));
    }
};

Tensor<1, Int> random_classes(std::size_t n, int classes, const Device& device) {
    std::mt19937 gen(42);
    std::uniform_int_distribution<int32_t> pick(0, classes - 1);
    std::vector<int32_t> v(n);
    for (auto& c : v) c = pick(gen);
    return Tensor<1, Int>::from_data(TensorData(v, Dims{static_cast<int64_t>(n)}), device);
}

Workload mlp_train() {
    Workload w;
    w.name = "mlp_train";
    w.make = [](const Context& ctx) -> std::optional<Case> {
        const std::size_t batch = 128;
        auto device = ctx.device.autodiff();
        struct State {
            Mlp model;
            optim::Optimizer optimizer;
            Tensor<2> x;
            Tensor<1, Int> y;
        };
        auto s = std::make_shared<State>(State{
            Mlp{nn::LinearConfig{784, 512}.init(device), nn::LinearConfig{512, 512}.init(device),
                nn::LinearConfig{512, 10}.init(device)},
            optim::AdamConfig{}.init(), Tensor<2>::random({batch, 784}, Distribution::Normal(0.0, 1.0), device),
            random_classes(batch, 10, device)});
        Case c;
        c.step = [s] {
            auto loss = nn::loss::CrossEntropyLoss().forward(s->model.forward(s->x), s->y);
            auto grads = optim::GradientsParams::from_grads(loss.backward(), s->model);
            s->model = s->optimizer.step(1e-3, std::move(s->model), grads);
        };
        c.units = double(batch);
        c.unit = "sample";
        return c;
    };
    return w;
}

}  // namespace

void add_train_workloads(std::vector<Workload>& table) { table.push_back(mlp_train()); }

}  // namespace bench
