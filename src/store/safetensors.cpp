#include "burn/store/safetensors.hpp"

#include <algorithm>

#include "burn/tensor/ops.hpp"
#include "platform/files.hpp"
#include "store/format.hpp"
#include "store/safetensors_format.hpp"

namespace burn::store {

struct SafetensorsStore::Source {
    detail::ByteSource bytes;
    std::optional<detail::SafetensorsContents> contents;
};

SafetensorsStore::SafetensorsStore() {
    opts_.load_adapter = std::make_shared<PytorchAdapter>();
}

SafetensorsStore::SafetensorsStore(std::filesystem::path path) : SafetensorsStore() {
    path_ = std::move(path);
}

SafetensorsStore SafetensorsStore::from_bytes(std::vector<uint8_t> bytes) {
    SafetensorsStore s;
    s.source_ = std::make_shared<Source>();
    s.source_->bytes = detail::ByteSource(
        detail::view_vector(std::make_shared<const std::vector<uint8_t>>(std::move(bytes))));
    return s;
}

SafetensorsStore SafetensorsStore::in_memory() {
    SafetensorsStore s;
    s.in_memory_ = true;
    return s;
}

SafetensorsStore& SafetensorsStore::metadata(std::string key, std::string value) {
    metadata_[std::move(key)] = std::move(value);
    return *this;
}

const SafetensorsStore::Source& SafetensorsStore::source() {
    if (!source_) {
        BURN_CHECK(!in_memory_,
                   "[SafetensorsStore] this in-memory store holds nothing yet: save into it first");
        source_ = std::make_shared<Source>();
        source_->bytes = detail::ByteSource::open(path_, "SafetensorsStore", opts_.mmap);
    }
    if (!source_->contents) {
        // Only the header is read here: 8 bytes, then the JSON length they give (within limits).
        const detail::ByteSource& src = source_->bytes;
        std::vector<uint8_t> head;
        const uint8_t* p = src.prefix(8, head);
        uint64_t want = 8;
        if (src.size() >= 8)
            want += std::min<uint64_t>(detail::read_le<uint64_t>(p), opts_.limits.max_header_bytes);
        want = std::min(want, src.size());
        p = src.prefix(static_cast<std::size_t>(want), head);
        source_->contents =
            detail::parse_safetensors(p, static_cast<std::size_t>(want), opts_.limits, src.size());
    }
    return *source_;
}

std::map<std::string, std::string> SafetensorsStore::read_metadata() {
    return source().contents->metadata;
}

std::vector<uint8_t> SafetensorsStore::bytes() const {
    if (source_) return source_->bytes.read(0, static_cast<std::size_t>(source_->bytes.size()));
    BURN_CHECK(!in_memory_, "[SafetensorsStore] this in-memory store holds nothing yet: save into it first");
    std::string s = platform::read_file(path_, "SafetensorsStore");
    return {s.begin(), s.end()};
}

std::vector<TensorEntry> SafetensorsStore::read_entries() {
    const Source& src = source();
    std::vector<TensorEntry> out;
    for (const auto& t : src.contents->tensors) {
        TensorEntry e;
        e.name = t.name;
        e.dtype = t.dtype;
        e.shape = t.shape;
        e.unsupported = t.unsupported;
        if (t.unsupported.empty()) {
            e.read = [bytes = src.bytes, t] { return bytes.tensor(t.start, t.end, t.dtype, t.shape); };
        }
        out.push_back(std::move(e));
    }
    return out;
}

void SafetensorsStore::write_entries(std::vector<TensorEntry> entries) {
    std::string bytes = detail::write_safetensors(entries, metadata_);
    if (in_memory_) {
        source_ = std::make_shared<Source>();
        source_->bytes = detail::ByteSource(
            detail::view_vector(std::make_shared<const std::vector<uint8_t>>(bytes.begin(), bytes.end())));
        return;
    }
    BURN_CHECK(!path_.empty(),
               "[SafetensorsStore] this store reads bytes given to it and cannot save; use "
               "SafetensorsStore::in_memory() or a path");
    platform::write_file_atomic(path_, bytes, "SafetensorsStore");
    source_.reset();
}

void SafetensorsStore::save_tensors(const std::map<std::string, TensorAny>& tensors) {
    std::vector<TensorEntry> entries;
    for (const auto& [name, t] : tensors) {
        BURN_CHECK(t.defined(), "[SafetensorsStore] tensor '", name, "' is undefined");
        TensorEntry e;
        e.name = opts_.remapper.apply(name);
        e.dtype = t.dtype();
        e.shape = t.shape();
        e.read = [t = t] { return ops::into_data(t); };
        entries.push_back(std::move(e));
    }
    write_entries(std::move(entries));
}

std::map<std::string, TensorAny> SafetensorsStore::load_tensors(const Device& device) {
    std::map<std::string, TensorAny> out;
    for (const auto& e : entries()) {
        BURN_CHECK(e.unsupported.empty(), "[SafetensorsStore] tensor '", e.name, "': ", e.unsupported);
        out[e.name] = ops::from_data(e.read(), device);
    }
    return out;
}

}  // namespace burn::store
