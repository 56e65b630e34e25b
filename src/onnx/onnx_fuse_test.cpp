// The runtime's Conv -> (Add) -> (Relu | Clip) fusion (fuse.cpp) and com.microsoft FusedConv
// (ops_fused.cpp): which chains fuse (intermediates with one reader, no graph outputs, constant Clip
// bounds), that the fused plan gives the unfused plan's outputs, and a FusedConv node written in a file
// against the Conv, Add and activation it stands for. Models are built with protobuf here.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <burn/burn.hpp>
#include <random>

#include "burn/onnx/model.hpp"
#include "cuda_test_util.hpp"
#include "onnx/op_table.hpp"
#include "onnx/plan.hpp"
#include "onnx/proto.hpp"

namespace burn::onnx::fuse_test {
namespace {

using Graph = ::onnx::GraphProto;

void value(::onnx::ValueInfoProto* v, const std::string& name, std::vector<int64_t> dims) {
    v->set_name(name);
    auto* t = v->mutable_type()->mutable_tensor_type();
    t->set_elem_type(::onnx::TensorProto::FLOAT);
    for (int64_t d : dims) t->mutable_shape()->add_dim()->set_dim_value(d);
}

void init(Graph* g, const std::string& name, std::vector<int64_t> dims, uint32_t seed) {
    auto* t = g->add_initializer();
    t->set_name(name);
    t->set_data_type(::onnx::TensorProto::FLOAT);
    int64_t n = 1;
    for (int64_t d : dims) t->add_dims(d), n *= d;
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-0.5f, 0.5f);
    for (int64_t i = 0; i < n; ++i) t->add_float_data(dims.empty() ? float(seed) : u(rng));
}

::onnx::NodeProto* node(Graph* g, const std::string& op, std::vector<std::string> in,
                        std::vector<std::string> out, const std::string& domain = "") {
    auto* n = g->add_node();
    n->set_op_type(op);
    n->set_name(op + "_" + out[0]);
    n->set_domain(domain);
    for (auto& s : in) n->add_input(s);
    for (auto& s : out) n->add_output(s);
    return n;
}

void ints(::onnx::NodeProto* n, const std::string& name, std::vector<int64_t> v) {
    auto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(::onnx::AttributeProto::INTS);
    for (int64_t x : v) a->add_ints(x);
}

/// x [2, 4, 6, 6]: r1 = Relu(Conv3x3(x) + b1); y = Clip(Conv1x1(r1) + r1, 0, 6); c3 = Conv1x1(y) is an output
/// and is read by Relu (r3, an output): the first two chains fuse, the third must not.
std::string chain_model() {
    ::onnx::ModelProto m;
    m.set_ir_version(8);
    m.add_opset_import()->set_version(13);
    Graph* g = m.mutable_graph();
    g->set_name("chains");
    value(g->add_input(), "x", {2, 4, 6, 6});
    for (const char* o : {"y", "c3", "r3"}) value(g->add_output(), o, {2, 4, 6, 6});
    init(g, "w1", {4, 4, 3, 3}, 1);
    init(g, "b1", {4}, 2);
    init(g, "w2", {4, 4, 1, 1}, 3);
    init(g, "lo", {}, 0);
    init(g, "hi", {}, 6);
    ints(node(g, "Conv", {"x", "w1", "b1"}, {"c1"}), "pads", {1, 1, 1, 1});
    node(g, "Relu", {"c1"}, {"r1"});
    node(g, "Conv", {"r1", "w2"}, {"c2"});
    node(g, "Add", {"c2", "r1"}, {"a2"});
    node(g, "Clip", {"a2", "lo", "hi"}, {"y"});
    node(g, "Conv", {"y", "w2"}, {"c3"});
    node(g, "Relu", {"c3"}, {"r3"});
    std::string s;
    m.SerializeToString(&s);
    return s;
}

TensorAny input(const Dims& shape, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-2.f, 2.f);
    std::vector<float> v(static_cast<std::size_t>(shape.numel()));
    for (auto& x : v) x = u(rng);
    return ops::from_data(TensorData(v, shape), Device::cpu());
}

std::vector<std::string> step_ops(const std::string& bytes, bool fuse) {
    const detail::ModelIr ir = detail::parse_model(bytes, "", "chains");
    LoadOptions o;
    o.fuse_ops = fuse;
    const auto plan = detail::compile(ir.graph, ir, Device::cpu(), "chains", o, true);
    std::vector<std::string> ops;
    for (const detail::Step& s : plan->steps) ops.push_back(s.node->op_type);
    return ops;
}

TEST(OnnxFuse, ChainsWithSingleReadersFuse) {
    const std::string bytes = chain_model();
    EXPECT_EQ(step_ops(bytes, false),
              (std::vector<std::string>{"Conv", "Relu", "Conv", "Add", "Clip", "Conv", "Relu"}));
    // c3 is a graph output: its Conv stays, and so does the Relu that reads it
    EXPECT_EQ(step_ops(bytes, true), (std::vector<std::string>{"FusedConv", "FusedConv", "Conv", "Relu"}));
}

TEST(OnnxFuse, FusedPlanMatchesTheNodesAsWritten) {
    const std::string bytes = chain_model();
    LoadOptions off;
    off.fuse_ops = false;
    const Model fused = Model::from_bytes(bytes, Device::cpu()),
                plain = Model::from_bytes(bytes, Device::cpu(), "", "chains", off);
    const TensorAny x = input({2, 4, 6, 6}, 7);
    const auto a = fused.run({{"x", x}}), b = plain.run({{"x", x}});
    for (const char* o : {"y", "c3", "r3"})
        ops::into_data(a.at(o)).assert_approx_eq(ops::into_data(b.at(o)), 1e-5, 1e-6);
    // the clip binds: some outputs are 0 and some 6
    const auto y = ops::into_data(a.at("y")).to_vec<float>();
    EXPECT_NE(std::count(y.begin(), y.end(), 0.f), 0);
}

/// x [2, 8, 9, 9]: a MobileNet block, Clip(DepthwiseConv3x3(x) + b, 0, 6) -> Conv1x1 -> + x.
std::string depthwise_model() {
    ::onnx::ModelProto m;
    m.set_ir_version(8);
    m.add_opset_import()->set_version(13);
    Graph* g = m.mutable_graph();
    g->set_name("block");
    value(g->add_input(), "x", {2, 8, 9, 9});
    value(g->add_output(), "y", {2, 8, 9, 9});
    init(g, "wd", {8, 1, 3, 3}, 11);
    init(g, "bd", {8}, 12);
    init(g, "wp", {8, 8, 1, 1}, 13);
    init(g, "bp", {8}, 14);
    init(g, "lo", {}, 0);
    init(g, "hi", {}, 6);
    auto* dw = node(g, "Conv", {"x", "wd", "bd"}, {"d"});
    ints(dw, "pads", {1, 1, 1, 1});
    auto* gr = dw->add_attribute();
    gr->set_name("group");
    gr->set_type(::onnx::AttributeProto::INT);
    gr->set_i(8);
    node(g, "Clip", {"d", "lo", "hi"}, {"r"});
    node(g, "Conv", {"r", "wp", "bp"}, {"p"});
    node(g, "Add", {"p", "x"}, {"y"});
    std::string s;
    m.SerializeToString(&s);
    return s;
}

/// On CUDA the chains fuse too (conv_fused: the depthwise kernel with its epilogue, or cuDNN / the GEMM and
/// one epilogue pass) and give the CPU's unfused outputs.
TEST(OnnxFuse, FusedPlanOnCudaMatchesTheCpu) {
    REQUIRE_CUDA();
    [[maybe_unused]] const cuda_test::ExactDeviceMath exact;
    LoadOptions off;
    off.fuse_ops = false;
    const struct {
        std::string bytes;
        Dims shape;
        std::vector<const char*> outs;
    } cases[] = {{chain_model(), {2, 4, 6, 6}, {"y", "c3", "r3"}}, {depthwise_model(), {2, 8, 9, 9}, {"y"}}};
    for (const auto& c : cases) {
        const TensorAny x = input(c.shape, 21);
        const auto want = Model::from_bytes(c.bytes, Device::cpu(), "", "m", off).run({{"x", x}});
        const auto got = Model::from_bytes(c.bytes, Device::cuda()).run({{"x", x.to_device(Device::cuda())}});
        for (const char* o : c.outs)
            ops::into_data(got.at(o)).assert_approx_eq(ops::into_data(want.at(o)), 1e-5, 1e-6);
    }
}

TEST(OnnxFuse, DepthwiseBlockFusesIntoTwoSteps) {
    EXPECT_EQ(step_ops(depthwise_model(), true), (std::vector<std::string>{"FusedConv", "FusedConv"}));
}

/// FusedConv written in a file (as onnxruntime's optimiser saves it) against the nodes it stands for.
TEST(OnnxFuse, FusedConvNodeMatchesConvAddActivation) {
    for (const std::string act : {"Relu", "Clip", "LeakyRelu", "Sigmoid", ""}) {
        SCOPED_TRACE("activation '" + act + "'");
        std::string files[2];
        for (int fused = 0; fused < 2; ++fused) {
            ::onnx::ModelProto m;
            m.set_ir_version(8);
            m.add_opset_import()->set_version(13);
            auto* ms = m.add_opset_import();
            ms->set_domain("com.microsoft");
            ms->set_version(1);
            Graph* g = m.mutable_graph();
            g->set_name("f");
            value(g->add_input(), "x", {1, 3, 7, 5});
            value(g->add_input(), "z", {1, 6, 4, 3});
            value(g->add_output(), "y", {1, 6, 4, 3});
            init(g, "w", {6, 3, 3, 3}, 4);
            init(g, "b", {6}, 5);
            if (fused) {
                auto* n = node(g, "FusedConv", {"x", "w", "b", "z"}, {"y"}, "com.microsoft");
                ints(n, "strides", {2, 2});
                ints(n, "pads", {1, 1, 1, 1});
                auto* a = n->add_attribute();
                a->set_name("activation");
                a->set_type(::onnx::AttributeProto::STRING);
                a->set_s(act);
                auto* p = n->add_attribute();
                p->set_name("activation_params");
                p->set_type(::onnx::AttributeProto::FLOATS);
                if (act == "Clip") p->add_floats(-0.5f), p->add_floats(0.5f);
                if (act == "LeakyRelu") p->add_floats(0.1f);
            } else {
                auto* n = node(g, "Conv", {"x", "w", "b"}, {"c"});
                ints(n, "strides", {2, 2});
                ints(n, "pads", {1, 1, 1, 1});
                node(g, "Add", {"c", "z"}, {act.empty() ? "y" : "a"});
                if (act == "Clip") {
                    init(g, "lo", {}, 0);
                    g->mutable_initializer(g->initializer_size() - 1)->set_float_data(0, -0.5f);
                    init(g, "hi", {}, 0);
                    g->mutable_initializer(g->initializer_size() - 1)->set_float_data(0, 0.5f);
                    node(g, "Clip", {"a", "lo", "hi"}, {"y"});
                } else if (act == "LeakyRelu") {
                    auto* n2 = node(g, "LeakyRelu", {"a"}, {"y"});
                    auto* al = n2->add_attribute();
                    al->set_name("alpha");
                    al->set_type(::onnx::AttributeProto::FLOAT);
                    al->set_f(0.1f);
                } else if (!act.empty()) {
                    node(g, act, {"a"}, {"y"});
                }
            }
            m.SerializeToString(&files[fused]);
        }
        LoadOptions off;
        off.fuse_ops = false;
        const TensorAny x = input({1, 3, 7, 5}, 8), z = input({1, 6, 4, 3}, 9);
        const auto want =
            Model::from_bytes(files[0], Device::cpu(), "", "model", off).run({{"x", x}, {"z", z}}).at("y");
        for (const Device& d : {Device::cpu(), Device::cpu().autodiff()}) {
            const auto got =
                Model::from_bytes(files[1], d).run({{"x", x.to_device(d)}, {"z", z.to_device(d)}}).at("y");
            ops::into_data(got).assert_approx_eq(ops::into_data(want), 1e-5, 1e-6);
        }
    }
}

}  // namespace
}  // namespace burn::onnx::fuse_test
