// ONNX control flow against PyTorch: a TorchScript loop and branch exported by torch 1.13 as Loop and
// If (tests/fixtures/onnx/make_control_fixtures.py) run here with torch's outputs and, on an autodiff
// device, torch's gradients through the loop's body; a subgraph reads outer values, and bad control
// flow is an error naming the node.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <burn/burn.hpp>

#include "burn/onnx/model.hpp"
#include "burn/store/npy.hpp"
#include "fixture_root.hpp"

namespace burn::onnx::control_test {
namespace {

std::string fixture(const std::string& name) {
    return (burn::testing::fixture_root() / "onnx" / name).string();
}

TensorAny npy(const std::string& name, const Device& d = Device::cpu()) {
    return ops::from_data(read_npy(fixture("loop_if_" + name + ".npy")), d);
}

void expect_close(const TensorAny& got, const std::string& name) {
    ops::into_data(got).assert_approx_eq(read_npy(fixture("loop_if_" + name + ".npy")), 1e-4, 1e-5);
}

class LoopIf : public ::testing::TestWithParam<int> {};

TEST_P(LoopIf, MatchesPyTorchOnBothBranches) {
    auto model = Model::load(fixture("loop_if_opset" + std::to_string(GetParam()) + ".onnx"), Device::cpu());
    EXPECT_EQ(model.op_histogram().at("Loop"), 1);
    EXPECT_EQ(model.op_histogram().at("If"), 1);
    for (const char* tag : {"pos", "neg"})
        expect_close(model.run({{"x", npy("x")}, {"h", npy(std::string("h") + tag)}}).at("y"),
                     std::string("y") + tag);
}

TEST_P(LoopIf, GradientsFlowThroughTheLoopBodyAndTheBranch) {
    const Device ad = Device::cpu().autodiff();
    auto model = Model::load(fixture("loop_if_opset" + std::to_string(GetParam()) + ".onnx"), ad);
    for (const std::string tag : {"pos", "neg"}) {
        TensorAny x = ops::require_grad(npy("x", ad)), h = ops::require_grad(npy("h" + tag, ad));
        TensorAny y = model.run(std::vector<TensorAny>{x, h})[0];
        expect_close(y, "y" + tag);
        Gradients g = ops::backward(ops::sum(y));
        ASSERT_TRUE(ops::grad(x, g).has_value() && ops::grad(h, g).has_value());
        expect_close(*ops::grad(x, g), "gx" + tag);
        expect_close(*ops::grad(h, g), "gh" + tag);
    }
}

INSTANTIATE_TEST_SUITE_P(Onnx, LoopIf, ::testing::Values(11, 13, 17),
                         [](const auto& info) { return "opset" + std::to_string(info.param); });

// The trip count is the input's length (a dynamic dim): a one-step sequence runs the body once, from
// h = +3 every state stays near tanh(3 + small) > 0.5 and the then-branch doubles it.
TEST(OnnxControl, TheTripCountFollowsTheInput) {
    auto model = Model::load(fixture("loop_if_opset13.onnx"), Device::cpu());
    const TensorAny x = npy("x"), h = npy("hpos");
    const TensorAny y1 = model.run(std::vector<TensorAny>{ops::narrow(x, 0, 0, 1), h})[0];
    const TensorAny y5 = model.run(std::vector<TensorAny>{x, h})[0];
    EXPECT_EQ(y1.shape(), (Dims{3, 4}));
    const double lo = ops::into_data(ops::min(y1)).value_as_double(0);
    EXPECT_GT(lo, 1.0) << "one step from a large positive state stays positive";
    // and it differs from the five-step result
    EXPECT_GT(ops::into_data(ops::max(ops::abs(ops::sub(y1, y5)))).value_as_double(0), 1e-3);
}

/// If(cond) with constant branches: then -> [1, 2], else -> [3, 4]; cond of shape cond_dims.
std::string if_model(std::vector<int64_t> cond_dims, int64_t then_outputs = 1) {
    ::onnx::ModelProto m;
    m.set_ir_version(8);
    m.add_opset_import()->set_version(13);
    auto* g = m.mutable_graph();
    g->set_name("g");
    auto* in = g->add_input();
    in->set_name("c");
    auto* tt = in->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(::onnx::TensorProto::BOOL);
    for (int64_t d : cond_dims) tt->mutable_shape()->add_dim()->set_dim_value(d);
    g->add_output()->set_name("y");
    auto branch = [&](::onnx::GraphProto* b, const char* name, float v0, int64_t outputs) {
        b->set_name(name);
        for (int64_t k = 0; k < outputs; ++k) {
            auto* n = b->add_node();
            n->set_op_type("Constant");
            const std::string out = std::string(name) + "_v" + std::to_string(k);
            n->add_output(out);
            auto* a = n->add_attribute();
            a->set_name("value");
            a->set_type(::onnx::AttributeProto::TENSOR);
            a->mutable_t()->set_data_type(::onnx::TensorProto::FLOAT);
            a->mutable_t()->add_dims(2);
            a->mutable_t()->add_float_data(v0);
            a->mutable_t()->add_float_data(v0 + 1);
            b->add_output()->set_name(out);
        }
    };
    auto* node = g->add_node();
    node->set_op_type("If");
    node->set_name("branch");
    node->add_input("c");
    node->add_output("y");
    auto* then_attr = node->add_attribute();
    then_attr->set_name("then_branch");
    then_attr->set_type(::onnx::AttributeProto::GRAPH);
    branch(then_attr->mutable_g(), "then", 1, then_outputs);
    auto* else_attr = node->add_attribute();
    else_attr->set_name("else_branch");
    else_attr->set_type(::onnx::AttributeProto::GRAPH);
    branch(else_attr->mutable_g(), "else", 3, 1);
    std::string s;
    m.SerializeToString(&s);
    return s;
}

TEST(OnnxControl, IfPicksItsBranchAndChecksTheCondition) {
    const Device cpu = Device::cpu();
    auto model = Model::from_bytes(if_model({}), cpu);
    auto cond = [&](bool v, Dims shape) { return ops::full(shape, v ? 1 : 0, DType::boolean, cpu); };
    ops::into_data(model.run({cond(true, Dims{})})[0])
        .assert_approx_eq(TensorData(std::vector<float>{1, 2}, Dims{2}));
    ops::into_data(model.run({cond(false, Dims{})})[0])
        .assert_approx_eq(TensorData(std::vector<float>{3, 4}, Dims{2}));
    auto wide = Model::from_bytes(if_model({2}), cpu);
    try {
        (void)wide.run({cond(true, Dims{2})});
        FAIL() << "a two-element condition must be rejected";
    } catch (const Error& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("node 'branch' (If)"), std::string::npos) << m;
        EXPECT_NE(m.find("cond must hold one element"), std::string::npos) << m;
    }
}

}  // namespace
}  // namespace burn::onnx::control_test
