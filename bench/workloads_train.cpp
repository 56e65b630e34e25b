// Training-step and inference workloads of WORKLOADS.md: mlp_train and cnn_train (forward,
// cross-entropy, backward, Adam), cnn_infer_b1 (the cnn_train model's forward, no autodiff).
// The models are torch_reference.py's Mlp and Cnn, parameter for parameter.
#include <memory>
#include <random>

#include "harness.hpp"
#include "workloads_util.hpp"

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

/// torch_reference.py's Cnn: Conv2d(1,32,3,pad 1)-ReLU-MaxPool2-Conv2d(32,64,3,pad 1)-ReLU-MaxPool2-
/// Linear(3136,128)-ReLU-Linear(128,10).
struct Cnn {
    nn::Conv2d c1, c2;
    nn::MaxPool2d pool;
    nn::Linear fc1, fc2;
    BURN_MODULE(Cnn, c1, c2, pool, fc1, fc2)

    static Cnn init(const Device& device) {
        auto conv = [&](std::size_t in, std::size_t out) {
            return nn::Conv2dConfig{{in, out}, {3, 3}}.with_padding(nn::Explicit2d{1, 1}).init(device);
        };
        return Cnn{conv(1, 32), conv(32, 64), nn::MaxPool2dConfig{{2, 2}, {2, 2}}.init(),
                   nn::LinearConfig{64 * 7 * 7, 128}.init(device), nn::LinearConfig{128, 10}.init(device)};
    }
    /// torch: 32*9+32 + 64*32*9+64 + 3136*128+128 + 128*10+10
    static constexpr std::size_t kTorchParams = 320 + 18496 + 401536 + 1290;

    Tensor<2> forward(const Tensor<4>& x) const {
        auto h = pool.forward(activation::relu(c1.forward(x)));
        h = pool.forward(activation::relu(c2.forward(h)));
        return fc2.forward(activation::relu(fc1.forward(h.flatten<2>(1, 3))));
    }
};

/// One training step of a classifier: forward, cross-entropy, backward, Adam (torch's defaults).
template <class Model, class Input>
Case train_case(Model model, Input x, Tensor<1, Int> y, double lr, std::size_t batch) {
    struct State {
        Model model;
        optim::Optimizer optimizer;
        Input x;
        Tensor<1, Int> y;
    };
    optim::AdamConfig adam;
    adam.epsilon = 1e-8;  // torch.optim.Adam's default
    auto s = std::make_shared<State>(State{std::move(model), adam.init(), std::move(x), std::move(y)});
    Case c;
    c.step = [s, lr] {
        auto loss = nn::loss::CrossEntropyLoss().forward(s->model.forward(s->x), s->y);
        auto grads = optim::GradientsParams::from_grads(loss.backward(), s->model);
        s->model = s->optimizer.step(lr, std::move(s->model), grads);
    };
    c.phases = [s, lr] {
        PhaseTimer t(s->x.device());
        {
            auto loss = nn::loss::CrossEntropyLoss().forward(s->model.forward(s->x), s->y);
            t.mark("forward");
            auto grads = optim::GradientsParams::from_grads(loss.backward(), s->model);
            t.mark("backward");
            s->model = s->optimizer.step(lr, std::move(s->model), grads);
            t.mark("optimizer");
        }  // the graph, gradients and loss are freed here
        t.mark("release");
        return t.phases;
    };
    c.units = double(batch);
    c.unit = "sample";
    return c;
}

Workload mlp_train() {
    Workload w;
    w.name = "mlp_train";
    w.make = [](const Context& ctx) -> std::optional<Case> {
        const std::size_t batch = 128;
        auto device = ctx.device.autodiff();
        Mlp model{nn::LinearConfig{784, 512}.init(device), nn::LinearConfig{512, 512}.init(device),
                  nn::LinearConfig{512, 10}.init(device)};
        check_param_count("mlp_train", model.num_params(), 401920 + 262656 + 5130);
        return train_case(std::move(model),
                          Tensor<2>::random({batch, 784}, Distribution::Normal(0.0, 1.0), device),
                          random_classes(batch, 10, device), 1e-3, batch);
    };
    return w;
}

Workload cnn_train() {
    Workload w;
    w.name = "cnn_train";
    w.make = [](const Context& ctx) -> std::optional<Case> {
        const std::size_t batch = ctx.gpu ? 512 : 64;
        auto device = ctx.device.autodiff();
        Cnn model = Cnn::init(device);
        check_param_count("cnn_train", model.num_params(), Cnn::kTorchParams);
        return train_case(std::move(model),
                          Tensor<4>::random({batch, 1, 28, 28}, Distribution::Normal(0.0, 1.0), device),
                          random_classes(batch, 10, device), 1e-3, batch);
    };
    return w;
}

Workload cnn_infer_b1() {
    Workload w;
    w.name = "cnn_infer_b1";
    w.warmup = 10;
    w.reps = 100;
    w.make = [](const Context& ctx) -> std::optional<Case> {
        auto device = ctx.device;  // no autodiff: inference
        struct State {
            Cnn model;
            Tensor<4> x;
        };
        auto s = std::make_shared<State>(State{
            Cnn::init(device), Tensor<4>::random({1, 1, 28, 28}, Distribution::Normal(0.0, 1.0), device)});
        check_param_count("cnn_infer_b1", s->model.num_params(), Cnn::kTorchParams);
        Case c;
        c.step = [s] { (void)s->model.forward(s->x); };
        c.units = 1;
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
