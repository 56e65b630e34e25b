#include "burn/store/burnpack.hpp"

#include <algorithm>

#include "burn/tensor/ops.hpp"
#include "platform/files.hpp"
#include "store/burnpack_format.hpp"
#include "store/format.hpp"

namespace burn::store {

struct BurnpackStore::Source {
    detail::ByteSource bytes;
    std::optional<detail::BurnpackContents> contents;
};

BurnpackStore::BurnpackStore(std::filesystem::path path) : path_(std::move(path)) {}

BurnpackStore BurnpackStore::from_bytes(std::vector<uint8_t> bytes) {
    BurnpackStore s;
    s.source_ = std::make_shared<Source>();
    s.source_->bytes = detail::ByteSource(
        detail::view_vector(std::make_shared<const std::vector<uint8_t>>(std::move(bytes))));
    return s;
}

BurnpackStore BurnpackStore::from_static(const uint8_t* data, std::size_t size) {
    BurnpackStore s;
    s.source_ = std::make_shared<Source>();
    s.source_->bytes = detail::ByteSource(detail::ByteView{data, size, nullptr});
    return s;
}

BurnpackStore BurnpackStore::in_memory() {
    BurnpackStore s;
    s.in_memory_ = true;
    return s;
}

BurnpackStore& BurnpackStore::metadata(std::string key, std::string value) {
    metadata_[std::move(key)] = std::move(value);
    return *this;
}

BurnpackStore& BurnpackStore::scalar(std::string key, Scalar value) {
    scalars_[std::move(key)] = value;
    return *this;
}

BurnpackStore& BurnpackStore::overwrite(bool on) {
    overwrite_ = on;
    return *this;
}

const BurnpackStore::Source& BurnpackStore::source() {
    if (!source_) {
        BURN_CHECK(!in_memory_, "[BurnpackStore] this in-memory store holds nothing yet: save into it first");
        source_ = std::make_shared<Source>();
        source_->bytes = detail::ByteSource::open(path_, "BurnpackStore", opts_.mmap);
    }
    if (!source_->contents) {
        // Only the header is read here: 10 bytes, then the metadata length they give (within limits).
        const detail::ByteSource& src = source_->bytes;
        std::vector<uint8_t> head;
        const uint8_t* p = src.prefix(10, head);
        uint64_t want = 10;
        if (src.size() >= 10)
            want += std::min<uint64_t>(detail::read_le<uint32_t>(p + 6), opts_.limits.max_header_bytes);
        want = std::min(want, src.size());
        p = src.prefix(static_cast<std::size_t>(want), head);
        source_->contents =
            detail::parse_burnpack(p, static_cast<std::size_t>(want), opts_.limits, src.size());
    }
    return *source_;
}

std::vector<uint8_t> BurnpackStore::bytes() const {
    if (source_) return source_->bytes.read(0, static_cast<std::size_t>(source_->bytes.size()));
    BURN_CHECK(!in_memory_, "[BurnpackStore] this in-memory store holds nothing yet: save into it first");
    std::string s = platform::read_file(path_, "BurnpackStore");
    return {s.begin(), s.end()};
}

std::map<std::string, std::string> BurnpackStore::read_metadata() {
    return source().contents->metadata;
}

std::map<std::string, Scalar> BurnpackStore::read_scalars() {
    return source().contents->scalars;
}

std::vector<TensorInfo> BurnpackStore::tensors() {
    std::vector<TensorInfo> out;
    for (const auto& t : source().contents->tensors) out.push_back({t.name, t.dtype, t.shape, t.param_id});
    return out;
}

std::vector<TensorEntry> BurnpackStore::read_entries() {
    const Source& src = source();
    std::vector<TensorEntry> out;
    for (const auto& t : src.contents->tensors) {
        TensorEntry e;
        e.name = t.name;
        e.dtype = t.dtype;
        e.shape = t.shape;
        e.param_id = t.param_id;
        e.read = [bytes = src.bytes, t] { return bytes.tensor(t.start, t.end, t.dtype, t.shape); };
        out.push_back(std::move(e));
    }
    return out;
}

void BurnpackStore::write(std::vector<TensorEntry> entries, const std::map<std::string, Scalar>& scalars,
                          const std::map<std::string, std::string>& metadata) {
    std::string bytes = detail::write_burnpack(entries, scalars, metadata);
    if (in_memory_) {
        source_ = std::make_shared<Source>();
        source_->bytes = detail::ByteSource(
            detail::view_vector(std::make_shared<const std::vector<uint8_t>>(bytes.begin(), bytes.end())));
        return;
    }
    BURN_CHECK(!path_.empty(),
               "[BurnpackStore] this store reads bytes given to it and cannot save; use "
               "BurnpackStore::in_memory() or a path");
    std::error_code ec;
    BURN_CHECK_KIND(overwrite_ || !std::filesystem::exists(path_, ec), io, "[BurnpackStore] '",
                    path_.string(), "' exists and overwrite(false) was set");
    platform::write_file_atomic(path_, bytes, "BurnpackStore");
    source_.reset();  // the next read sees the new file
}

void BurnpackStore::write_entries(std::vector<TensorEntry> entries) {
    auto metadata = metadata_;
    if (opts_.burn_linear_layout) metadata["linear_layout"] = "in_out";  // read back as Rust burn's
    write(std::move(entries), scalars_, metadata);
}

bool BurnpackStore::file_has_burn_linear_layout() {
    const auto& md = source().contents->metadata;
    auto producer = md.find("producer"), layout = md.find("linear_layout");
    return (producer != md.end() && producer->second == "burn") ||
           (layout != md.end() && layout->second == "in_out");
}

void BurnpackStore::save_record(const Record& record) {
    std::vector<TensorEntry> entries;
    for (const auto& [name, t] : record.tensors) {
        BURN_CHECK(t.defined(), "[BurnpackStore] record tensor '", name, "' is undefined");
        TensorEntry e;
        e.name = name;
        e.dtype = t.dtype();
        e.shape = t.shape();
        e.read = [t = t] { return ops::into_data(t); };
        entries.push_back(std::move(e));
    }
    auto scalars = scalars_;
    for (const auto& [k, v] : record.scalars) scalars[k] = v;
    auto metadata = metadata_;
    for (const auto& [k, v] : record.metadata) metadata[k] = v;
    write(std::move(entries), scalars, metadata);
}

Record BurnpackStore::load_record(const Device& device) {
    Record r;
    for (const auto& e : read_entries()) r.tensors[e.name] = ops::from_data(e.read(), device);
    r.scalars = source().contents->scalars;
    r.metadata = source().contents->metadata;
    return r;
}

}  // namespace burn::store
