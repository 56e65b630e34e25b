// Bad ONNX input: each case is a burn::Error naming the node, op or tensor at fault, never a crash, and
// a model with several unknown ops lists them all at load time. Models are built with protobuf here.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <burn/burn.hpp>
#include <filesystem>
#include <fstream>

#include "burn/onnx/model.hpp"
#include "fixture_root.hpp"
#include "platform/files.hpp"

namespace burn::onnx::errors_test {
namespace {

/// A model y = Relu(x) + c over f32 [2, 3], and helpers to damage it.
::onnx::ModelProto base_model() {
    ::onnx::ModelProto m;
    m.set_ir_version(8);
    m.add_opset_import()->set_version(13);
    auto* g = m.mutable_graph();
    g->set_name("g");
    auto add_value = [](::onnx::ValueInfoProto* v, const std::string& name) {
        v->set_name(name);
        auto* t = v->mutable_type()->mutable_tensor_type();
        t->set_elem_type(::onnx::TensorProto::FLOAT);
        t->mutable_shape()->add_dim()->set_dim_value(2);
        t->mutable_shape()->add_dim()->set_dim_value(3);
    };
    add_value(g->add_input(), "x");
    add_value(g->add_output(), "y");
    auto* c = g->add_initializer();
    c->set_name("c");
    c->set_data_type(::onnx::TensorProto::FLOAT);
    c->add_dims(3);
    for (float v : {1.f, 2.f, 3.f}) c->add_float_data(v);
    auto* relu = g->add_node();
    relu->set_op_type("Relu");
    relu->set_name("relu");
    relu->add_input("x");
    relu->add_output("r");
    auto* add = g->add_node();
    add->set_op_type("Add");
    add->set_name("add");
    add->add_input("r");
    add->add_input("c");
    add->add_output("y");
    return m;
}

std::string bytes_of(const ::onnx::ModelProto& m) {
    std::string s;
    m.SerializeToString(&s);
    return s;
}

std::string load_error(const std::string& bytes, const std::string& folder = "") {
    try {
        (void)Model::from_bytes(bytes, Device::cpu(), folder, "m.onnx");
    } catch (const Error& e) {
        return e.what();
    }
    return "(no error)";
}

#define EXPECT_HAS(text, part) EXPECT_NE((text).find(part), std::string::npos) << (text)

TEST(OnnxErrors, TheBaseModelRuns) {
    auto model = Model::from_bytes(bytes_of(base_model()), Device::cpu());
    TensorAny x =
        ops::from_data(TensorData(std::vector<float>{-1, 0, 1, 2, -3, 4}, Dims{2, 3}), Device::cpu());
    ops::into_data(model.run({x})[0])
        .assert_approx_eq(TensorData(std::vector<float>{1, 2, 4, 3, 2, 7}, Dims{2, 3}));
}

TEST(OnnxErrors, TruncatedOrGarbageBytes) {
    const std::string good = bytes_of(base_model());
    for (std::size_t n : {std::size_t(1), good.size() / 3, good.size() / 2, good.size() - 1})
        EXPECT_HAS(load_error(good.substr(0, n)), "[onnx] m.onnx");
    EXPECT_HAS(load_error("this is not a protobuf"), "not a valid ONNX model");
    EXPECT_HAS(load_error(""), "has no graph");
}

TEST(OnnxErrors, UnknownOpsAreListedTogether) {
    auto m = base_model();
    auto* g = m.mutable_graph();
    g->mutable_node(0)->set_op_type("DeformConv");
    g->mutable_node(0)->set_name("/blk/gs");
    g->mutable_node(1)->set_op_type("FancyOp");
    const std::string e = load_error(bytes_of(m));
    EXPECT_HAS(e, "[onnx] m.onnx needs 2 ops this build lacks:");
    EXPECT_HAS(e, "DeformConv (opset 13, node /blk/gs)");
    EXPECT_HAS(e, "FancyOp (opset 13, node add)");
}

TEST(OnnxErrors, GraphStructure) {
    {  // an input nobody defines
        auto m = base_model();
        m.mutable_graph()->mutable_node(1)->set_input(1, "missing_init");
        EXPECT_HAS(load_error(bytes_of(m)),
                   "node 'add' (Add) in m.onnx: input 'missing_init' is not a graph input");
    }
    {  // a cycle
        auto m = base_model();
        m.mutable_graph()->mutable_node(0)->set_input(0, "y");
        EXPECT_HAS(load_error(bytes_of(m)), "the graph has a cycle");
    }
    {  // a value defined twice
        auto m = base_model();
        m.mutable_graph()->mutable_node(1)->set_output(0, "r");
        EXPECT_HAS(load_error(bytes_of(m)), "value 'r' is defined twice");
    }
    {  // an output nobody produces
        auto m = base_model();
        m.mutable_graph()->mutable_output(0)->set_name("nothing");
        EXPECT_HAS(load_error(bytes_of(m)), "graph output 'nothing' is not produced");
    }
}

TEST(OnnxErrors, BadTensors) {
    {  // fewer values than the dims say
        auto m = base_model();
        m.mutable_graph()->mutable_initializer(0)->add_dims(2);
        EXPECT_HAS(load_error(bytes_of(m)), "tensor 'c' of shape [3, 2] has 3 values, expected 6");
    }
    {  // raw data of the wrong size
        auto m = base_model();
        auto* c = m.mutable_graph()->mutable_initializer(0);
        c->clear_float_data();
        c->set_raw_data(std::string(11, '\0'));
        EXPECT_HAS(load_error(bytes_of(m)), "needs 12 bytes of raw data, the file has 11");
    }
    {  // absurd and negative dims
        auto m = base_model();
        auto* c = m.mutable_graph()->mutable_initializer(0);
        c->add_dims(int64_t(1) << 40);
        c->add_dims(int64_t(1) << 40);
        EXPECT_HAS(load_error(bytes_of(m)), "absurd dims");
        c->clear_dims();
        c->add_dims(-3);
        EXPECT_HAS(load_error(bytes_of(m)), "negative dim -3");
    }
    {  // a type burn cannot hold
        auto m = base_model();
        m.mutable_graph()->mutable_initializer(0)->set_data_type(::onnx::TensorProto::STRING);
        EXPECT_HAS(load_error(bytes_of(m)), "element type STRING");
    }
}

TEST(OnnxErrors, ExternalDataStaysInTheModelsFolder) {
    const auto dir = std::filesystem::temp_directory_path() / "burn_onnx_external_test";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir / "sub");
    {
        std::ofstream(dir / "sub" / "w.bin", std::ios::binary)
            .write("\0\0\x80?\0\0\0@\0\0@@", 12);  // 1, 2, 3
    }
    auto with_location = [](const std::string& loc, const std::string& offset = "0") {
        auto m = base_model();
        auto* c = m.mutable_graph()->mutable_initializer(0);
        c->clear_float_data();
        c->set_data_location(::onnx::TensorProto::EXTERNAL);
        auto* kv = c->add_external_data();
        kv->set_key("location");
        kv->set_value(loc);
        kv = c->add_external_data();
        kv->set_key("offset");
        kv->set_value(offset);
        return bytes_of(m);
    };
    // inside: loads and runs
    auto model = Model::from_bytes(with_location("sub/w.bin"), Device::cpu(), dir.string(), "m.onnx");
    TensorAny x = ops::full(Dims{2, 3}, 0, DType::f32, Device::cpu());
    ops::into_data(model.run({x})[0])
        .assert_approx_eq(TensorData(std::vector<float>{1, 2, 3, 1, 2, 3}, Dims{2, 3}));
    EXPECT_HAS(load_error(with_location("../w.bin"), dir.string()), "points outside the model's folder");
    EXPECT_HAS(load_error(with_location("/etc/passwd"), dir.string()), "points outside the model's folder");
    EXPECT_HAS(load_error(with_location("sub/w.bin", "4"), dir.string()),
               "needs 12 bytes but its external data has 8");
    EXPECT_HAS(load_error(with_location("sub/w.bin", "-1"), dir.string()), "bad external offset");
    EXPECT_HAS(load_error(with_location("sub/w.bin")), "load the model from its path");
    EXPECT_HAS(load_error(with_location("nope.bin"), dir.string()), "nope.bin");
    std::filesystem::create_directory_symlink("/etc", dir / "link");
    EXPECT_HAS(load_error(with_location("link/passwd"), dir.string()), "outside the model's folder");
    std::filesystem::remove_all(dir);
}

TEST(OnnxErrors, RunTimeErrorsNameTheNode) {
    auto m = base_model();
    // Add of [2, 3] and [4]: the broadcast fails when it runs, naming the node
    auto* c = m.mutable_graph()->mutable_initializer(0);
    c->set_dims(0, 4);
    c->add_float_data(4);
    // drop the declared input shape so the run reaches the node
    m.mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->clear_shape();
    auto model = Model::from_bytes(bytes_of(m), Device::cpu());
    try {
        (void)model.run({ops::full(Dims{2, 3}, 1, DType::f32, Device::cpu())});
        ADD_FAILURE() << "no error";
    } catch (const ShapeError& e) {
        EXPECT_HAS(std::string(e.what()), "[onnx] node 'add' (Add): ");
    }
}

TEST(OnnxErrors, BadAttributes) {
    auto m = base_model();
    auto* n = m.mutable_graph()->mutable_node(1);
    n->set_op_type("Concat");
    auto* a = n->add_attribute();
    a->set_name("axis");
    a->set_type(::onnx::AttributeProto::FLOAT);
    a->set_f(1.5f);
    m.mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->clear_shape();
    m.mutable_graph()->mutable_output(0)->mutable_type()->mutable_tensor_type()->clear_shape();
    auto model = Model::from_bytes(bytes_of(m), Device::cpu());
    try {
        (void)model.run({ops::full(Dims{3}, 1, DType::f32, Device::cpu())});
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_HAS(std::string(e.what()),
                   "[onnx] node 'add' (Concat): attribute 'axis' must be of type int, got float");
    }
}

}  // namespace
}  // namespace burn::onnx::errors_test
