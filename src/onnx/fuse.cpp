// Conv -> (Add) -> (Relu | Clip) into FusedConv steps (fuse.hpp).
#include "onnx/fuse.hpp"

#include <limits>

namespace burn::onnx::detail {

namespace {

bool is(const Step& s, const char* op) {
    return s.node->op_type == op && (s.node->domain.empty() || s.node->domain == "ai.onnx");
}

/// The scalar value of a constant slot (Clip's bounds); false when it is not a known one-element float.
bool constant_scalar(const Plan& plan, int slot, double& v) {
    const TensorAny& t = plan.constants[static_cast<std::size_t>(slot)];
    if (!t.defined() || t.shape().numel() != 1 || !is_float(t.dtype())) return false;
    v = ops::into_data(ops::cast(t, DType::f64)).to_vec<double>()[0];
    return true;
}

/// Clip's bounds (inputs from opset 11, attributes before); false when one is not a known constant.
bool clip_bounds(const Plan& plan, const Step& s, double& lo, double& hi) {
    lo = -std::numeric_limits<double>::infinity(), hi = std::numeric_limits<double>::infinity();
    if (s.opset < 11) {
        auto a = s.node->attrs.find("min"), b = s.node->attrs.find("max");
        if (a != s.node->attrs.end()) lo = a->second.f;
        if (b != s.node->attrs.end()) hi = b->second.f;
        return true;
    }
    if (s.in.size() > 1 && s.in[1] >= 0 && !constant_scalar(plan, s.in[1], lo)) return false;
    if (s.in.size() > 2 && s.in[2] >= 0 && !constant_scalar(plan, s.in[2], hi)) return false;
    return lo <= hi;
}

Attribute attr_string(std::string v) {
    Attribute a;
    a.kind = Attribute::Kind::s;
    a.s = std::move(v);
    return a;
}

}  // namespace

int fuse_conv_chains(Plan& plan) {
    const OpEntry* fused = op_table().find("com.microsoft", "FusedConv");
    if (!fused) return 0;
    // readers of each slot; graph outputs count as one more (they must stay)
    std::vector<int> readers(plan.num_slots, 0);
    std::vector<int> reader_step(plan.num_slots, -1);
    for (std::size_t k = 0; k < plan.steps.size(); ++k) {
        for (int s : plan.steps[k].in)
            if (s >= 0)
                ++readers[static_cast<std::size_t>(s)], reader_step[static_cast<std::size_t>(s)] = int(k);
        for (int s : plan.steps[k].captures) readers[static_cast<std::size_t>(s)] += 2;
    }
    for (int s : plan.output_slots) readers[static_cast<std::size_t>(s)] += 2;
    // the single step that reads slot, or -1
    std::vector<bool> gone(plan.steps.size(), false);      // fused into a later step
    std::vector<bool> fused_at(plan.steps.size(), false);  // holds a FusedConv now
    // the single step that reads slot and is still itself, or -1
    auto sole_reader = [&](int slot) {
        if (slot < 0 || readers[static_cast<std::size_t>(slot)] != 1) return -1;
        const int k = reader_step[static_cast<std::size_t>(slot)];
        return gone[static_cast<std::size_t>(k)] || fused_at[static_cast<std::size_t>(k)] ? -1 : k;
    };
    int count = 0;
    for (std::size_t k = 0; k < plan.steps.size(); ++k) {
        const Step& conv = plan.steps[k];
        if (gone[k] || fused_at[k] || !is(conv, "Conv") || conv.out.size() != 1 || conv.in.size() < 2)
            continue;
        int last = static_cast<int>(k), z = -1;
        double lo = -std::numeric_limits<double>::infinity(), hi = std::numeric_limits<double>::infinity();
        std::string act;
        std::vector<int> chain{last};
        int next = sole_reader(conv.out[0]);
        if (next >= 0 && is(plan.steps[static_cast<std::size_t>(next)], "Add")) {
            const Step& add = plan.steps[static_cast<std::size_t>(next)];
            const int y = plan.steps[static_cast<std::size_t>(last)].out[0];
            if (add.in.size() == 2 && add.in[0] >= 0 && add.in[1] >= 0 && add.in[0] != add.in[1] &&
                add.out.size() == 1) {
                z = add.in[0] == y ? add.in[1] : add.in[0];
                last = next;
                chain.push_back(next);
                next = sole_reader(add.out[0]);
            }
        }
        if (next >= 0) {
            const Step& s = plan.steps[static_cast<std::size_t>(next)];
            if (is(s, "Relu") && s.out.size() == 1) {
                act = "Relu", lo = 0, last = next;
                chain.push_back(next);
            } else if (is(s, "Clip") && s.out.size() == 1 && clip_bounds(plan, s, lo, hi)) {
                act = "Clip", last = next;
                chain.push_back(next);
            }
        }
        if (chain.size() == 1) continue;
        const Step& tail = plan.steps[static_cast<std::size_t>(last)];
        auto node = std::make_unique<Node>(*conv.node);
        node->op_type = "FusedConv";
        node->domain = "com.microsoft";
        node->name = conv.node->name + "+" + std::to_string(chain.size() - 1);
        node->outputs = tail.node->outputs;
        Step st;
        st.in = conv.in;
        node->inputs.resize(st.in.size());
        if (z >= 0) {
            st.in.resize(3, -1);
            node->inputs.resize(3);
            st.in.push_back(z);
            node->inputs.push_back("Z");
        }
        if (!act.empty()) {
            node->attrs["activation"] = attr_string(act);
            if (act == "Clip") {
                Attribute p;
                p.kind = Attribute::Kind::floats;
                p.floats = {lo, hi};
                node->attrs["activation_params"] = p;
            }
        }
        st.out = tail.out;
        st.entry = fused;
        st.opset = 1;
        st.node = node.get();
        plan.owned_nodes.push_back(std::move(node));
        for (int i : chain) gone[static_cast<std::size_t>(i)] = true;
        gone[static_cast<std::size_t>(last)] = false;
        fused_at[static_cast<std::size_t>(last)] = true;
        plan.steps[static_cast<std::size_t>(last)] = std::move(st);
        ++count;
    }
    std::vector<Step> kept;
    for (std::size_t k = 0; k < plan.steps.size(); ++k)
        if (!gone[k]) kept.push_back(std::move(plan.steps[k]));
    plan.steps = std::move(kept);
    return count;
}

}  // namespace burn::onnx::detail
