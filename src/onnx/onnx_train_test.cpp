// An imported model fine-tunes: on an autodiff device its float initializers are parameters
// (Model::params) whose gradients match PyTorch's (tests/fixtures/onnx/make_train_fixtures.py), an
// optimizer step changes what run() computes, and the stores save and load them like a module's.
#include <gtest/gtest.h>

#include <burn/burn.hpp>
#include <filesystem>
#include <string>

#include "burn/onnx/model.hpp"
#include "burn/store/npy.hpp"
#include "fixture_root.hpp"

namespace burn::onnx::train_test {
namespace {

std::string fixture(const std::string& name) {
    return (burn::testing::fixture_root() / "onnx" / name).string();
}

TensorAny npy(const std::string& name, const Device& d) {
    return ops::from_data(read_npy(fixture(name)), d);
}

/// sum(output0 * r0) + sum(output1 * r1): the fixture's loss.
TensorAny loss_of(const Model& model, const TensorAny& x) {
    const Device& d = model.device();
    auto outs = model.run({x});
    return ops::add(ops::sum(ops::mul(outs[0], npy("mlp_r0.npy", d))),
                    ops::sum(ops::mul(outs[1], npy("mlp_r1.npy", d))));
}

double loss_value(const Model& model, const TensorAny& x) {
    return ops::into_data(loss_of(model, x)).value_as_double(0);
}

const char* const kParams[] = {"fc1.weight", "fc1.bias",   "norm.weight",
                               "norm.bias",  "fc2.weight", "fc2.bias"};

TEST(OnnxTrain, InitializersAreParametersWithPyTorchsGradients) {
    const Device ad = Device::cpu().autodiff();
    auto model = Model::load(fixture("mlp_opset17.onnx"), ad);
    ASSERT_EQ(model.params().size(), 6u);
    for (const NamedParam& p : model.params()) EXPECT_TRUE(p.param.is_require_grad()) << p.name;
    EXPECT_EQ(module::num_params(model), 24u * 12 + 24 + 24 + 24 + 12 * 24 + 12);

    TensorAny x = ops::require_grad(npy("mlp_in0.npy", ad));
    Gradients grads = ops::backward(loss_of(model, x));
    ops::into_data(*ops::grad(x, grads))
        .assert_approx_eq(read_npy(fixture("mlp_grad_input0.npy")), 1e-4, 1e-6);
    int checked = 0;
    for (const char* name : kParams)
        for (const NamedParam& p : model.params())
            if (p.name == name) {
                auto g = ops::grad(p.param.val(), grads);
                ASSERT_TRUE(g.has_value()) << name;
                ops::into_data(*g).assert_approx_eq(
                    read_npy(fixture(std::string("mlp_grad_") + name + ".npy")), 1e-4, 1e-6);
                ++checked;
            }
    EXPECT_EQ(checked, 6);
}

TEST(OnnxTrain, AnOptimizerFineTunesTheImportedModel) {
    const Device ad = Device::cpu().autodiff();
    auto model = Model::load(fixture("mlp_opset17.onnx"), ad);
    const TensorAny x = npy("mlp_in0.npy", ad);
    const double before = loss_value(model, x);
    auto sgd = optim::SgdConfig{}.init();
    for (int step = 0; step < 5; ++step) {
        auto grads = optim::GradientsParams::from_grads(ops::backward(loss_of(model, x)), model);
        EXPECT_EQ(grads.size(), 6u);
        model = sgd.step(0.05, std::move(model), grads);
    }
    const double after = loss_value(model, x);
    EXPECT_LT(after, before - 0.1) << "before " << before << ", after " << after;
}

TEST(OnnxTrain, TheStoresSaveAndLoadTheInitializers) {
    const Device ad = Device::cpu().autodiff();
    auto tuned = Model::load(fixture("mlp_opset17.onnx"), ad);
    const TensorAny x = npy("mlp_in0.npy", ad);
    auto sgd = optim::SgdConfig{}.init();
    auto grads = optim::GradientsParams::from_grads(ops::backward(loss_of(tuned, x)), tuned);
    tuned = sgd.step(0.1, std::move(tuned), grads);

    const auto path = std::filesystem::temp_directory_path() / "burn-onnx-train-test.bpk";
    store::BurnpackStore out(path);
    module::save_into(tuned, out);
    auto fresh = Model::load(fixture("mlp_opset17.onnx"), ad);
    EXPECT_NE(loss_value(fresh, x), loss_value(tuned, x));
    store::BurnpackStore in(path);
    const store::ApplyResult result = module::load_from(fresh, in);
    EXPECT_EQ(result.applied.size(), 6u);
    EXPECT_EQ(loss_value(fresh, x), loss_value(tuned, x));
    std::filesystem::remove(path);
}

TEST(OnnxTrain, PlainDevicesAndTheOptionKeepInitializersConstant) {
    EXPECT_TRUE(Model::load(fixture("mlp_opset17.onnx"), Device::cpu()).params().empty());
    LoadOptions frozen;
    frozen.train_initializers = false;
    const auto model = Model::load(fixture("mlp_opset17.onnx"), Device::cpu().autodiff(), frozen);
    EXPECT_TRUE(model.params().empty());
    // Folding stays on for the constant path, and both paths compute the same outputs.
    const auto trainable = Model::load(fixture("mlp_opset17.onnx"), Device::cpu().autodiff());
    const TensorAny x = npy("mlp_in0.npy", Device::cpu().autodiff());
    ops::into_data(model.run({x})[0]).assert_approx_eq(ops::into_data(trainable.run({x})[0]), 1e-6, 1e-7);
    ops::into_data(trainable.run({x})[0]).assert_approx_eq(read_npy(fixture("mlp_out0.npy")), 1e-4, 1e-5);
}

}  // namespace
}  // namespace burn::onnx::train_test
