#pragma once
/// ONNX import: load a .onnx file and run it on any device (docs/onnx.md).
///
///     auto model = burn::onnx::Model::load("resnet18.onnx", Device::cpu());
///     auto outs = model.run({{"input", x}});          // by name: {"logits": TensorAny}
///     std::vector<TensorAny> ys = model.run({x});     // positional, in the graph's order
///
/// Loading parses the protobuf (paths of external data are confined to the model's folder), checks
/// the graph (names defined once, no cycles, every op known to this build: all the missing ones are
/// listed in one error), folds the nodes whose inputs are all constants, and drops the nodes no
/// output needs. Running executes the remaining nodes in order with the burn::ops frontend, so the
/// same model runs on the CPU, CUDA or an autodiff device. Errors name the node and its op.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "burn/core/device.hpp"
#include "burn/module/param.hpp"
#include "burn/tensor/tensor_any.hpp"

namespace burn::onnx {

/// A graph input or output as the file declares it.
struct ValueSpec {
    std::string name;
    std::string dtype;               // "f32", or the ONNX type name when burn has no such dtype
    std::vector<int64_t> shape;      // -1 for a dynamic dim
    std::vector<std::string> names;  // the dim_param of each dim ("" when none)
    bool has_shape = false;
};

struct LoadOptions {
    /// Fold nodes whose inputs are all initializers or constants at load time.
    bool fold_constants = true;
    /// On an autodiff device, the main graph's floating-point initializers become parameters
    /// (Model::params) that require gradients: the model fine-tunes with the optimizers and saves and
    /// loads with the stores like a module. Nodes that read them are then not folded. Off, or on any
    /// other device, initializers are constants.
    bool train_initializers = true;
    /// On a CPU or CUDA device (not autodiff), Conv -> (Add) -> (Relu | Clip) chains whose intermediate
    /// values nothing else reads run as one fused convolution (com.microsoft FusedConv: burn's conv_fused
    /// row), as onnxruntime does. Off: every node runs as written.
    bool fuse_ops = true;
};

/// A trainable initializer: its name in the file and its parameter.
struct NamedParam {
    std::string name;
    Param<TensorAny> param;
};

class Model {
  public:
    /// Reads path (a .onnx file; external data beside it) onto device.
    static Model load(const std::string& path, const Device& device, const LoadOptions& options = {});
    /// Parses a serialized ModelProto; `folder` is where external data files are looked up ("" forbids
    /// external data) and `what` names the model in errors.
    static Model from_bytes(const std::string& bytes, const Device& device, const std::string& folder = "",
                            const std::string& what = "model", const LoadOptions& options = {});

    Model(Model&&) noexcept;
    Model& operator=(Model&&) noexcept;
    ~Model();

    /// Runs the graph: inputs by name, every graph output by name.
    std::map<std::string, TensorAny> run(const std::map<std::string, TensorAny>& inputs) const;
    /// Runs the graph: inputs in the order of inputs(), the outputs in the order of outputs().
    std::vector<TensorAny> run(const std::vector<TensorAny>& inputs) const;

    const std::vector<ValueSpec>& inputs() const;
    const std::vector<ValueSpec>& outputs() const;
    const Device& device() const;
    /// Default-domain opset, IR version and producer ("pytorch 1.13.1").
    int64_t opset() const;
    int64_t ir_version() const;
    const std::string& producer() const;
    /// How many nodes run (after folding and dead-node removal) and how many the file has.
    std::size_t num_nodes() const;
    std::size_t num_file_nodes() const;
    /// Node count per op type in the file ("Conv" -> 20).
    std::map<std::string, int> op_histogram() const;

    /// The trainable initializers (LoadOptions::train_initializers on an autodiff device; empty
    /// otherwise), in the file's order. run() reads their current values, so an optimizer step or a
    /// store load changes what the model computes.
    std::vector<NamedParam>& params();
    const std::vector<NamedParam>& params() const;

    // A module to the module walks (module::visit_params, optimizers, GradientsParams::from_grads,
    // module::save_into / load_from, module::format): its parameters are its initializers by name.
    static constexpr const char* burn_module_name = "onnx::Model";
    template <class F>
    void burn_visit_fields(F&& fn) {
        for (NamedParam& p : params()) fn(p.name.c_str(), p.param);
    }
    template <class F>
    void burn_visit_fields(F&& fn) const {
        for (const NamedParam& p : params()) fn(p.name.c_str(), p.param);
    }

    struct Impl;

  private:
    explicit Model(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

/// What a model file holds, read without running anything: works for models with ops this build lacks
/// (burn-onnx info).
struct ModelInfo {
    int64_t ir_version = 0, opset = 0;
    std::string producer;
    std::vector<ValueSpec> inputs, outputs;
    std::size_t num_nodes = 0;
    std::map<std::string, int> op_histogram;  // "Conv" -> 20 (subgraphs included)
    std::vector<std::string> unsupported;     // "GridSample (opset 16, node /blk/gs)"
};
ModelInfo inspect(const std::string& path);

/// The op types this build runs (default domain), sorted.
std::vector<std::string> supported_ops();

}  // namespace burn::onnx
