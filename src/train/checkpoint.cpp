#include "burn/train/checkpoint.hpp"

#include <algorithm>
#include <cstring>
#include <system_error>

#include "burn/store/burnpack.hpp"
#include "platform/files.hpp"
#include "train/state_file.hpp"

namespace burn::train {

namespace fs = std::filesystem;

namespace {

/// Records as Burnpack files (store::BurnpackStore: atomic writes, memory-mapped reads): tensors by
/// name, scalars as f64, metadata as strings. A model part is an ordinary Burnpack model file.
class BurnpackRecordStore final : public RecordStore {
  public:
    std::string extension() const override { return ".bpk"; }

    void save(const fs::path& path, const CheckpointRecord& record) override {
        store::Record r;
        r.tensors = record.tensors;
        for (const auto& [k, v] : record.scalars) r.scalars[k] = store::Scalar(v);
        r.metadata = record.metadata;
        store::BurnpackStore(path).save_record(r);
    }

    CheckpointRecord load(const fs::path& path, const Device& device) override {
        std::error_code ec;
        if (!fs::is_regular_file(path, ec))
            BURN_THROW_KIND(io, "[checkpoint] '", path.string(), "' is missing");
        store::Record r;
        try {
            r = store::BurnpackStore(path).load_record(device);
        } catch (const Error& e) {
            BURN_THROW_KIND(io, "[checkpoint] '", path.string(), "' is damaged: ", e.what(),
                            ". Delete it (and the other files of that checkpoint) or resume from another "
                            "checkpoint");
        }
        CheckpointRecord out;
        out.tensors = std::move(r.tensors);
        for (const auto& [k, v] : r.scalars) out.scalars[k] = v.as_f64();
        out.metadata = std::move(r.metadata);
        return out;
    }
};

}  // namespace

std::shared_ptr<RecordStore> default_record_store() {
    return std::make_shared<BurnpackRecordStore>();
}

// ---------------------------------------------------------------------------------------- modules

void RecordModuleStore::save(const std::vector<store::TensorSnapshot>& snapshots) {
    record_.tensors.clear();
    for (const auto& s : snapshots) record_.tensors[s.path] = ops::inner_of(s.tensor);
}

std::pair<store::ApplyResult, std::vector<store::LoadedTensor>> RecordModuleStore::load(
    const std::vector<store::TensorSlot>& slots) {
    store::ApplyResult result;
    std::vector<store::LoadedTensor> values;
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
            result.errors.push_back(
                {slot.path, ::burn::detail::msg("shape ", t.shape(), " in the checkpoint, ", slot.shape,
                                                " in the model")});
            continue;
        }
        if (t.dtype() != slot.dtype) {
            result.errors.push_back(
                {slot.path, ::burn::detail::msg("dtype ", t.dtype(), " in the checkpoint, ", slot.dtype,
                                                " in the model")});
            continue;
        }
        values.push_back({i, ops::to_device(t, slot.device), std::nullopt});
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

namespace {

bool all_digits(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// "training-TAG.json" -> TAG; empty when the name is not a state file's.
std::string tag_of(const fs::path& file) {
    const std::string name = file.filename().string();
    const std::string prefix = "training-", suffix = ".json";
    if (name.size() <= prefix.size() + suffix.size() || name.rfind(prefix, 0) != 0 ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
        return {};
    return name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
}

struct StateFields {
    CheckpointInfo info;
    std::vector<std::string> parts;
};

/// The checkpointer's own fields of a state file (tag, epoch, iteration, parts), checked: the names
/// become file names, so they must stay inside the checkpoint folder.
StateFields checked_fields(const config::Value& s, const fs::path& file) {
    state_file::StateReader r(s, file);
    StateFields out;
    const std::string& tag = r.name("tag");
    if (tag != tag_of(file))
        r.fail("tag", r.field("tag"), "the file is named for tag '" + tag_of(file) + "'");
    out.info.tag = tag;
    out.info.epoch = static_cast<std::size_t>(r.count("epoch", 0, state_file::kMaxCount));
    out.info.iteration = static_cast<std::size_t>(r.count("iteration", 0, state_file::kMaxCount));
    if (all_digits(tag)) {  // an end-of-epoch checkpoint: tagged with its epoch, at iteration 0
        if (tag != std::to_string(out.info.epoch))
            r.fail("epoch", r.field("epoch"), "the checkpoint is tagged '" + tag + "'");
        if (out.info.iteration != 0)
            r.fail("iteration", r.field("iteration"),
                   "an end-of-epoch checkpoint (tag '" + tag + "') is at iteration 0");
    }
    const config::Value& parts = r.array("parts", 64);
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const config::Value& p = parts.element(i);
        const std::string field = "parts[" + std::to_string(i) + "]";
        if (!p.is_string()) r.fail(field, p, "expected a string");
        const std::string& name = p.as_string();
        if (!state_file::is_plain_name(name))
            r.fail(field, p,
                   "not a plain file name (1 to 64 letters, digits, '_', '-', '.'; not starting with '.', "
                   "no '..', no '/'): checkpoint files stay in the checkpoint folder");
        if (name == "training") r.fail(field, p, "'training' names the state file itself");
        if (std::find(out.parts.begin(), out.parts.end(), name) != out.parts.end())
            r.fail(field, p, "listed twice");
        out.parts.push_back(name);
    }
    return out;
}

}  // namespace

Checkpointer::Checkpointer(fs::path dir, std::shared_ptr<RecordStore> store)
    : dir_(std::move(dir)), store_(store ? std::move(store) : default_record_store()) {}

fs::path Checkpointer::file(const std::string& part, const std::string& tag) const {
    BURN_CHECK(state_file::is_plain_name(tag), "[checkpoint] the tag '", tag,
               "' is not a plain file name (1 to 64 letters, digits, '_', '-', '.'; not starting with '.', "
               "no '..', no '/')");
    BURN_CHECK(state_file::is_plain_name(part), "[checkpoint] the part name '", part,
               "' is not a plain file name (1 to 64 letters, digits, '_', '-', '.'; not starting with '.', "
               "no '..', no '/')");
    if (part == "training") return dir_ / ("training-" + tag + ".json");
    return dir_ / (part + "-" + tag + store_->extension());
}

fs::path Checkpointer::state_file(const std::string& tag) const {
    return file("training", tag);
}

void Checkpointer::save(const CheckpointInfo& info, const std::map<std::string, CheckpointRecord>& parts,
                        const config::Value& state) {
    BURN_CHECK(!parts.count("training"),
               "[checkpoint] 'training' is the state file; name the part otherwise");
    BURN_CHECK(info.epoch <= state_file::kMaxCount && info.iteration <= state_file::kMaxCount,
               "[checkpoint] epoch ", info.epoch, " / iteration ", info.iteration, " past ",
               state_file::kMaxCount);
    for (const auto& [part, record] : parts) (void)file(part, info.tag);  // every name checked first
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
        const std::string tag = tag_of(entry.path());
        if (!state_file::is_plain_name(tag)) continue;  // not a state file of ours
        config::Value s;
        try {
            s = config::parse(platform::read_file(entry.path(), "checkpoint"));
        } catch (const Error&) {
            continue;  // not JSON (a write that never finished, in another tool): not a checkpoint
        }
        // JSON, but with fields that are not ours to trust: refused, naming the file and the field.
        StateFields f = checked_fields(s, entry.path());
        bool complete = true;
        for (const auto& part : f.parts) complete = complete && fs::is_regular_file(file(part, tag), ec);
        if (complete) out.push_back(f.info);
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
    config::Value s = config::parse(platform::read_file(f, "checkpoint"), f.string());
    (void)checked_fields(s, f);
    return s;
}

CheckpointRecord Checkpointer::load_part(const std::string& tag, const std::string& part,
                                         const Device& device) const {
    return store_->load(file(part, tag), device);
}

void Checkpointer::remove(const std::string& tag) const {
    std::error_code ec;
    fs::path state = file("training", tag);
    std::vector<std::string> parts = {"model", "optim", "scheduler"};
    config::Value s;
    bool parsed = false;
    try {
        s = config::parse(platform::read_file(state, "checkpoint"));
        parsed = true;
    } catch (const Error&) {
        // missing or not JSON: the default part names
    }
    if (parsed) parts = checked_fields(s, state).parts;  // throws, deleting nothing, when tampered
    fs::remove(state, ec);
    for (const auto& p : parts) fs::remove(file(p, tag), ec);
}

}  // namespace burn::train
