#pragma once
// The "trace" decorator (docs/onnx.md, "Export"): every OpCall on a traced device runs on the device
// below and, while a recording is active on this thread, is appended to it with the value ids of its
// inputs and outputs, so export.cpp can turn one forward pass into an ONNX graph.
#include <cstdint>
#include <map>
#include <vector>

#include "burn/backend/backend.hpp"
#include "burn/core/device.hpp"

namespace burn::onnx::exporter {

/// One recorded call: the call (typed attributes and output metas from infer) and value ids.
struct TracedNode {
    OpCall call;
    std::vector<int64_t> in, out;
};

/// A value the recording has seen. Values that no recorded call produced (parameters, graph inputs,
/// constants made by from_data or moved onto the device) keep their tensor below the decorator, so
/// their data can become an initializer.
struct TracedValue {
    TensorMeta meta;
    TensorRef inner;    // set for values no call produced
    int producer = -1;  // index of the producing node, -1 for none
    int output = 0;     // which output of the producer
};

struct Recording {
    std::vector<TracedNode> nodes;
    std::map<int64_t, TracedValue> values;
};

/// While alive, calls on traced devices made by this thread are recorded into `rec`; one at a time
/// per thread (a nested one throws).
class RecordingScope {
  public:
    explicit RecordingScope(Recording& rec);
    ~RecordingScope();
    RecordingScope(const RecordingScope&) = delete;
    RecordingScope& operator=(const RecordingScope&) = delete;
};

/// Whether a recording is active on this thread.
bool recording_active();

/// device with the "trace" decorator on top of its physical device (registers the decorator on first
/// use through register_decorator).
Device traced_device(const Device& device);
/// The value id of a tensor of a traced device (throws naming `what` for another device's tensor).
int64_t value_id(const TensorRef& t, const char* what);
/// The tensor below the decorator.
TensorRef inner_of(const TensorRef& t);

/// Whether export maps this call to ONNX nodes (export_rows.cpp); when not and the row has a
/// decomposition, the decorator's supports() says no so that dispatch decomposes it.
bool can_export(const OpCall& call, const std::vector<TensorMeta>& inputs);

}  // namespace burn::onnx::exporter
