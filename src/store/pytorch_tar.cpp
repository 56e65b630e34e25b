// The tar format of torch.save (PyTorch before 0.1.10), read as torch 1.13's legacy_load reads it
// (torch/serialization.py, the branch taken when the file is a tar archive). The archive holds:
//   sys_info  a pickled dict; only its little_endian is checked (torch 1.13 does not read it)
//   storages  a pickled count; per storage a pickled (key, location, storage type), then the storage as
//             _write_file writes it (an i64 element count, then the bytes); then a pickled list of
//             storage views (view key, root key, element offset, element count)
//   tensors   a pickled count; per tensor a pickled (key, storage key, tensor type), then an i32 rank
//             and 4 ignored bytes (torch 0.1 wrote a C long), rank i64 sizes, rank i64 strides and an
//             i64 storage offset
//   pickle    the object; its persistent ids are str(key) of the tensors (or storages) it holds
// Keys are integers (torch 0.1 used each object's _cdata pointer); storages, views and tensors share
// one key space, as torch's deserialized_objects does.
//
// The tar headers are parsed here, not by a library: tar is a sequence of 512-byte headers each
// followed by its member's data padded to 512 bytes, and no tar-reading library is among this
// project's Debian dependencies (libarchive would be a new one for about 100 lines). Every size and
// offset is checked against the file and the member it lies in; bad input is a burn::Error naming the
// file and the member.
#include <charconv>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>

#include "burn/core/error.hpp"
#include "store/pytorch_document.hpp"

namespace burn::store::detail {

namespace {

using pickle::Kind;
using pickle::Value;

constexpr uint64_t kBlock = 512;

bool all_zero(const uint8_t* p, uint64_t n) {
    for (uint64_t i = 0; i < n; ++i)
        if (p[i]) return false;
    return true;
}

/// A header field as text, up to its first NUL (tarfile's nts).
std::string tar_text(const uint8_t* p, uint64_t n) {
    const char* c = reinterpret_cast<const char*>(p);
    return std::string(c, strnlen(c, static_cast<std::size_t>(n)));
}

/// A numeric header field (tarfile's nti): octal digits between spaces (empty is 0), or base-256 after
/// a first byte 0x80 (GNU tar's form for sizes of 8 GiB and more). False when malformed or negative.
bool tar_number(const uint8_t* f, std::size_t n, uint64_t& out) {
    out = 0;
    if (f[0] == 0x80) {
        for (std::size_t i = 1; i < n; ++i) {
            if (out >> 56) return false;
            out = out << 8 | f[i];
        }
        return true;
    }
    const std::string s = tar_text(f, n);
    const std::size_t b = s.find_first_not_of(' '), e = s.find_last_not_of(' ');
    if (b == std::string::npos) return true;
    for (std::size_t i = b; i <= e; ++i) {  // at most 12 octal digits: no overflow
        if (s[i] < '0' || s[i] > '7') return false;
        out = out * 8 + static_cast<uint64_t>(s[i] - '0');
    }
    return true;
}

bool decimal(const std::string& s, int64_t& out) {
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return !s.empty() && ec == std::errc() && end == s.data() + s.size();
}

/// The 'path' and 'size' records of a pax extended header ("LEN keyword=value\n" each).
void pax_records(const uint8_t* p, uint64_t n, std::optional<std::string>& path,
                 std::optional<uint64_t>& size, const std::string& where) {
    uint64_t pos = 0;
    while (pos < n && p[pos] != 0) {
        uint64_t len = 0, digits = 0;
        while (pos + digits < n && digits < 18 && p[pos + digits] >= '0' && p[pos + digits] <= '9')
            len = len * 10 + (p[pos + digits++] - '0');
        BURN_CHECK(digits > 0 && pos + digits < n && p[pos + digits] == ' ' && len >= digits + 4 &&
                       len <= n - pos && p[pos + len - 1] == '\n',
                   "[", kPytorchOp, "] ", where, ": a malformed pax record at byte ", pos, " (corrupt)");
        const std::string record(reinterpret_cast<const char*>(p + pos + digits + 1), len - digits - 2);
        const std::size_t eq = record.find('=');
        BURN_CHECK(eq != std::string::npos && eq > 0, "[", kPytorchOp, "] ", where,
                   ": a pax record without 'keyword=' at byte ", pos, " (corrupt)");
        const std::string key = record.substr(0, eq), value = record.substr(eq + 1);
        int64_t v;
        if (key == "path") {
            path = value.substr(0, value.find_last_not_of('/') + 1);
        } else if (key == "size") {
            BURN_CHECK(decimal(value, v) && v >= 0, "[", kPytorchOp, "] ", where, ": the pax size '", value,
                       "' is not a size (corrupt)");
            size = static_cast<uint64_t>(v);
        } else {
            BURN_CHECK(!key.starts_with("GNU.sparse"), "[", kPytorchOp, "] ", where,
                       ": sparse tar members are not supported (torch.save never wrote them)");
        }
        pos += len;
    }
}

/// A member of the archive: where its data lies in the file.
struct Member {
    uint64_t offset = 0;
    uint64_t size = 0;
    bool regular = true;
};

/// The members of the archive by name. Walks the headers up to the end-of-archive block (or the end of
/// the file, which torch.load accepts too), applying pax ('x', 'g') and GNU long-name ('L') headers.
std::map<std::string, Member> tar_members(const ByteView& b, const std::string& file) {
    std::map<std::string, Member> members;
    std::optional<std::string> path, global_path, long_name;
    std::optional<uint64_t> size_override, global_size;
    uint64_t pos = 0;
    while (pos < b.size) {
        const uint8_t* h = b.data + pos;
        if (b.size - pos < kBlock) {
            BURN_CHECK(all_zero(h, b.size - pos), "[", kPytorchOp, "] ", file,
                       " ends inside the tar header at byte ", pos, " (truncated)");
            break;
        }
        if (all_zero(h, kBlock)) break;  // the end-of-archive blocks
        // The checksum sums the header's bytes with its own field as spaces, unsigned or (old tars) signed.
        uint64_t sum = 0, want = 0;
        int64_t signed_sum = 0;
        for (uint64_t i = 0; i < kBlock; ++i) {
            const uint8_t c = i >= 148 && i < 156 ? ' ' : h[i];
            sum += c;
            signed_sum += static_cast<int8_t>(c);
        }
        BURN_CHECK(tar_number(h + 148, 8, want) && (want == sum || static_cast<int64_t>(want) == signed_sum),
                   "[", kPytorchOp, "] ", file, ": the tar header at byte ", pos,
                   " is damaged (bad checksum; not a tar archive, or corrupt)");
        const char type = static_cast<char>(h[156]);
        std::string name = tar_text(h, 100);
        if (std::memcmp(h + 257, "ustar\0", 6) == 0 && h[345] != 0)
            name = tar_text(h + 345, 155) + "/" + name;
        const bool extension = type == 'x' || type == 'g' || type == 'L' || type == 'K';
        uint64_t size;
        BURN_CHECK(tar_number(h + 124, 12, size), "[", kPytorchOp, "] ", file, ": the tar header at byte ",
                   pos, " has a malformed size (corrupt)");
        if (!extension) {
            name = path ? *path : global_path ? *global_path : long_name ? *long_name : name;
            size = size_override ? *size_override : global_size ? *global_size : size;
        }
        const uint64_t data = pos + kBlock;
        // The data and its padding to a whole block: torch.load fails on a file cut inside either.
        BURN_CHECK(size <= b.size - data && align_up(size, kBlock) <= b.size - data, "[", kPytorchOp, "] ",
                   file, ": tar member '", name, "' has ", size, " bytes from byte ", data,
                   ", past the end of the ", b.size, "-byte file (truncated or corrupt)");
        const std::string where = "the tar header at byte " + std::to_string(pos) + " of " + file;
        if (type == 'x') {
            pax_records(b.data + data, size, path, size_override, where);
        } else if (type == 'g') {
            pax_records(b.data + data, size, global_path, global_size, where);
        } else if (type == 'L') {
            long_name = tar_text(b.data + data, size);
        } else if (type != 'K') {
            BURN_CHECK(
                members.emplace(name, Member{data, size, type == '0' || type == '\0' || type == '7'}).second,
                "[", kPytorchOp, "] ", file, ": tar member '", name, "' appears twice");
            path.reset();
            size_override.reset();
            long_name.reset();
        }
        pos = data + align_up(size, kBlock);
    }
    return members;
}

/// A member holding pickles and raw numbers one after another, read front to back within its bounds.
struct Stream {
    const ByteView& file;
    const Limits& limits;
    const std::string where;  // "member 'storages' of the tar-format torch.save file 'path'"
    uint64_t pos;
    const uint64_t end;

    /// The next pickle; its errors name the member.
    std::shared_ptr<pickle::Unpickled> next(const pickle::UnpickleOptions& options = {}) {
        std::shared_ptr<pickle::Unpickled> doc;
        try {
            doc = unpickle_shared(file.data + pos, static_cast<std::size_t>(end - pos), limits, options);
        } catch (const Error& e) {
            std::string why = e.what();
            const std::string prefix = std::string("[") + kPytorchOp + "] ";
            if (why.starts_with(prefix)) why.erase(0, prefix.size());
            BURN_THROW("[", kPytorchOp, "] ", where, ": ", why);
        }
        pos += doc->consumed;
        return doc;
    }
    template <class T>
    T le(const char* what) {
        BURN_CHECK(end - pos >= sizeof(T), "[", kPytorchOp, "] ", where, " ends inside ", what,
                   " (truncated)");
        T v = read_le<T>(file.data + pos);
        pos += sizeof(T);
        return v;
    }
    int64_t integer(const Value* v, const char* what) const {
        BURN_CHECK(v->kind == Kind::integer, "[", kPytorchOp, "] ", where, ": ", what,
                   " is not an integer (corrupt)");
        return v->i;
    }
    /// The count a member starts with.
    int64_t count(const char* what) {
        auto doc = next();
        int64_t n = integer(doc->root, what);
        BURN_CHECK(n >= 0 && static_cast<uint64_t>(n) <= limits.max_tensors, "[", kPytorchOp, "] ", where,
                   ": ", n, " ", what, " (at most Limits::max_tensors = ", limits.max_tensors, ")");
        return n;
    }
    const Value* tuple(const Value* v, std::size_t n, const char* what) const {
        BURN_CHECK(v->kind == Kind::tuple && v->items.size() == n, "[", kPytorchOp, "] ", where, ": a ", what,
                   " is not a tuple of ", n, " (corrupt)");
        return v;
    }
};

/// A storage, or a tensor with the storage it views, by key (torch's deserialized_objects).
struct Object {
    pickle::StorageRef storage;
    bool tensor = false;
    uint64_t offset = 0;
    Dims size;
    Dims stride;
};

void add_object(std::unordered_map<int64_t, Object>& objects, int64_t key, Object o,
                const std::string& where) {
    BURN_CHECK(objects.emplace(key, std::move(o)).second, "[", kPytorchOp, "] ", where, ": the key ", key,
               " names two objects (corrupt)");
}

/// The storages member: each storage's range (views as ranges within their root) into src.
void read_storages(Stream& s, RangeStorages& src, std::unordered_map<int64_t, Object>& objects) {
    const int64_t n = s.count("storages");
    for (int64_t i = 0; i < n; ++i) {
        auto doc = s.next();
        const Value* rec = s.tuple(doc->root, 3, "storage record (key, location, storage type)");
        const int64_t key = s.integer(rec->items[0], "a storage key");
        const Value* type = rec->items[2];
        BURN_CHECK(type->kind == Kind::global &&
                       static_cast<pickle::Global>(type->i) == pickle::Global::storage_type,
                   "[", kPytorchOp, "] ", s.where, ": storage ", key, " has no torch storage type (corrupt)");
        Object o;
        o.storage = *type->storage;
        o.storage.key = std::to_string(key);
        s.pos = read_raw_storage(src, o.storage.key, o.storage.elem_size, s.pos, s.end, s.where);
        o.storage.numel = src.ranges_[o.storage.key].second / o.storage.elem_size;
        add_object(objects, key, std::move(o), s.where);
    }
    auto views = s.next();
    BURN_CHECK(views->root->kind == Kind::list, "[", kPytorchOp, "] ", s.where,
               ": the list of storage views is missing (corrupt)");
    for (const Value* item : views->root->items) {
        const Value* v = s.tuple(item, 4, "storage view (key, root key, offset, size)");
        const int64_t key = s.integer(v->items[0], "a storage view's key");
        const int64_t root = s.integer(v->items[1], "a storage view's root");
        const int64_t offset = s.integer(v->items[2], "a storage view's offset");
        const int64_t numel = s.integer(v->items[3], "a storage view's size");
        auto it = objects.find(root);
        BURN_CHECK(it != objects.end() && !it->second.tensor, "[", kPytorchOp, "] ", s.where,
                   ": storage view ", key, " views storage ", root, ", which is not in the member (corrupt)");
        Object o = it->second;
        const auto range = src.ranges_.at(o.storage.key);
        uint64_t first, bytes;
        BURN_CHECK(
            offset >= 0 && numel >= 0 && mul_ok(static_cast<uint64_t>(offset), o.storage.elem_size, first) &&
                mul_ok(static_cast<uint64_t>(numel), o.storage.elem_size, bytes) && first <= range.second &&
                bytes <= range.second - first,
            "[", kPytorchOp, "] ", s.where, ": storage view ", key, " (", numel, " elements from element ",
            offset, ") does not lie within storage ", root, " of ", o.storage.numel, " elements (corrupt)");
        o.storage.key = std::to_string(key);
        o.storage.numel = static_cast<uint64_t>(numel);
        src.ranges_[o.storage.key] = {range.first + first, bytes};
        add_object(objects, key, std::move(o), s.where);
    }
}

/// The tensors member: each tensor's storage, offset, sizes and strides.
void read_tensors(Stream& s, std::unordered_map<int64_t, Object>& objects) {
    pickle::UnpickleOptions options;
    options.tensor_types = true;  // the records name the tensor's type (torch.FloatTensor), unused
    const int64_t n = s.count("tensors");
    for (int64_t i = 0; i < n; ++i) {
        auto doc = s.next(options);
        const Value* rec = s.tuple(doc->root, 3, "tensor record (key, storage key, tensor type)");
        const int64_t key = s.integer(rec->items[0], "a tensor key");
        BURN_CHECK(rec->items[1]->kind != Kind::none, "[", kPytorchOp, "] ", s.where, ": tensor ", key,
                   " has no storage (torch.load cannot read it either)");
        const int64_t storage = s.integer(rec->items[1], "a tensor's storage key");
        auto it = objects.find(storage);
        BURN_CHECK(it != objects.end() && !it->second.tensor, "[", kPytorchOp, "] ", s.where, ": tensor ",
                   key, " views storage ", storage, ", which the member 'storages' does not hold (corrupt)");
        Object o;
        o.storage = it->second.storage;
        o.tensor = true;
        const int32_t rank = s.le<int32_t>("a tensor's rank");
        s.le<int32_t>("a tensor's rank");  // torch 0.1 wrote the rank as a C long; torch 1.13 skips these 4
        BURN_CHECK(rank >= 0 && rank <= kMaxRank, "[", kPytorchOp, "] ", s.where, ": tensor ", key,
                   " has rank ", rank, " (at most ", kMaxRank, " is supported)");
        auto nonneg = [&](const char* what) {
            const int64_t v = s.le<int64_t>(what);
            BURN_CHECK(v >= 0, "[", kPytorchOp, "] ", s.where, ": tensor ", key, " has a negative ", what,
                       " (corrupt)");
            return v;
        };
        for (int32_t d = 0; d < rank; ++d) o.size.push_back(nonneg("size"));
        for (int32_t d = 0; d < rank; ++d) o.stride.push_back(nonneg("stride"));
        o.offset = static_cast<uint64_t>(nonneg("storage offset"));
        add_object(objects, key, std::move(o), s.where);
    }
}

}  // namespace

bool is_tar(const ByteView& bytes) {
    // A legacy stream starts with a pickle's PROTO opcode (0x80); its bytes 257.. are pickle data.
    return bytes.size >= 262 && bytes.data[0] != 0x80 && std::memcmp(bytes.data + 257, "ustar", 5) == 0;
}

Document read_tar(const ByteView& bytes, const Limits& limits, const std::string& source) {
    const std::string file =
        "the tar-format torch.save file" + (source.empty() ? std::string() : " '" + source + "'");
    const std::map<std::string, Member> members = tar_members(bytes, file);
    auto member = [&](const std::string& name) {
        auto it = members.find(name);
        BURN_CHECK(it != members.end(), "[", kPytorchOp, "] ", file, " has no member '", name,
                   "' (truncated, or a tar archive that torch.save did not write)");
        BURN_CHECK(it->second.regular, "[", kPytorchOp, "] ", file, ": tar member '", name,
                   "' is not a regular file (corrupt)");
        return Stream{bytes, limits, "member '" + name + "' of " + file, it->second.offset,
                      it->second.offset + it->second.size};
    };
    if (members.count("sys_info")) {
        Stream s = member("sys_info");
        check_sys_info(s.next()->root);
    }
    auto src = std::make_shared<RangeStorages>(bytes);
    std::unordered_map<int64_t, Object> objects;
    Stream storages = member("storages");
    read_storages(storages, *src, objects);
    Stream tensors = member("tensors");
    read_tensors(tensors, objects);

    // The object: its persistent ids are the keys of tensors (or storages), as str(key).
    pickle::UnpickleOptions options;
    options.persistent_key = [&objects](const Value& pid, const pickle::MakeValue& make) {
        int64_t key = pid.i;
        BURN_CHECK(pid.kind == Kind::integer || (pid.kind == Kind::string && decimal(pid.s, key)), "[",
                   kPytorchOp, "] a persistent id is not a key (an integer or its decimal)");
        auto it = objects.find(key);
        BURN_CHECK(it != objects.end(), "[", kPytorchOp, "] the persistent id ", key,
                   " names no tensor or storage of the members 'tensors' and 'storages'");
        const Object& o = it->second;
        Value* storage = make(Kind::storage);
        storage->storage = std::make_unique<pickle::StorageRef>(o.storage);
        if (!o.tensor) return storage;
        Value* t = make(Kind::tensor);
        t->tensor = std::make_unique<pickle::TensorRef>();
        t->tensor->storage = storage;
        t->tensor->offset = o.offset;
        t->tensor->size = o.size;
        t->tensor->stride = o.stride;
        return t;
    };
    Stream object = member("pickle");
    return {object.next(options), src};
}

}  // namespace burn::store::detail
