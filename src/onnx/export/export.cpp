// onnx::trace and onnx::save (include/burn/onnx/export.hpp): record one forward pass on the traced
// device, then write the recorded calls that the outputs need as an ONNX ModelProto (opset 17).
#include "burn/onnx/export.hpp"

#include <set>

#include "burn/core/error.hpp"
#include "burn/tensor/ops.hpp"
#include "onnx/export/emit.hpp"
#include "onnx/export/trace_backend.hpp"
#include "platform/files.hpp"

namespace burn::onnx {

namespace {

using exporter::Emitter;

std::string value_name(const std::vector<std::string>& names, std::size_t i, std::size_t n,
                       const char* stem) {
    if (i < names.size() && !names[i].empty()) return names[i];
    return n == 1 ? std::string(stem) : std::string(stem) + "_" + std::to_string(i);
}

void declare(::onnx::ValueInfoProto* vi, const std::string& name, const TensorMeta& m, int batch_dim) {
    vi->set_name(name);
    auto* tt = vi->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(exporter::onnx_elem_type(m.dtype));
    auto* shape = tt->mutable_shape();
    for (int d = 0; d < m.shape.rank(); ++d) {
        auto* dim = shape->add_dim();
        if (d == batch_dim)
            dim->set_dim_param("batch");
        else
            dim->set_dim_value(m.shape[d]);
    }
}

}  // namespace

Device trace_device(const Device& device) {
    return exporter::traced_device(device);
}

std::string trace(const TraceFn& fn, const std::vector<TensorAny>& inputs, const ExportOptions& options,
                  const std::vector<NamedTensor>& named) {
    BURN_CHECK(!inputs.empty(), "[onnx export] trace needs at least one example input");
    BURN_CHECK(options.opset == 17, "[onnx export] opset ", options.opset,
               " requested; export writes opset 17 only (leave ExportOptions::opset at 17)");
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        BURN_CHECK(inputs[i].defined(), "[onnx export] example input ", i, " is undefined");
        BURN_CHECK(!options.dynamic_batch || inputs[i].rank() >= 1, "[onnx export] example input ", i,
                   " is a scalar: dynamic_batch needs a batch dim 0 on every input");
    }
    const Device dev = trace_device(inputs[0].device());
    exporter::Recording rec;
    std::vector<TensorAny> xs, ys;
    for (const auto& x : inputs) xs.push_back(ops::to_device(x, dev));
    {
        exporter::RecordingScope scope(rec);
        ys = fn(xs);
    }
    BURN_CHECK(!ys.empty(), "[onnx export] the traced function returned no tensor");

    Emitter e(rec, options.dynamic_batch);
    std::vector<int64_t> in_ids, out_ids;
    std::vector<std::string> in_names, out_names;
    for (const auto& nt : named) e.set_name(exporter::value_id(nt.tensor.ref(), nt.name.c_str()), nt.name);
    for (std::size_t i = 0; i < xs.size(); ++i) {
        const int64_t id = exporter::value_id(xs[i].ref(), "example input");
        in_ids.push_back(id);
        in_names.push_back(value_name(options.input_names, i, xs.size(), "input"));
        e.set_name(id, in_names.back());
        e.mark_input(id);
        e.set_batch_dim(id, 0);
    }
    // outputs produced by a call take the output's name; others (an input, a parameter, a value
    // returned twice) go through an Identity node
    std::set<int64_t> direct;
    for (std::size_t j = 0; j < ys.size(); ++j) {
        const int64_t id = exporter::value_id(ys[j].ref(), "output");
        out_ids.push_back(id);
        out_names.push_back(value_name(options.output_names, j, ys.size(), "output"));
        auto v = rec.values.find(id);
        if (v != rec.values.end() && v->second.producer >= 0 && direct.insert(id).second)
            e.set_name(id, out_names.back());
    }

    // the calls the outputs need
    std::vector<bool> live(rec.nodes.size(), false);
    std::set<int64_t> needed(out_ids.begin(), out_ids.end());
    for (std::size_t k = rec.nodes.size(); k-- > 0;) {
        for (int64_t o : rec.nodes[k].out)
            if (needed.count(o)) live[k] = true;
        if (live[k]) needed.insert(rec.nodes[k].in.begin(), rec.nodes[k].in.end());
    }
    e.live = needed;

    for (std::size_t k = 0; k < rec.nodes.size(); ++k) {
        if (!live[k]) continue;
        const auto& node = rec.nodes[k];
        std::vector<TensorMeta> metas;
        std::vector<int> batch;
        for (int64_t id : node.in) {
            metas.push_back(rec.values.at(id).meta);
            batch.push_back(e.batch_dim(id));
        }
        int free_dim = -1;
        const std::vector<int> out_batch = exporter::propagate_batch(node, metas, batch, &free_dim);
        for (std::size_t i = 0; i < node.out.size(); ++i) e.set_batch_dim(node.out[i], out_batch[i]);
        e.reshape_free = options.dynamic_batch ? free_dim : -1;
        e.begin(node);
        exporter::emit_row(e);
    }

    ::onnx::ModelProto model;
    model.set_ir_version(8);
    model.set_producer_name(options.producer_name);
    model.set_producer_version("0.1.0");
    auto* opset = model.add_opset_import();
    opset->set_domain("");
    opset->set_version(options.opset);
    auto* graph = model.mutable_graph();
    graph->set_name(options.graph_name);
    for (std::size_t j = 0; j < ys.size(); ++j) {
        if (direct.count(out_ids[j]) && e.name(out_ids[j]) == out_names[j]) continue;
        e.op1("Identity", {e.name(out_ids[j])}, out_names[j]);
    }
    e.finish(*graph, out_names);
    for (std::size_t i = 0; i < xs.size(); ++i)
        declare(graph->add_input(), in_names[i], {xs[i].dtype(), xs[i].shape()}, e.batch_dim(in_ids[i]));
    for (std::size_t j = 0; j < ys.size(); ++j)
        declare(graph->add_output(), out_names[j], {ys[j].dtype(), ys[j].shape()}, e.batch_dim(out_ids[j]));
    std::string bytes;
    BURN_CHECK(model.SerializeToString(&bytes), "[onnx export] protobuf could not serialize the model");
    return bytes;
}

void write_model(const std::string& bytes, const std::string& path) {
    platform::write_file_atomic(path, bytes, "onnx::save");
}

}  // namespace burn::onnx
