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

/// The cnn_train / cnn_infer_b1 model of WORKLOADS.md (421,642 parameters, like PyTorch's).
struct Cnn {
    nn::Conv2d conv1, conv2;
    nn::MaxPool2d pool;
    nn::Linear fc1, fc2;
    BURN_MODULE(Cnn, conv1, conv2, pool, fc1, fc2)

    static Cnn make(const Device& device) {
        return Cnn{nn::Conv2dConfig{{1, 32}, {3, 3}}.with_padding(nn::Explicit2d{1, 1}).init(device),
                   nn::Conv2dConfig{{32, 64}, {3, 3}}.with_padding(nn::Explicit2d{1, 1}).init(device),
                   nn::MaxPool2dConfig{{2, 2}, {2, 2}}.init(), nn::LinearConfig{3136, 128}.init(device),
                   nn::LinearConfig{128, 10}.init(device)};
    }
    Tensor<2> forward(const Tensor<4>& x) const {
        auto h = pool.forward(activation::relu(conv1.forward(x)));  // [b, 32, 14, 14]
        h = pool.forward(activation::relu(conv2.forward(h)));       // [b, 64, 7, 7]
        return fc2.forward(activation::relu(fc1.forward(h.flatten<2>(1, 3))));
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

Workload cnn_train() {
    Workload w;
    w.name = "cnn_train";
    w.make = [](const Context& ctx) -> std::optional<Case> {
        const std::size_t batch = ctx.gpu ? 512 : 64;
        auto device = ctx.device.autodiff();
        struct State {
            Cnn model;
            optim::Optimizer optimizer;
            Tensor<4> x;
            Tensor<1, Int> y;
        };
        auto s = std::make_shared<State>(State{Cnn::make(device), optim::AdamConfig{}.init(),
                                               Tensor<4>::random({batch, 1, 28, 28}, Distribution::Normal(0.0, 1.0), device),
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

Workload cnn_infer_b1() {
    Workload w;
    w.name = "cnn_infer_b1";
    w.warmup = 10;  // as torch_reference.py
    w.reps = 100;
    w.make = [](const Context& ctx) -> std::optional<Case> {
        struct State {
            Cnn model;
            Tensor<4> x;
        };
        auto s = std::make_shared<State>(
            State{Cnn::make(ctx.device), Tensor<4>::random({1, 1, 28, 28}, Distribution::Normal(0.0, 1.0), ctx.device)});
        Case c;
        c.step = [s] { (void)s->model.forward(s->x); };
        c.units = 1.0;
        c.unit = "sample";
        return c;
    };
    return w;
}

}  // namespace

void add_train_workloads(std::vector<Workload>& table) {
    table.push_back(mlp_train());
    table.push_back(cnn_train());
    table.push_back(cnn_infer_b1());
}

}  // namespace bench
