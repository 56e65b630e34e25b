#include "burn/store/adapter.hpp"

#include <map>
#include <regex>

#include "burn/core/error.hpp"

namespace burn::store {

namespace {

struct Gates {
    const char* kind;
    std::vector<const char*> names;  // in PyTorch's row order
};
const Gates kLstm{"LSTM", {"input_gate", "forget_gate", "cell_gate", "output_gate"}};
const Gates kGru{"GRU", {"reset_gate", "update_gate", "new_gate"}};
const std::vector<const char*> kQkv{"query", "key", "value"};

std::pair<std::string, std::string> split_last(const std::string& name) {
    auto dot = name.rfind('.');
    if (dot == std::string::npos) return {"", name};
    return {name.substr(0, dot), name.substr(dot + 1)};
}

std::string join(const std::string& prefix, const std::string& s) { return prefix.empty() ? s : prefix + "." + s; }

bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
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
bool split_into(const TensorEntry& e, const std::vector<std::string>& targets, const std::set<std::string>& paths,
                std::vector<TensorEntry>& out, ApplyResult& report) {
    for (const auto& t : targets)
        if (!paths.count(t)) return false;
    const auto n = static_cast<int64_t>(targets.size());
    if (e.shape.rank() < 1 || e.shape[0] % n != 0) {
        report.errors.push_back({e.name, "cannot split a tensor of shape " + e.shape.str() + " into " +
                                             std::to_string(n) + " blocks for '" + targets.front() + "', ..."});
        return true;
    }
    for (int64_t i = 0; i < n; ++i) out.push_back(row_block(e, targets[static_cast<std::size_t>(i)], i, n));
    return true;
}

std::vector<std::string> recurrent_prefixes(const std::string& base, int layer, bool reverse) {
    std::string l = join(base, "layers." + std::to_string(layer));
    if (reverse) {
        std::vector<std::string> v{join(l, "reverse")};
        if (layer == 0) v.insert(v.begin(), join(base, "reverse"));
        return v;
    }
    std::vector<std::string> v{l, join(l, "forward")};
    if (layer == 0) v.insert(v.begin(), {base, join(base, "forward")});
    return v;
}

/// Concatenation along dim 0 of parts (same dtype and trailing dims), under name.
TensorEntry concat_rows(std::string name, const std::vector<TensorEntry>& parts) {
    TensorEntry out;
    out.name = std::move(name);
    out.dtype = parts.front().dtype;
    out.shape = parts.front().shape;
    out.shape[0] = 0;
    std::vector<std::function<TensorData()>> reads;
    for (const auto& p : parts) {
        Dims a = p.shape, b = parts.front().shape;
        a[0] = b[0] = 0;
        BURN_CHECK_KIND(p.dtype == out.dtype && a == b, shape, "[BurnToPytorchAdapter] cannot concatenate '", p.name,
                        "' (", p.dtype, " ", p.shape, ") with '", parts.front().name, "' (", parts.front().dtype, " ",
                        parts.front().shape, ") into '", out.name, "'");
        out.shape[0] += p.shape[0];
        reads.push_back(p.read);
    }
    Dims shape = out.shape;
    DType dtype = out.dtype;
    out.read = [reads, shape, dtype] {
        std::vector<uint8_t> bytes;
        for (const auto& r : reads) {
            TensorData d = r();
            bytes.insert(bytes.end(), d.bytes().begin(), d.bytes().end());
        }
        return TensorData(std::move(bytes), shape, dtype);
    };
    return out;
}

/// "rnn.layers.1.reverse" -> ("rnn", 1, "_reverse").
std::string fused_recurrent_name(std::string p, const std::string& param, const std::string& transform) {
    std::string suffix;
    if (ends_with(p, ".reverse") || p == "reverse") {
        suffix = "_reverse";
        p = p.size() > 8 ? p.substr(0, p.size() - 8) : "";
    } else if (ends_with(p, ".forward") || p == "forward") {
        p = p.size() > 8 ? p.substr(0, p.size() - 8) : "";
    }
    std::string layer = "0";
    static const std::regex kLayer("^(.*?)\\.?layers\\.(\\d+)$");
    std::smatch m;
    if (std::regex_match(p, m, kLayer)) {
        layer = m[2];
        p = m[1];
    }
    return join(p, param + "_" + (transform == "input" ? "ih" : "hh") + "_l" + layer + suffix);
}

}  // namespace

std::vector<TensorEntry> Adapter::adapt_load(std::vector<TensorEntry> entries, const std::set<std::string>&,
                                             ApplyResult&) const {
    return entries;
}
std::vector<TensorEntry> Adapter::adapt_save(std::vector<TensorEntry> entries) const { return entries; }

std::vector<TensorEntry> PytorchAdapter::adapt_load(std::vector<TensorEntry> entries,
                                                    const std::set<std::string>& paths, ApplyResult& report) const {
    static const std::regex kRecurrent("^(weight|bias)_(ih|hh)_l(\\d+)(_reverse)?$");
    std::vector<TensorEntry> out;
    for (auto& e : entries) {
        if (paths.count(e.name)) {
            out.push_back(std::move(e));
            continue;
        }
        auto [prefix, leaf] = split_last(e.name);
        if (leaf == "weight" && paths.count(join(prefix, "gamma"))) {
            e.name = join(prefix, "gamma");
        } else if (leaf == "bias" && paths.count(join(prefix, "beta"))) {
            e.name = join(prefix, "beta");
        } else if (leaf == "num_batches_tracked") {
            report.skipped.push_back(e.name);  // PyTorch's BatchNorm counter; the module has no use for it
            continue;
        } else if ((prefix == "out_proj" || ends_with(prefix, ".out_proj")) &&
                   paths.count(join(prefix.substr(0, prefix.size() - 8) + "output", leaf))) {
            std::string base = prefix.size() > 8 ? prefix.substr(0, prefix.size() - 9) : "";
            e.name = join(join(base, "output"), leaf);
        } else if (leaf == "in_proj_weight" || leaf == "in_proj_bias") {
            std::vector<std::string> targets;
            for (const char* q : kQkv) targets.push_back(join(join(prefix, q), leaf == "in_proj_weight" ? "weight" : "bias"));
            if (split_into(e, targets, paths, out, report)) continue;
        } else {
            std::smatch m;
            if (std::regex_match(leaf, m, kRecurrent) && m[3].length() < 6) {
                const std::string param = m[1], transform = m[2] == "ih" ? "input_transform" : "hidden_transform";
                bool done = false;
                for (const auto& p : recurrent_prefixes(prefix, std::stoi(m[3]), m[4].matched)) {
                    for (const Gates* g : {&kLstm, &kGru}) {
                        std::vector<std::string> targets;
                        for (const char* gate : g->names) targets.push_back(join(join(join(p, gate), transform), param));
                        if ((done = split_into(e, targets, paths, out, report))) break;
                    }
                    if (done) break;
                }
                if (done) continue;
            }
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
    for (std::size_t i = 0; i < entries.size(); ++i) index[entries[i].name] = i;
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

    static const std::regex kGate("^(.*?)\\.?([a-z]+_gate)\\.(input|hidden)_transform\\.(weight|bias)$");
    static const std::regex kAttention("^(.*?)\\.?query\\.(weight|bias)$");
    std::set<std::string> attention;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        if (consumed[i]) continue;
        std::smatch m;
        const std::string& name = entries[i].name;
        if (std::regex_match(name, m, kGate)) {
            const std::string p = m[1], transform = m[3], param = m[4];
            for (const Gates* g : {&kLstm, &kGru}) {
                std::vector<std::string> names;
                for (const char* gate : g->names) names.push_back(join(join(join(p, gate), transform + "_transform"), param));
                if (try_fuse(names, fused_recurrent_name(p, param, transform))) break;
            }
        } else if (std::regex_match(name, m, kAttention)) {
            const std::string p = m[1], param = m[2];
            std::vector<std::string> names;
            for (const char* q : kQkv) names.push_back(join(join(p, q), param));
            if (try_fuse(names, join(p, "in_proj_" + param))) attention.insert(p);
        }
    }

    std::vector<TensorEntry> out;
    std::set<std::string> batch_norms;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        if (auto f = fused.find(i); f != fused.end()) out.push_back(std::move(f->second));
        if (consumed[i]) continue;
        TensorEntry e = std::move(entries[i]);
        auto [prefix, leaf] = split_last(e.name);
        if (leaf == "gamma") e.name = join(prefix, "weight");
        if (leaf == "beta") e.name = join(prefix, "bias");
        auto [owner, last] = split_last(prefix);
        if (last == "output" && attention.count(owner)) e.name = join(join(owner, "out_proj"), leaf);
        if (leaf == "running_var" && !index.count(join(prefix, "num_batches_tracked"))) batch_norms.insert(prefix);
        out.push_back(std::move(e));
        if (batch_norms.count(prefix) && leaf == "running_var") {
            TensorEntry n;
            n.name = join(prefix, "num_batches_tracked");
            n.dtype = DType::i64;
            n.read = [] { return TensorData(std::vector<uint8_t>(8, 0), Dims(), DType::i64); };
            out.push_back(std::move(n));
        }
    }
    return out;
}

std::vector<TensorEntry> ChainAdapter::adapt_load(std::vector<TensorEntry> entries, const std::set<std::string>& paths,
                                                  ApplyResult& report) const {
    for (const auto& a : adapters_) entries = a->adapt_load(std::move(entries), paths, report);
    return entries;
}

std::vector<TensorEntry> ChainAdapter::adapt_save(std::vector<TensorEntry> entries) const {
    for (const auto& a : adapters_) entries = a->adapt_save(std::move(entries));
    return entries;
}

}  // namespace burn::store
