// Muon against a float64 reference of burn 0.22's muon.rs (tests/fixtures/optim/muon.json, made by
// scripts/gen_optim_fixtures.py): ten steps on a wide and a tall matrix, in f64 and f32; the
// Newton-Schulz result is nearly orthogonal; non-matrix parameters are refused before any change.
#include "burn/optim/muon.hpp"

#include "optim_test_util.hpp"

namespace burn::optim_test::muon_test {

struct MuonModel {
    Param<Tensor<2>> wide;  // [3, 4]
    Param<Tensor<2>> tall;  // [5, 2]: Newton-Schulz runs on its transpose
    BURN_MODULE(MuonModel, wide, tall)
};

MuonModel make_model(const config::Value& c, const Device& device, DType dtype) {
    const config::Value& ps = c.at("params");
    auto t = [&](std::size_t i) {
        Dims shape;
        for (double d : doubles(ps[i].at("shape"))) shape.push_back(static_cast<int64_t>(d));
        return Tensor<2>(tensor_of(doubles(ps[i].at("data")), shape, device, dtype));
    };
    return MuonModel{t(0), t(1)};
}

std::vector<std::vector<double>> values(const MuonModel& m) {
    std::vector<std::vector<double>> out;
    m.visit_params([&](const std::string&, const auto& p) {
        out.push_back(ops::into_data(ops::cast(p.val().handle(), DType::f64)).template to_vec<double>());
    });
    return out;
}

void check_cases(const Device& device, DType dtype, double rel, double abs) {
    auto fixture = load_fixture("muon.json");
    const auto& cases = fixture.at("cases");
    ASSERT_EQ(cases.size(), 3u);
    for (std::size_t n = 0; n < cases.size(); ++n) {
        const auto& c = cases[n];
        const std::string name = c.at("name").as_string();
        SCOPED_TRACE(name);
        auto opt = optim::MuonConfig::from_json(c.at("config")).init();
        MuonModel model = make_model(c, device, dtype);
        for (std::size_t k = 0; k < 10; ++k) {
            optim::GradientsParams grads;
            std::size_t i = 0;
            model.visit_params([&](const std::string&, const auto& p) {
                grads.set(p.id(), tensor_of(doubles(c.at("grads")[k][i++]), p.val().shape(),
                                            p.val().device().inner(), dtype));
            });
            model = opt.step(c.at("lrs")[k].as_double(), std::move(model), grads);
            auto got = values(model);
            for (std::size_t p = 0; p < got.size(); ++p)
                expect_close(got[p], doubles(c.at("expected")[k][p]), rel, abs,
                             name + " step " + std::to_string(k + 1) + " param " + std::to_string(p));
        }
    }
}

TEST(OptimMuon, MatchesBurnReferenceF64) {
    check_cases(Device(), DType::f64, 1e-10, 1e-12);
}

TEST(OptimMuon, MatchesBurnReferenceOnAutodiffDevice) {
    check_cases(Device().autodiff(), DType::f64, 1e-10, 1e-12);
}

TEST(OptimMuon, MatchesBurnReferenceF32) {
    check_cases(Device(), DType::f32, 1e-4, 1e-5);
}

TEST(OptimMuon, NewtonSchulzNearlyOrthogonalises) {
    // Five quintic steps push every singular value into the iteration's band around 1 (Keller Jordan:
    // roughly uniform in [0.5, 1.5]).
    auto g = ops::from_data(
        TensorData(std::vector<double>{3.0, 1.0, 0.5, 2.0, -1.0, 0.25, 0.1, 4.0}, Dims{2, 4}), Device());
    auto x = optim::muon_newton_schulz(g, {3.4445, -4.775, 2.0315}, 5, 1e-7);
    EXPECT_EQ(x.shape(), (Dims{2, 4}));
    auto gram = ops::into_data(ops::matmul(x, ops::swap_dims(x, 0, 1))).to_vec<double>();
    // x x^T = U S^2 U^T: its eigenvalues (S^2) lie in [0.25, 2.25], so the diagonal does too.
    for (std::size_t i : {0u, 3u}) {
        EXPECT_GT(gram[i], 0.25) << i;
        EXPECT_LT(gram[i], 2.25) << i;
    }
    // Tall input: orthogonalised on the transpose, returned in the input's shape.
    auto tall = optim::muon_newton_schulz(ops::swap_dims(g, 0, 1), {3.4445, -4.775, 2.0315}, 5, 1e-7);
    EXPECT_EQ(tall.shape(), (Dims{4, 2}));
    EXPECT_EQ(ops::into_data(tall).to_vec<double>(),
              ops::into_data(ops::contiguous(ops::swap_dims(x, 0, 1))).to_vec<double>());
}

TEST(OptimMuon, RefusesNonMatrixParametersBeforeChangingAnything) {
    Model model{Tensor<2>(ops::full({3, 4}, 1.0, DType::f64, Device())),
                Tensor<1>(ops::full({5}, 1.0, DType::f64, Device())),
                Tensor<3>(ops::full({2, 3, 2}, 1.0, DType::f64, Device()))};
    auto opt = optim::MuonConfig{}.init();
    optim::GradientsParams grads;
    model.visit_params([&](const std::string&, const auto& p) {
        grads.set(p.id(), ops::full(p.val().shape(), 0.5, DType::f64, Device()));
    });
    try {
        (void)opt.step(0.1, model, grads);  // a copy: the refused step must not consume the model
        FAIL() << "Muon accepted a 1-D parameter";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("'bias' has shape"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("AdamW"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(opt.states().empty()) << "no state may change when a step is refused";
    // Freezing the others leaves Muon the matrix.
    model.bias.set_require_grad(false);
    model.extra.set_require_grad(false);
    optim::GradientsParams only_weight;
    only_weight.set(model.weight.id(), ops::full({3, 4}, 0.5, DType::f64, Device()));
    model = opt.step(0.1, std::move(model), only_weight);
    EXPECT_EQ(opt.states().size(), 1u);
    EXPECT_THROW((optim::MuonConfig{}.with_momentum(0.0).init()), Error) << "Nesterov needs momentum";
    EXPECT_THROW((optim::MuonConfig{}.with_dampening(1.5).init()), Error);
}

}  // namespace burn::optim_test::muon_test
