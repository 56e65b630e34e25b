#pragma once
// What burn-onnx generate decided about a model before writing it (codegen.cpp -> codegen_write.cpp).
#include <cstddef>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "onnx/codegen.hpp"
#include "onnx/plan.hpp"

namespace burn::onnx::detail {

constexpr std::size_t kNoGroup = std::numeric_limits<std::size_t>::max();

/// A constant the generated forward reads: a Param or Buffer field (saved in the Burnpack) or a literal.
struct Field {
    enum class Kind { param, buffer, literal };
    Kind kind = Kind::literal;
    std::string name;       // the field's (or the literal local's) C++ name
    std::string onnx_name;  // the value's ONNX name
    bool initializer = false;
    int slot = -1;
    const TensorAny* value = nullptr;
    std::size_t group = kNoGroup;  // the nested struct holding it (models with many weights)
};

/// A nested struct of fields (BURN_MODULE takes up to 63 fields per struct).
struct Group {
    std::string member, type;
    std::vector<std::size_t> fields;  // indices into Unit::fields
};

/// The C++ names of one step: its NodeSpec, its output vector and each output ("" = omitted).
struct StepNames {
    std::string spec, all;
    std::vector<std::string> outs;
};

struct Unit {
    const ModelIr* ir = nullptr;
    const Plan* plan = nullptr;
    std::string name, ns, source;
    std::vector<Field> fields;            // Params and Buffers, in first-use order
    std::vector<Field> fields_all;        // every constant read (fields and literals)
    std::vector<std::size_t> literals;    // indices into fields_all
    std::map<int, std::size_t> field_of;  // slot -> index into fields_all
    std::vector<Group> groups;
    std::vector<std::string> inputs;  // the forward's parameters, in graph order
    std::map<int, std::string> expr;  // slot -> a C++ expression of type burn::TensorAny
    std::vector<StepNames> steps;     // parallel to plan->steps

    /// The member access of a field from the top struct ("features.features_1_conv_0_0_weight").
    std::string access(const Field& f) const;
};

Unit analyse(const ModelIr& ir, const Plan& plan);
/// The header's text; counts the statements in r.
std::string write_unit(const Unit& u, CodegenResult& r);

}  // namespace burn::onnx::detail
