// Direct burn calls that `burn-onnx generate` writes for common ops instead of burn::onnx::call (more
// readable generated code). Each emitter writes exactly what its entry's run computes, for the cases it
// accepts, and returns "" for the others (those stay with the generic call). codegen_test.cpp checks
// that both paths give identical outputs.
#include <sstream>

#include "onnx/op_table.hpp"

namespace burn::onnx::detail {

namespace {

std::string emit_list(const std::vector<int64_t>& v) {
    std::ostringstream os;
    os << "{";
    for (std::size_t i = 0; i < v.size(); ++i) os << (i ? ", " : "") << v[i];
    os << "}";
    return os.str();
}

std::string emit_relu(const EmitContext& e) {
    return "burn::ops::relu(" + e.in[0] + ")";
}

std::string emit_identity(const EmitContext& e) {
    return e.in[0];
}

// Conv with a constant weight and explicit pads (auto_pad NOTSET): conv1d/2d/3d with the node's window.
std::string emit_conv(const EmitContext& e) {
    const OpContext& c = e.op;
    if (e.in.size() < 2 || e.known.size() < 2 || !e.known[1] ||
        c.attr_string("auto_pad", "NOTSET") != "NOTSET")
        return "";
    const TensorAny& w = *e.known[1];
    const int64_t s = w.rank() - 2;
    if (s < 1 || s > 3) return "";
    std::vector<int64_t> kernel;
    for (int i = 2; i < w.rank(); ++i) kernel.push_back(w.shape()[i]);
    if (c.attr_ints("kernel_shape", kernel) != kernel) return "";
    const auto n = static_cast<std::size_t>(s);
    const auto stride = c.attr_ints("strides", std::vector<int64_t>(n, 1));
    const auto dilation = c.attr_ints("dilations", std::vector<int64_t>(n, 1));
    const auto pads = c.attr_ints("pads", std::vector<int64_t>(2 * n, 0));
    if (stride.size() != n || dilation.size() != n || pads.size() != 2 * n) return "";
    for (std::size_t i = 0; i < n; ++i)
        if (stride[i] < 1 || dilation[i] < 1 || pads[i] < 0 || pads[i + n] < 0) return "";
    const std::vector<int64_t> begin(pads.begin(), pads.begin() + s), end(pads.begin() + s, pads.end());
    const std::string dims = std::to_string(s);
    std::ostringstream os;
    os << "burn::ops::conv" << dims << "d(" << e.in[0] << ", " << e.in[1] << ", "
       << (e.in.size() > 2 && !e.in[2].empty() ? e.in[2] : "std::nullopt") << ", burn::ConvOptions<" << dims
       << ">{.stride = " << emit_list(stride) << ", .padding = " << emit_list(begin)
       << ", .dilation = " << emit_list(dilation) << ", .groups = " << c.attr_int("group", 1)
       << ", .padding_end = std::array<std::size_t, " << dims << ">" << emit_list(end) << "})";
    return os.str();
}

// Gemm as a linear layer: alpha = beta = 1, A not transposed, B constant 2-D, C absent or constant 1-D.
std::string emit_gemm(const EmitContext& e) {
    const OpContext& c = e.op;
    if (c.attr_int("transA", 0) != 0 || c.attr_float("alpha", 1.0) != 1.0 || c.attr_float("beta", 1.0) != 1.0)
        return "";
    if (e.in.size() < 2 || !e.known[1] || e.known[1]->rank() != 2) return "";
    const bool has_c = e.in.size() > 2 && !e.in[2].empty();
    if (has_c && (!e.known[2] || e.known[2]->rank() != 1)) return "";
    std::string b = c.attr_int("transB", 0) ? "burn::ops::swap_dims(" + e.in[1] + ", 0, 1)" : e.in[1];
    std::string y = "burn::ops::matmul(" + e.in[0] + ", " + b + ")";
    if (!has_c) return y;
    return "burn::ops::add(" + y + ", burn::ops::reshape(" + e.in[2] + ", {1, " +
           std::to_string(e.known[2]->shape()[0]) + "}))";
}

}  // namespace

void add_emitters(OpTable& t) {
    t.set_emitter("Relu", emit_relu);
    t.set_emitter("Identity", emit_identity);
    t.set_emitter("Conv", emit_conv);
    t.set_emitter("Gemm", emit_gemm);
}

}  // namespace burn::onnx::detail
