// Rust burn's per-gate recurrent layers into this project's fused ones on load (gate_fusion.hpp).
#include "store/gate_fusion.hpp"

#include <map>

namespace burn::store {

namespace gate_fusion_impl {  // named: unity builds merge anonymous namespaces

// The gates in PyTorch's row order of the fused tensors.
const std::vector<const char*> kLstmGates{"input_gate", "forget_gate", "cell_gate",
                                          "output_gate"};                           // i f g o
const std::vector<const char*> kGruGates{"reset_gate", "update_gate", "new_gate"};  // r z n

std::string child_path(const std::string& a, const std::string& b) {
    return a.empty() ? b : a + "." + b;
}

/// Where Rust burn keeps the layer this project keeps at prefix p: p itself, or for a bidirectional
/// layer's direction (forward_lstm, reverse_gru, ...) Rust burn's field name (forward, reverse).
std::vector<std::string> file_prefixes(const std::string& p) {
    std::vector<std::string> out{p};
    const auto dot = p.rfind('.');
    const std::string parent = dot == std::string::npos ? "" : p.substr(0, dot);
    const std::string last = dot == std::string::npos ? p : p.substr(dot + 1);
    for (const char* dir : {"forward", "reverse"})
        for (const char* kind : {"_lstm", "_gru", "_rnn"})
            if (last == std::string(dir) + kind) out.push_back(child_path(parent, dir));
    return out;
}

/// Rust burn's name of a bidirectional layer's direction: forward_lstm -> forward, reverse_gru -> reverse.
std::string rust_prefix(const std::string& p) {
    const auto dot = p.rfind('.');
    const std::string parent = dot == std::string::npos ? "" : p.substr(0, dot);
    const std::string last = dot == std::string::npos ? p : p.substr(dot + 1);
    for (const char* dir : {"forward", "reverse"})
        for (const char* kind : {"_lstm", "_gru", "_rnn"})
            if (last == std::string(dir) + kind) return child_path(parent, dir);
    return p;
}

}  // namespace gate_fusion_impl

using namespace gate_fusion_impl;

std::vector<TensorEntry> fuse_gate_linears(std::vector<TensorEntry> entries,
                                           const std::set<std::string>& paths, bool in_out,
                                           ApplyResult& result) {
    std::map<std::string, std::size_t> by_name;
    for (std::size_t i = 0; i < entries.size(); ++i) by_name.emplace(entries[i].name, i);
    std::vector<bool> consumed(entries.size(), false);
    std::vector<TensorEntry> fused;
    for (const std::string& path : paths) {
        if (by_name.count(path)) continue;
        const auto dot = path.rfind('.');
        const std::string prefix = dot == std::string::npos ? "" : path.substr(0, dot);
        const std::string leaf = dot == std::string::npos ? path : path.substr(dot + 1);
        if (leaf != "weight_ih" && leaf != "weight_hh" && leaf != "bias_ih" && leaf != "bias_hh") continue;
        const std::string param = leaf.substr(0, leaf.find('_'));
        const std::string transform =
            leaf.substr(leaf.size() - 2) == "ih" ? "input_transform" : "hidden_transform";
        bool done = false;
        for (const std::string& fp : file_prefixes(prefix)) {
            for (const auto* gates : {&kLstmGates, &kGruGates}) {
                std::vector<std::size_t> idx;
                for (const char* g : *gates) {
                    auto it = by_name.find(child_path(child_path(child_path(fp, g), transform), param));
                    if (it == by_name.end() || consumed[it->second]) break;
                    idx.push_back(it->second);
                }
                if (idx.size() != gates->size()) continue;
                std::vector<TensorEntry> parts;
                for (std::size_t i : idx) {
                    TensorEntry e = entries[i];
                    if (in_out && param == "weight" && e.shape.rank() == 2) e = transposed(std::move(e));
                    parts.push_back(std::move(e));
                }
                bool stack = true;
                for (const auto& q : parts) {
                    Dims a = q.shape, b = parts.front().shape;
                    if (a.rank() >= 1 && b.rank() >= 1) a[0] = b[0] = 0;
                    stack = stack && q.dtype == parts.front().dtype && a == b && a.rank() >= 1;
                }
                if (!stack) {
                    result.errors.push_back({path, "the per-gate tensors '" + parts.front().name + "', ... " +
                                                       "of the file do not stack into one tensor (shapes " +
                                                       parts.front().shape.str() + ", " +
                                                       parts.back().shape.str() + ")"});
                    done = true;
                    break;
                }
                fused.push_back(concat_rows(path, parts));
                for (std::size_t i : idx) consumed[i] = true;
                done = true;
                break;
            }
            if (done) break;
        }
    }
    if (fused.empty()) return entries;
    std::vector<TensorEntry> out;
    for (std::size_t i = 0; i < entries.size(); ++i)
        if (!consumed[i]) out.push_back(std::move(entries[i]));
    for (auto& f : fused) out.push_back(std::move(f));
    return out;
}

std::vector<TensorEntry> split_gate_linears(TensorEntry e, const std::string& module_type) {
    const std::vector<const char*>* gates = module_type == "Lstm"  ? &kLstmGates
                                            : module_type == "Gru" ? &kGruGates
                                                                   : nullptr;
    const auto dot = e.name.rfind('.');
    const std::string prefix = dot == std::string::npos ? "" : e.name.substr(0, dot);
    const std::string leaf = dot == std::string::npos ? e.name : e.name.substr(dot + 1);
    const bool fused = leaf == "weight_ih" || leaf == "weight_hh" || leaf == "bias_ih" || leaf == "bias_hh";
    const auto n = gates ? static_cast<int64_t>(gates->size()) : 0;
    if (!fused || !gates || e.shape.rank() < 1 || e.shape[0] % n != 0) return {std::move(e)};
    const std::string param = leaf.substr(0, leaf.find('_'));
    const std::string transform =
        leaf.substr(leaf.size() - 2) == "ih" ? "input_transform" : "hidden_transform";
    std::vector<TensorEntry> out;
    for (int64_t i = 0; i < n; ++i) {
        TensorEntry part;
        part.name = child_path(
            child_path(child_path(rust_prefix(prefix), (*gates)[static_cast<std::size_t>(i)]), transform),
            param);
        part.dtype = e.dtype;
        part.shape = e.shape;
        part.shape[0] /= n;
        part.read = [read = e.read, i, n] {
            const TensorData d = read();
            const int64_t rows = d.shape()[0] / n;
            return slice_rows(d, i * rows, (i + 1) * rows);
        };
        out.push_back(param == "weight" && part.shape.rank() == 2 ? transposed(std::move(part))
                                                                  : std::move(part));
    }
    return out;
}

}  // namespace burn::store
