#pragma once
// A compiled ONNX graph: its nodes in run order over numbered value slots, with constants folded, dead
// nodes dropped and every value freed after its last reader. A subgraph (If's branches, Loop's and
// Scan's bodies) compiles the same way; the names it reads from the scopes around it (ONNX scopes
// values lexically) are its outer values, which the node owning it captures from its own scope and
// passes in at run time.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "burn/onnx/model.hpp"
#include "onnx/op_table.hpp"

namespace burn::onnx::detail {

struct Plan;

/// One node to run: its entry, and the value slots it reads and writes (-1: omitted).
struct Step {
    const Node* node = nullptr;
    const OpEntry* entry = nullptr;
    int64_t opset = 0;
    std::vector<int> in, out;
    std::vector<int> release;  // slots whose last reader is this step
    // Subgraphs by attribute name, and the outer values they read: names and slots in this scope.
    std::map<std::string, std::shared_ptr<const Plan>> subgraphs;
    std::vector<std::string> capture_names;
    std::vector<int> captures;
};

struct Plan {
    std::string what;  // the model's name, for messages
    Device device;
    std::vector<std::string> outer;  // the names read from enclosing scopes (a subgraph's free values)
    std::vector<int> input_slots, outer_slots, output_slots;
    std::vector<TensorAny> constants;  // per slot: initializers and folded values
    // The trainable initializers (LoadOptions::train_initializers on an autodiff device, main graph
    // only): their names, slots and values at load; run() takes their current values.
    std::vector<std::string> param_names;
    std::vector<int> param_slots;
    std::vector<TensorAny> param_values;
    std::vector<Step> steps;
    std::vector<std::unique_ptr<Node>> owned_nodes;  // nodes the plan wrote itself (fuse.cpp)
    std::size_t num_slots = 0;

    /// Runs the graph on its inputs (in the graph's order, already checked by the caller) and the
    /// values of `outer`, in that order, with params (one per param_slots) as the trainable
    /// initializers; returns the graph's outputs.
    std::vector<TensorAny> run(std::vector<TensorAny> inputs, const std::vector<TensorAny>& outer_values,
                               const std::vector<TensorAny>& params = {}) const;
};

/// Compiles g. For the model's main graph (top), every value read must be defined in it; a subgraph's
/// undefined names become its outer values. Throws listing every op this build lacks, cycles,
/// undefined or twice-defined values.
std::shared_ptr<Plan> compile(const Graph& g, const ModelIr& ir, const Device& device,
                              const std::string& what, const LoadOptions& options, bool top);

/// Rethrows the burn::Error in flight with the node's label in front, keeping its kind.
[[noreturn]] void rethrow_in(const Node& node);

/// Every (domain, op type) of graph and its subgraphs that the op table lacks, with one node of each.
void collect_missing(const Graph& g, const ModelIr& ir, std::map<std::string, std::string>& missing);
std::vector<std::string> describe_missing(const std::map<std::string, std::string>& missing);

}  // namespace burn::onnx::detail
