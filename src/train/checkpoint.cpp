#include "burn/train/checkpoint.hpp"

#include <algorithm>
#include <cstring>
#include <system_error>

#include "platform/files.hpp"

namespace burn::train {

namespace fs = std::filesystem;

namespace {

constexpr char kMagic[8] = {'B', 'U', 'R', 'N', 'R', 'E', 'C', '1'};

uint64_t bits_of(double v) {
    uint64_t b;
    std::memcpy(&b, &v, sizeof b);
    return b;
}
double double_of(uint64_t b) {
    double v;
    std::memcpy(&v, &b, sizeof v);
    return v;
}

[[noreturn]] void damaged(const fs::path& path, const std::string& why) {
    BURN_THROW_KIND(io, "[checkpoint] '", path.string(), "' is damaged: ", why,
                    ". Delete it (and the other files of that checkpoint) or resume from another checkpoint");
}

class BuiltinRecordStore final : public RecordStore {
  public:
    std::string extension() const override { return ".bpk"; }

    void save(const fs::path& path, const CheckpointRecord& record) override {
        config::Value header = config::Value::object();
        config::Value tensors = config::Value::array();
        std::vector<TensorData> datas;
        uint64_t offset = 0;
        for (const auto& [name, t] : record.tensors) {
            TensorData d = ops::into_data(t);
            config::Value e = config::Value::object();
            e["name"] = name;
            e["dtype"] = std::string(burn::name(d.dtype()));
            config::Value shape = config::Value::array();
            for (int i = 0; i < d.shape().rank(); ++i) shape.push_back(d.shape()[i]);
            e["shape"] = std::move(shape);
            e["offset"] = offset;
            e["size"] = static_cast<uint64_t>(d.bytes().size());
            offset += d.bytes().size();
            tensors.push_back(std::move(e));
            datas.push_back(std::move(d));
        }
        header["tensors"] = std::move(tensors);
        config::Value scalars = config::Value::object();
        for (const auto& [k, v] : record.scalars) scalars[k] = bits_of(v);
        header["scalars"] = std::move(scalars);
        config::Value meta = config::Value::object();
        for (const auto& [k, v] : record.metadata) meta[k] = v;
        header["metadata"] = std::move(meta);

        std::string text = config::dump(header, -1);
        std::string bytes(kMagic, sizeof kMagic);
        uint64_t n = text.size();
        for (int i = 0; i < 8; ++i) bytes.push_back(static_cast<char>((n >> (8 * i)) & 0xFF));
        bytes += text;
        bytes.reserve(bytes.size() + offset);
        for (const auto& d : datas)
            bytes.append(reinterpret_cast<const char*>(d.bytes().data()), d.bytes().size());
        platform::write_file_atomic(path, bytes, "checkpoint");
    }

    CheckpointRecord load(const fs::path& path, const Device& device) override {
        std::string bytes = platform::read_file(path, "checkpoint");
        if (bytes.size() < 16 || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
            damaged(path, "not a burn record file (bad magic)");
        uint64_t n = 0;
        for (int i = 0; i < 8; ++i)
            n |= static_cast<uint64_t>(static_cast<unsigned char>(bytes[8 + i])) << (8 * i);
        if (n > bytes.size() - 16) damaged(path, "the header runs past the end of the file (truncated?)");
        config::Value header;
        try {
            header = config::parse(bytes.substr(16, n), path.string());
        } catch (const Error& e) {
            damaged(path, std::string("unreadable header: ") + e.what());
        }
        const std::size_t data_start = 16 + n;
        CheckpointRecord r;
        try {
            for (const auto& e : header.at("tensors").as_array()) {
                DType dtype = dtype_from_name(e.at("dtype").as_string());
                Dims shape;
                for (const auto& d : e.at("shape").as_array()) shape.push_back(d.as_int64());
                uint64_t off = e.at("offset").as_uint64(), size = e.at("size").as_uint64();
                if (off > bytes.size() - data_start || size > bytes.size() - data_start - off)
                    damaged(path, "tensor '" + e.at("name").as_string() +
                                      "' runs past the end of the file (truncated?)");
                if (size != static_cast<uint64_t>(shape.numel()) * size_of(dtype))
                    damaged(path, "tensor '" + e.at("name").as_string() +
                                      "' has a size that does not match its shape");
                const auto* p = reinterpret_cast<const uint8_t*>(bytes.data() + data_start + off);
                TensorData d(std::vector<uint8_t>(p, p + size), shape, dtype);
                r.tensors[e.at("name").as_string()] = ops::from_data(d, device);
            }
            for (const auto& [k, v] : header.at("scalars").as_object())
                r.scalars[k] = double_of(v.as_uint64());
            for (const auto& [k, v] : header.at("metadata").as_object()) r.metadata[k] = v.as_string();
        } catch (const IoError&) {
            throw;
        } catch (const Error& e) {
            damaged(path, e.what());
        }
        return r;
    }
};

}  // namespace

std::shared_ptr<RecordStore> default_record_store() {
    return std::make_shared<BuiltinRecordStore>();
}

// ---------------------------------------------------------------------------------------- modules

void RecordModuleStore::save(const std::vector<store::TensorSnapshot>& snapshots) {
    record_.tensors.clear();
    for (const auto& s : snapshots) record_.tensors[s.path] = ops::inner_of(s.tensor);
}

std::pair<store::ApplyResult, std::vector<std::pair<std::size_t, TensorAny>>> RecordModuleStore::load(
    const std::vector<store::TensorSlot>& slots) {
    store::ApplyResult result;
    std::vector<std::pair<std::size_t, TensorAny>> values;
    std::vector<std::string> used;
    for (std::size_t i = 0; i < slots.size(); ++i) {
        const auto& slot = slots[i];
        auto it = record_.tensors.find(slot.path);
        if (it == record_.tensors.end()) {
            result.missing.push_back(slot.path);
            continue;
        }
        used.push_back(slot.path);
        const TensorAny& t = it->second;
        if (t.shape() != slot.shape) {
            result.errors.push_back({slot.path, detail::msg("shape ", t.shape(), " in the checkpoint, ",
                                                            slot.shape, " in the model")});
            continue;
        }
        if (t.dtype() != slot.dtype) {
            result.errors.push_back({slot.path, detail::msg("dtype ", t.dtype(), " in the checkpoint, ",
                                                            slot.dtype, " in the model")});
            continue;
        }
        values.emplace_back(i, ops::to_device(t, slot.device));
        result.applied.push_back(slot.path);
    }
    std::sort(used.begin(), used.end());
    for (const auto& [name, t] : record_.tensors)
        if (!std::binary_search(used.begin(), used.end(), name)) result.unused.push_back(name);
    return {std::move(result), std::move(values)};
}

// ---------------------------------------------------------------------------------------- optimizers

CheckpointRecord optimizer_to_record(const optim::Optimizer& optimizer, const OptimizerPaths& paths) {
    CheckpointRecord r;
    r.metadata["optimizer"] = optimizer.rule().name();
    for (const auto& [id, state] : optimizer.states()) {
        auto it = paths.path_of.find(id);
        if (it == paths.path_of.end()) continue;  // state of a parameter the model no longer has
        for (const auto& [name, t] : state.tensors)
            if (t.defined()) r.tensors[it->second + "/" + name] = t;
        for (const auto& [name, v] : state.scalars) r.scalars[it->second + "/" + name] = v;
    }
    return r;
}

void optimizer_from_record(optim::Optimizer& optimizer, const OptimizerPaths& paths,
                           const CheckpointRecord& record) {
    auto meta = record.metadata.find("optimizer");
    BURN_CHECK(meta == record.metadata.end() || meta->second == optimizer.rule().name(),
               "[checkpoint] the checkpoint holds ", meta->second, " state but the optimizer is ",
               optimizer.rule().name());
    auto split = [&](const std::string& key) -> std::pair<uint64_t, std::string> {
        auto slash = key.rfind('/');
        BURN_CHECK(slash != std::string::npos, "[checkpoint] optimizer state key '", key,
                   "' is not <path>/<name>");
        auto it = paths.id_of.find(key.substr(0, slash));
        BURN_CHECK(it != paths.id_of.end(), "[checkpoint] optimizer state for parameter '",
                   key.substr(0, slash), "', which the model does not have");
        return {it->second, key.substr(slash + 1)};
    };
    std::unordered_map<uint64_t, optim::ParamState> states;
    for (const auto& [key, t] : record.tensors) {
        auto [id, name] = split(key);
        states[id].tensors[name] = t;
    }
    for (const auto& [key, v] : record.scalars) {
        auto [id, name] = split(key);
        states[id].scalars[name] = v;
    }
    optimizer.states() = std::move(states);
}

// ---------------------------------------------------------------------------------------- files

Checkpointer::Checkpointer(fs::path dir, std::shared_ptr<RecordStore> store)
    : dir_(std::move(dir)), store_(store ? std::move(store) : default_record_store()) {}

fs::path Checkpointer::file(const std::string& part, const std::string& tag) const {
    if (part == "training") return dir_ / ("training-" + tag + ".json");
    return dir_ / (part + "-" + tag + store_->extension());
}

void Checkpointer::save(const CheckpointInfo& info, const std::map<std::string, CheckpointRecord>& parts,
                        const config::Value& state) {
    std::error_code ec;
    fs::create_directories(dir_, ec);
    BURN_CHECK_KIND(!ec, io, "[checkpoint] cannot create '", dir_.string(), "': ", ec.message());
    // A stale state file of the same tag must not vouch for the new parts while they are written.
    fs::remove(file("training", info.tag), ec);
    for (const auto& [part, record] : parts) store_->save(file(part, info.tag), record);
    config::Value s = state;
    s["tag"] = info.tag;
    s["epoch"] = static_cast<uint64_t>(info.epoch);
    s["iteration"] = static_cast<uint64_t>(info.iteration);
    config::Value names = config::Value::array();
    for (const auto& [part, record] : parts) names.push_back(part);
    s["parts"] = std::move(names);
    platform::write_file_atomic(file("training", info.tag), config::dump(s, 1), "checkpoint");
}

std::vector<CheckpointInfo> Checkpointer::list() const {
    std::vector<CheckpointInfo> out;
    std::error_code ec;
    if (!fs::is_directory(dir_, ec)) return out;
    for (const auto& entry : fs::directory_iterator(dir_, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("training-", 0) != 0 || entry.path().extension() != ".json") continue;
        try {
            config::Value s = config::parse(platform::read_file(entry.path(), "checkpoint"));
            CheckpointInfo info{s.at("tag").as_string(), static_cast<std::size_t>(s.at("epoch").as_uint64()),
                                static_cast<std::size_t>(s.at("iteration").as_uint64())};
            bool complete = true;
            for (const auto& part : s.at("parts").as_array())
                complete = complete && fs::is_regular_file(file(part.as_string(), info.tag), ec);
            if (complete) out.push_back(info);
        } catch (const Error&) {
            // not a state file of ours, or one from a write that never finished: not a checkpoint
        }
    }
    std::sort(out.begin(), out.end(), [](const CheckpointInfo& a, const CheckpointInfo& b) {
        return a.epoch != b.epoch ? a.epoch < b.epoch : a.iteration < b.iteration;
    });
    return out;
}

std::optional<CheckpointInfo> Checkpointer::latest() const {
    auto all = list();
    if (all.empty()) return std::nullopt;
    return all.back();
}

config::Value Checkpointer::load_state(const std::string& tag) const {
    fs::path f = file("training", tag);
    std::error_code ec;
    if (!fs::is_regular_file(f, ec)) {
        std::string have;
        for (const auto& c : list()) have += (have.empty() ? "" : ", ") + c.tag;
        BURN_THROW_KIND(io, "[checkpoint] no checkpoint '", tag, "' in '", dir_.string(), "' (",
                        have.empty() ? std::string("there are none") : "available: " + have, ")");
    }
    return config::parse(platform::read_file(f, "checkpoint"), f.string());
}

CheckpointRecord Checkpointer::load_part(const std::string& tag, const std::string& part,
                                         const Device& device) const {
    return store_->load(file(part, tag), device);
}

void Checkpointer::remove(const std::string& tag) const {
    std::error_code ec;
    fs::path state = file("training", tag);
    std::vector<std::string> parts = {"model", "optim", "scheduler"};
    try {
        config::Value s = config::parse(platform::read_file(state, "checkpoint"));
        parts.clear();
        for (const auto& p : s.at("parts").as_array()) parts.push_back(p.as_string());
    } catch (const Error&) {
    }
    fs::remove(state, ec);
    for (const auto& p : parts) fs::remove(file(p, tag), ec);
}

}  // namespace burn::train
