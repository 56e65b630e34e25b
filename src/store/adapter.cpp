#include "burn/store/adapter.hpp"

#include <map>
#include <regex>

#include "burn/core/error.hpp"

namespace burn::store {

namespace {

struct Gates {
    std::vector<const char*> names;  // in PyTorch's row order
};
const Gates kLstm{{"input_gate", "forget_gate", "cell_gate", "output_gate"}};  // i, f, g, o
const Gates kGru{{"reset_gate", "update_gate", "new_gate"}};                   // r, z, n
const std::vector<const char*> kQkv{"query", "key", "value"};

// PyTorch's submodule names and this project's (nn/transformer.hpp, nn/attention.hpp). On load an
// alternative is used only when the resulting path exists in the module.
const std::pair<const char*, const char*> kSegments[] = {
    {"self_attn", "mha"},
    {"multihead_attn", "cross_attn"},
    {"linear1", "pwff.linear_inner"},
    {"linear2", "pwff.linear_outer"},
    {"norm1", "norm_1"},
    {"norm2", "norm_2"},
    {"norm3", "norm_3"},
    {"out_proj", "output"},
};

std::pair<std::string, std::string> split_last(const std::string& name) {
    auto dot = name.rfind('.');
    if (dot == std::string::npos) return {"", name};
    return {name.substr(0, dot), name.substr(dot + 1)};
}

std::string join(const std::string& prefix, const std::string& s) {
    if (prefix.empty()) return s;
    if (s.empty()) return prefix;
    return prefix + "." + s;
}

std::vector<std::string> split_dots(const std::string& s) {
    std::vector<std::string> out;
    std::size_t pos = 0;
    while (true) {
        auto dot = s.find('.', pos);
        out.push_back(s.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos));
        if (dot == std::string::npos) return out;
        pos = dot + 1;
    }
}

/// The prefix itself first, then every combination of PyTorch -> project segment renames (at most 64).
std::vector<std::string> prefix_alternatives(const std::string& prefix) {
    std::vector<std::string> alts{""};
    if (prefix.empty()) return alts;
    for (const auto& seg : split_dots(prefix)) {
        std::vector<std::string> next;
        for (const auto& a : alts) {
            next.push_back(join(a, seg));
            for (const auto& [from, to] : kSegments)
                if (seg == from && next.size() < 64) next.push_back(join(a, to));
        }
        alts = std::move(next);
    }
    return alts;
}

/// Entry i of n equal row blocks of e (dim 0).
TensorEntry row_block(const TensorEntry& e, std::string name, int64_t i, int64_t n) {
    TensorEntry out = e;
    out.name = std::move(name);
    out.shape[0] = e.shape[0] / n;
    if (e.read) {
        out.read = [read = e.read, i, n] {
            TensorData d = read();
            int64_t rows = d.shape()[0] / n;
            return slice_rows(d, i * rows, (i + 1) * rows);
        };
    }
    return out;
}

/// Splits e into targets along dim 0 when every target is a module path; reports what went wrong.
bool split_into(const TensorEntry& e, const std::vector<std::string>& targets,
                const std::set<std::string>& paths, std::vector<TensorEntry>& out, ApplyResult& report) {
    for (const auto& t : targets)
        if (!paths.count(t)) return false;
    const auto n = static_cast<int64_t>(targets.size());
    if (e.shape.rank() < 1 || e.shape[0] % n != 0) {
        report.errors.push_back({e.name, "cannot split a tensor of shape " + e.shape.str() + " into " +
                                             std::to_string(n) + " blocks for '" + targets.front() +
                                             "', ..."});
        return true;
    }
    for (int64_t i = 0; i < n; ++i) out.push_back(row_block(e, targets[static_cast<std::size_t>(i)], i, n));
    return true;
}

/// Module prefixes that can hold PyTorch's recurrent layer `layer` (direction reverse) of base.
std::vector<std::string> recurrent_prefixes(const std::string& base, int layer, bool reverse) {
    std::string l = join(base, "layers." + std::to_string(layer));
    std::vector<std::string> v;
    if (reverse) {
        if (layer == 0) v = {join(base, "reverse_lstm"), join(base, "reverse")};
        v.insert(v.end(), {join(l, "reverse_lstm"), join(l, "reverse")});
    } else {
        if (layer == 0) v = {base, join(base, "forward_lstm"), join(base, "forward")};
        v.insert(v.end(), {l, join(l, "forward_lstm"), join(l, "forward")});
    }
    return v;
}

/// Rewrites one PyTorch entry under module prefix p (an alternative of its own prefix); true when done.
bool adapt_entry(TensorEntry& e, const std::string& p, const std::string& leaf,
                 const std::set<std::string>& paths, std::vector<TensorEntry>& out, ApplyResult& report) {
    static const std::regex kRecurrent("^(weight|bias)_(ih|hh)_l(\\d{1,4})(_reverse)?$");
    auto take = [&](std::string name) {
        e.name = std::move(name);
        out.push_back(std::move(e));
        return true;
    };
    if (paths.count(join(p, leaf))) return take(join(p, leaf));
    if (leaf == "weight" && paths.count(join(p, "gamma"))) return take(join(p, "gamma"));
    if (leaf == "bias" && paths.count(join(p, "beta"))) return take(join(p, "beta"));
    if (leaf == "in_proj_weight" || leaf == "in_proj_bias") {
        std::vector<std::string> targets;
        for (const char* q : kQkv)
            targets.push_back(join(join(p, q), leaf == "in_proj_weight" ? "weight" : "bias"));
        return split_into(e, targets, paths, out, report);
    }
    std::smatch m;
    if (!std::regex_match(leaf, m, kRecurrent)) return false;
    const std::string param = m[1], ih = m[2];
    for (const auto& q : recurrent_prefixes(p, std::stoi(m[3]), m[4].matched)) {
        // This project's layers keep PyTorch's fused tensors (weight_ih, ...); burn-style modules have
        // one Linear per gate.
        if (paths.count(join(q, param + "_" + ih))) return take(join(q, param + "_" + ih));
        const std::string transform = ih == "ih" ? "input_transform" : "hidden_transform";
        for (const Gates* g : {&kLstm, &kGru}) {
            std::vector<std::string> targets;
            for (const char* gate : g->names) targets.push_back(join(join(join(q, gate), transform), param));
            if (split_into(e, targets, paths, out, report)) return true;
        }
    }
    return false;
}

/// PyTorch's name of a recurrent tensor at prefix p: "rnn.layers.1.reverse_lstm" + weight, ih ->
/// "rnn.weight_ih_l1_reverse".
std::string fused_recurrent_name(std::string p, const std::string& param, const std::string& ih) {
    std::string suffix;
    auto [parent, last] = split_last(p);
    if (last == "reverse" || last == "reverse_lstm") {
        suffix = "_reverse";
        p = parent;
    } else if (last == "forward" || last == "forward_lstm") {
        p = parent;
    }
    std::string layer = "0";
    auto [owner, index] = split_last(p);
    auto [grand, layers] = split_last(owner);
    if (layers == "layers" && !index.empty() && index.find_first_not_of("0123456789") == std::string::npos) {
        layer = index;
        p = grand;
    }
    return join(p, param + "_" + ih + "_l" + layer + suffix);
}

/// Renames this project's transformer submodules to PyTorch's inside transformer layers (modules
/// with a `pwff` child): mha -> self_attn, cross_attn -> multihead_attn, pwff.linear_inner -> linear1,
/// norm_1 -> norm1, ...
std::string pytorch_segments(const std::string& name, const std::set<std::string>& layers) {
    for (const auto& layer : layers) {
        std::string head = layer.empty() ? "" : layer + ".";
        if (name.compare(0, head.size(), head) != 0) continue;
        std::string rest = name.substr(head.size());
        static const std::pair<const char*, const char*> kBack[] = {{"mha.", "self_attn."},
                                                                    {"cross_attn.", "multihead_attn."},
                                                                    {"pwff.linear_inner.", "linear1."},
                                                                    {"pwff.linear_outer.", "linear2."},
                                                                    {"norm_1.", "norm1."},
                                                                    {"norm_2.", "norm2."},
                                                                    {"norm_3.", "norm3."}};
        for (const auto& [from, to] : kBack) {
            std::string f = from;
            if (rest.compare(0, f.size(), f) == 0) return head + to + rest.substr(f.size());
        }
    }
    return name;
}

}  // namespace

std::vector<TensorEntry> Adapter::adapt_load(std::vector<TensorEntry> entries, const std::set<std::string>&,
                                             ApplyResult&) const {
    return entries;
}
std::vector<TensorEntry> Adapter::adapt_save(std::vector<TensorEntry> entries) const {
    return entries;
}

std::vector<TensorEntry> PytorchAdapter::adapt_load(std::vector<TensorEntry> entries,
                                                    const std::set<std::string>& paths,
                                                    ApplyResult& report) const {
    std::vector<TensorEntry> out;
    for (auto& e : entries) {
        if (paths.count(e.name)) {
            out.push_back(std::move(e));
            continue;
        }
        auto [prefix, leaf] = split_last(e.name);
        bool done = false;
        for (const auto& p : prefix_alternatives(prefix))
            if ((done = adapt_entry(e, p, leaf, paths, out, report))) break;
        if (done) continue;
        if (leaf == "num_batches_tracked") {
            report.skipped.push_back(e.name);  // PyTorch's BatchNorm counter; the module has no use for it
            continue;
        }
        out.push_back(std::move(e));
    }
    return out;
}

std::vector<TensorEntry> PytorchAdapter::adapt_save(std::vector<TensorEntry> entries) const {
    return BurnToPytorchAdapter().adapt_save(std::move(entries));
}

std::vector<TensorEntry> BurnToPytorchAdapter::adapt_save(std::vector<TensorEntry> entries) const {
    std::map<std::string, std::size_t> index;
    std::set<std::string> transformer_layers;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        index[entries[i].name] = i;
        const auto segs = split_dots(entries[i].name);
        std::string p;
        for (const auto& s : segs) {
            if (s == "pwff") transformer_layers.insert(p);
            p = join(p, s);
        }
    }
    std::vector<bool> consumed(entries.size(), false);
    std::map<std::size_t, TensorEntry> fused;  // placed where the first part was

    auto try_fuse = [&](const std::vector<std::string>& names, const std::string& fused_name) {
        std::vector<std::size_t> idx;
        for (const auto& n : names) {
            auto it = index.find(n);
            if (it == index.end() || consumed[it->second]) return false;
            idx.push_back(it->second);
        }
        std::vector<TensorEntry> parts;
        for (auto i : idx) parts.push_back(entries[i]);
        fused[idx.front()] = concat_rows(fused_name, parts);
        for (auto i : idx) consumed[i] = true;
        return true;
    };

    static const std::regex kGate("^(?:(.*)\\.)?([a-z]+_gate)\\.(input|hidden)_transform\\.(weight|bias)$");
    std::set<std::string> attention;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        if (consumed[i]) continue;
        std::smatch m;
        const std::string& name = entries[i].name;
        auto [prefix, leaf] = split_last(name);
        auto [owner, last] = split_last(prefix);
        if (std::regex_match(name, m, kGate)) {
            const std::string p = m[1], ih = m[3] == "input" ? "ih" : "hh", param = m[4];
            for (const Gates* g : {&kLstm, &kGru}) {
                std::vector<std::string> names;
                for (const char* gate : g->names)
                    names.push_back(join(join(join(p, gate), m[3].str() + "_transform"), param));
                if (try_fuse(names, pytorch_segments(fused_recurrent_name(p, param, ih), transformer_layers)))
                    break;
            }
        } else if (last == "query" && (leaf == "weight" || leaf == "bias")) {
            std::vector<std::string> names;
            for (const char* q : kQkv) names.push_back(join(join(owner, q), leaf));
            if (try_fuse(names, pytorch_segments(join(owner, "in_proj_" + leaf), transformer_layers)))
                attention.insert(owner);
        }
    }

    std::vector<TensorEntry> out;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        if (auto f = fused.find(i); f != fused.end()) out.push_back(std::move(f->second));
        if (consumed[i]) continue;
        TensorEntry e = std::move(entries[i]);
        const std::string module_name = e.name;
        auto [prefix, leaf] = split_last(e.name);
        auto [owner, last] = split_last(prefix);
        if (leaf == "gamma") e.name = join(prefix, "weight");
        if (leaf == "beta") e.name = join(prefix, "bias");
        if (last == "output" && attention.count(owner)) e.name = join(join(owner, "out_proj"), leaf);
        // This project's fused recurrent layers: weight_ih -> weight_ih_l0 (reverse_lstm -> _l0_reverse).
        static const std::regex kFused("^(weight|bias)_(ih|hh)$");
        std::smatch m;
        if (std::regex_match(leaf, m, kFused) && index.count(join(prefix, "weight_hh")) &&
            index.count(join(prefix, "weight_ih")))
            e.name = fused_recurrent_name(prefix, m[1], m[2]);
        e.name = pytorch_segments(e.name, transformer_layers);
        out.push_back(std::move(e));
        if (leaf == "running_var" && !index.count(join(prefix, "num_batches_tracked"))) {
            TensorEntry n;  // BatchNorm's counter, which PyTorch's state dict has
            n.name = pytorch_segments(join(prefix, "num_batches_tracked"), transformer_layers);
            n.dtype = DType::i64;
            n.read = [] { return TensorData(std::vector<uint8_t>(8, 0), Dims(), DType::i64); };
            out.push_back(std::move(n));
        }
    }
    return out;
}

std::vector<TensorEntry> ChainAdapter::adapt_load(std::vector<TensorEntry> entries,
                                                  const std::set<std::string>& paths,
                                                  ApplyResult& report) const {
    for (const auto& a : adapters_) entries = a->adapt_load(std::move(entries), paths, report);
    return entries;
}

std::vector<TensorEntry> ChainAdapter::adapt_save(std::vector<TensorEntry> entries) const {
    for (const auto& a : adapters_) entries = a->adapt_save(std::move(entries));
    return entries;
}

}  // namespace burn::store
