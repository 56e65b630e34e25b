// L-BFGS against torch.optim.LBFGS (torch 1.13, no line search; tests/fixtures/optim/lbfgs.json made by
// scripts/gen_optim_fixtures.py): a small tanh regression, several step() calls each, with the default
// settings, a short history, a max_eval cap and the strong-Wolfe line search; the parameters, the
// returned loss and the number of closure evaluations after every step.
#include "burn/optim/lbfgs.hpp"

#include "lbfgs_line_search.hpp"
#include "optim_test_util.hpp"

namespace burn::optim_test::lbfgs_test {

struct Regression {
    Param<Tensor<2>> weight;  // [3, 4]
    Param<Tensor<1>> bias;    // [3]
    BURN_MODULE(Regression, weight, bias)
};

Dims dims_of(const config::Value& shape) {
    Dims d;
    for (double v : doubles(shape)) d.push_back(static_cast<int64_t>(v));
    return d;
}

// loss = mean((tanh(x @ weight^T + bias) - y)^2), the generator's closure.
Tensor<1> loss_of(const Regression& m, const TensorAny& x, const TensorAny& y) {
    TensorAny z = ops::add(ops::matmul(x, ops::swap_dims(m.weight.val().handle(), 0, 1)),
                           ops::unsqueeze_dim(m.bias.val().handle(), 0));
    return Tensor<1>(ops::mean(ops::square(ops::sub(ops::tanh(std::move(z)), y))));
}

void check_cases(DType dtype, double rel, double abs) {
    auto fixture = load_fixture("lbfgs.json");
    const auto& cases = fixture.at("cases");
    ASSERT_EQ(cases.size(), 5u);
    const Device device = Device().autodiff();
    for (std::size_t n = 0; n < cases.size(); ++n) {
        const auto& c = cases[n];
        const std::string name = c.at("name").as_string();
        SCOPED_TRACE(name);
        const Dims x_shape = dims_of(c.at("x_shape"));
        TensorAny x = tensor_of(doubles(c.at("x")), x_shape, device, dtype);
        TensorAny y = tensor_of(doubles(c.at("y")), Dims{x_shape[0], 3}, device, dtype);
        const auto& ps = c.at("params");
        Regression model{
            Tensor<2>(tensor_of(doubles(ps[0].at("data")), dims_of(ps[0].at("shape")), device, dtype)),
            Tensor<1>(tensor_of(doubles(ps[1].at("data")), dims_of(ps[1].at("shape")), device, dtype))};
        auto lbfgs = optim::LbfgsConfig::from_json(c.at("config")).init();
        std::size_t calls = 0;
        for (std::size_t k = 0; k < c.at("losses").size(); ++k) {
            const std::string what = name + " step " + std::to_string(k + 1);
            model = lbfgs.step(std::move(model), [&](const Regression& m) {
                ++calls;
                return loss_of(m, x, y);
            });
            expect_close({lbfgs.last_loss()}, {c.at("losses")[k].as_double()}, rel, abs, what + " loss");
            EXPECT_EQ(lbfgs.func_evals(), c.at("func_evals")[k].as_uint64()) << what;
            EXPECT_EQ(calls, lbfgs.func_evals()) << what;
            auto w = ops::into_data(ops::cast(model.weight.val().handle(), DType::f64)).to_vec<double>();
            auto b = ops::into_data(ops::cast(model.bias.val().handle(), DType::f64)).to_vec<double>();
            expect_close(w, doubles(c.at("expected")[k][0]), rel, abs, what + " weight");
            expect_close(b, doubles(c.at("expected")[k][1]), rel, abs, what + " bias");
        }
        EXPECT_TRUE(model.weight.is_require_grad());
        EXPECT_EQ(model.weight.val().device(), device);
    }
}

TEST(OptimLbfgs, MatchesTorchF64) {
    // Dozens of quasi-Newton iterations amplify rounding a little more than one optimizer step does.
    check_cases(DType::f64, 1e-9, 1e-12);
}

// Stopping after one step, saving the state through host data (as a file would) and continuing with a
// fresh Lbfgs gives exactly the uninterrupted run.
TEST(OptimLbfgs, RecordRoundTripContinuesIdentically) {
    auto fixture = load_fixture("lbfgs.json");
    const auto& cases = fixture.at("cases");
    const Device device = Device().autodiff();
    for (std::size_t n = 0; n < cases.size(); ++n) {
        const auto& c = cases[n];
        SCOPED_TRACE(c.at("name").as_string());
        const Dims x_shape = dims_of(c.at("x_shape"));
        TensorAny x = tensor_of(doubles(c.at("x")), x_shape, device, DType::f64);
        TensorAny y = tensor_of(doubles(c.at("y")), Dims{x_shape[0], 3}, device, DType::f64);
        const auto& ps = c.at("params");
        auto fresh = [&] {
            return Regression{Tensor<2>(tensor_of(doubles(ps[0].at("data")), dims_of(ps[0].at("shape")),
                                                  device, DType::f64)),
                              Tensor<1>(tensor_of(doubles(ps[1].at("data")), dims_of(ps[1].at("shape")),
                                                  device, DType::f64))};
        };
        auto closure = [&](const Regression& m) { return loss_of(m, x, y); };
        const std::size_t steps = c.at("losses").size();
        auto straight = optim::LbfgsConfig::from_json(c.at("config")).init();
        Regression a = fresh();
        for (std::size_t k = 0; k < steps; ++k) a = straight.step(std::move(a), closure);

        auto first = optim::LbfgsConfig::from_json(c.at("config")).init();
        Regression b = first.step(fresh(), closure);
        optim::OptimizerRecord saved = first.to_record(), loaded;
        for (const auto& [key, t] : saved.tensors)
            loaded.tensors[key] = ops::from_data(ops::into_data(t), Device());
        loaded.scalars = saved.scalars;
        auto second = optim::LbfgsConfig::from_json(c.at("config")).init();
        second.load_record(loaded);
        for (std::size_t k = 1; k < steps; ++k) b = second.step(std::move(b), closure);
        EXPECT_EQ(ops::into_data(b.weight.val().handle()).to_vec<double>(),
                  ops::into_data(a.weight.val().handle()).to_vec<double>());
        EXPECT_EQ(second.func_evals(), straight.func_evals());
        EXPECT_EQ(second.to_record().scalars, straight.to_record().scalars);
    }
    auto lbfgs = optim::LbfgsConfig{}.init();
    EXPECT_THROW(lbfgs.load_record({}), Error);
    optim::OptimizerRecord bad{
        {}, {{"t", 1}, {"h_diag", 1}, {"prev_loss", 0}, {"func_evals", 1}, {"n_iter", 0.5}, {"history", 0}}};
    EXPECT_THROW(lbfgs.load_record(bad), Error);
    EXPECT_EQ(lbfgs.n_iter(), 0u) << "a rejected record changes nothing";
}

struct One {
    Param<Tensor<1>> w;
    BURN_MODULE(One, w)
};

TEST(OptimLbfgs, StateFollowsTheModuleToAnotherDevice) {
    // Two steps on the CPU against one there and one on lazy(cpu), a device of its own: the second step
    // moves the curvature pairs to the parameters' device (before, it failed mixing devices) and lands
    // where the CPU-only run does; to_device moves them on request.
    const Device cpu = Device().autodiff(), lazy = Device::cpu().lazy().autodiff();
    auto fresh = [](const Device& d) {
        return One{Param<Tensor<1>>(
            Tensor<1>(ops::from_data(TensorData(std::vector<double>{1.5, -2.0, 0.5}, Dims{3}), d)))};
    };
    auto closure = [](const One& m) {
        const auto w = m.w.val();
        return ((w - 0.25) * (w - 0.25) * (w + 2.0)).sum() + (w * w * w * w).sum();
    };
    auto straight = optim::LbfgsConfig{}.with_max_iter(3).init();
    One a = fresh(cpu);
    for (int k = 0; k < 2; ++k) a = straight.step(std::move(a), closure);

    auto moving = optim::LbfgsConfig{}.with_max_iter(3).init();
    One b = moving.step(fresh(cpu), closure);
    ASSERT_FALSE(moving.to_record().tensors.empty());
    b = b.to_device(lazy);
    b = moving.step(std::move(b), closure);
    EXPECT_EQ(ops::into_data(b.w.val().handle()).to_vec<double>(),
              ops::into_data(a.w.val().handle()).to_vec<double>());
    for (const auto& [key, t] : moving.to_record().tensors) EXPECT_EQ(t.device(), lazy.inner()) << key;
    moving.to_device(cpu);
    for (const auto& [key, t] : moving.to_record().tensors) EXPECT_EQ(t.device(), cpu.inner()) << key;
}

TEST(OptimLbfgs, ConvergesOnAQuadraticInOneStep) {
    // f(w) = |w - target|^2 / 2 has an identity Hessian: after the first (scaled) step the curvature
    // pair makes the next direction exact, so one step() (20 iterations) reaches the target.
    const Device device = Device().autodiff();
    One m{Tensor<1>(ops::from_data(TensorData(std::vector<double>{3.0, -2.0, 0.5}, Dims{3}), device))};
    TensorAny target = ops::from_data(TensorData(std::vector<double>{1.0, 1.0, 1.0}, Dims{3}), device);
    auto lbfgs = optim::LbfgsConfig{}.init();
    m = lbfgs.step(std::move(m), [&](const One& o) {
        return Tensor<1>(ops::mul_scalar(ops::sum(ops::square(ops::sub(o.w.val().handle(), target))), 0.5));
    });
    expect_close(ops::into_data(m.w.val().handle()).to_vec<double>(), {1.0, 1.0, 1.0}, 0, 1e-7, "w");
    EXPECT_LT(lbfgs.n_iter(), 20u) << "stops once the gradient vanishes";
}

TEST(OptimLbfgs, CubicInterpolationFindsTheMinimum) {
    // f = (x - 1)^2: through (0, 1) with slope -2 and (3, 4) with slope 4 the cubic is that parabola.
    EXPECT_NEAR(optim::detail::cubic_interpolate(0, 1, -2, 3, 4, 4), 1.0, 1e-12);
    EXPECT_NEAR(optim::detail::cubic_interpolate(3, 4, 4, 0, 1, -2), 1.0, 1e-12) << "either order";
    EXPECT_EQ(optim::detail::cubic_interpolate(0, 1, -2, 3, 4, 4, std::pair{2.0, 5.0}), 2.0) << "clamped";
}

TEST(OptimLbfgs, BadSettingsAndClosuresThrow) {
    EXPECT_THROW((optim::LbfgsConfig{}.with_lr(0.0).init()), Error);
    EXPECT_THROW((optim::LbfgsConfig{}.with_max_iter(0).init()), Error);
    EXPECT_THROW((optim::LbfgsConfig{}.with_history_size(0).init()), Error);
    EXPECT_THROW((optim::LbfgsConfig{}.with_tolerance_grad(std::nan("")).init()), Error);
    const Device device = Device().autodiff();
    Regression m{Tensor<2>(ops::full({3, 4}, 0.1, DType::f64, device)),
                 Tensor<1>(ops::full({3}, 0.1, DType::f64, device))};
    auto lbfgs = optim::LbfgsConfig{}.init();
    try {
        (void)lbfgs.step(m, [](const Regression& r) { return Tensor<1>(r.bias.val().handle()); });
        FAIL() << "a 3-element loss was accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("one-element loss"), std::string::npos) << e.what();
    }
}

}  // namespace burn::optim_test::lbfgs_test
