#include "store/pytorch_reader.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <unordered_map>
#include <unordered_set>

#include "burn/core/error.hpp"
#include "store/pickle.hpp"
#include "store/pytorch_document.hpp"

#ifdef BURN_HAVE_ZIP
#include <zip.h>

#include "store/zip_index.hpp"
#endif

namespace burn::store::detail {

using pickle::Kind;
using pickle::Value;

ByteView RangeStorages::storage(const std::string& key) {
    auto it = ranges_.find(key);
    BURN_CHECK(it != ranges_.end(), "[", kPytorchOp, "] storage '", key, "' is not in the file (corrupt)");
    return {file_.data + it->second.first, static_cast<std::size_t>(it->second.second), file_.owner};
}

uint64_t read_raw_storage(RangeStorages& src, const std::string& key, uint64_t elem_size, uint64_t offset,
                          uint64_t end, const std::string& where) {
    BURN_CHECK(offset <= end && end - offset >= 8, "[", kPytorchOp, "] ", where, " ends before storage '",
               key, "' (truncated)");
    int64_t numel = read_le<int64_t>(src.file_.data + offset);
    uint64_t nbytes;
    BURN_CHECK(
        numel >= 0 && mul_ok(static_cast<uint64_t>(numel), elem_size, nbytes) && nbytes <= end - offset - 8,
        "[", kPytorchOp, "] storage '", key, "' claims ", numel, " elements, past the end of ", where,
        " (truncated)");
    src.ranges_[key] = {offset + 8, nbytes};
    return offset + 8 + nbytes;
}

std::shared_ptr<pickle::Unpickled> unpickle_shared(const uint8_t* p, std::size_t n, const Limits& limits,
                                                   const pickle::UnpickleOptions& options) {
    return std::make_shared<pickle::Unpickled>(pickle::unpickle(p, n, limits, options));
}

namespace {

#ifdef BURN_HAVE_ZIP
class ZipStorages : public StorageSource {
  public:
    ZipStorages(ByteView file, const Limits& limits)
        : file_(std::move(file)), limits_(limits), index_(file_.data, file_.size) {
        zip_error_t err;
        zip_error_init(&err);
        zip_source_t* src = zip_source_buffer_create(file_.data, file_.size, 0, &err);
        if (src) {
            zip_ = zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &err);
            if (!zip_) zip_source_free(src);
        }
        std::string why = zip_error_strerror(&err);
        zip_error_fini(&err);
        BURN_CHECK(zip_, "[", kPytorchOp, "] the zip archive cannot be opened: ", why,
                   " (the file is corrupt)");
    }
    ~ZipStorages() override {
        if (zip_) zip_discard(zip_);
    }
    /// The name of the data.pkl entry ("archive/data.pkl"); sets the prefix for storages.
    std::string find_pickle() {
        zip_int64_t n = zip_get_num_entries(zip_, 0);
        std::string best;
        for (zip_int64_t i = 0; i < n; ++i) {
            const char* name = zip_get_name(zip_, static_cast<zip_uint64_t>(i), 0);
            if (!name) continue;
            std::string s = name;
            if (s == "data.pkl" || (s.size() > 9 && s.compare(s.size() - 9, 9, "/data.pkl") == 0))
                if (best.empty() || s.size() < best.size()) best = s;
        }
        BURN_CHECK(!best.empty(), "[", kPytorchOp,
                   "] the zip archive has no data.pkl: it is not a torch.save file");
        prefix_ = best.substr(0, best.size() - 8);
        return best;
    }
    bool has(const std::string& name) { return zip_name_locate(zip_, (prefix_ + name).c_str(), 0) >= 0; }
    std::string read(const std::string& name, uint64_t limit) {
        std::string full = prefix_ + name;
        zip_int64_t idx = zip_name_locate(zip_, full.c_str(), 0);
        BURN_CHECK(idx >= 0, "[", kPytorchOp, "] the zip archive has no entry '", full, "' (corrupt)");
        zip_stat_t st;
        zip_stat_init(&st);
        BURN_CHECK(
            zip_stat_index(zip_, static_cast<zip_uint64_t>(idx), 0, &st) == 0 && (st.valid & ZIP_STAT_SIZE),
            "[", kPytorchOp, "] cannot stat zip entry '", full, "'");
        BURN_CHECK(st.size <= limit, "[", kPytorchOp, "] zip entry '", full, "' has ", st.size,
                   " bytes, over the limit of ", limit);
        // An uncompressed entry cannot be larger than the archive (torch.save stores entries uncompressed).
        BURN_CHECK(
            !(st.valid & ZIP_STAT_COMP_METHOD) || st.comp_method != ZIP_CM_STORE || st.size <= file_.size,
            "[", kPytorchOp, "] zip entry '", full, "' claims ", st.size, " bytes in a ", file_.size,
            "-byte file (corrupt)");
        zip_file_t* f = zip_fopen_index(zip_, static_cast<zip_uint64_t>(idx), 0);
        BURN_CHECK(f, "[", kPytorchOp, "] cannot open zip entry '", full, "': ", zip_strerror(zip_));
        std::string out(static_cast<std::size_t>(st.size), '\0');
        uint64_t got = 0;
        while (got < st.size) {
            zip_int64_t r = zip_fread(f, out.data() + got, st.size - got);
            if (r <= 0) break;
            got += static_cast<uint64_t>(r);
        }
        // Reading one byte past the end makes libzip verify the CRC.
        char extra;
        zip_int64_t tail = got == st.size ? zip_fread(f, &extra, 1) : -1;
        std::string why = zip_file_strerror(f);
        zip_fclose(f);
        BURN_CHECK(got == st.size && tail == 0, "[", kPytorchOp, "] zip entry '", full, "' is damaged (read ",
                   got, " of ", st.size, " bytes: ", why, ")");
        return out;
    }
    ByteView storage(const std::string& key) override {
        // torch.save stores tensors uncompressed: view them in place (the file is memory-mapped) after
        // checking their CRC-32, instead of copying them out through zip_fread.
        ZipEntryData d;
        const std::string full = prefix_ + "data/" + key;
        if (index_.stored(full, d)) {
            BURN_CHECK(d.size <= limits_.max_tensor_bytes, "[", kPytorchOp, "] zip entry '", full, "' has ",
                       d.size, " bytes, over the limit of ", limits_.max_tensor_bytes);
            const uint8_t* p = file_.data + d.offset;
            BURN_CHECK(zip_crc32(p, static_cast<std::size_t>(d.size)) == d.crc, "[", kPytorchOp,
                       "] zip entry '", full, "' is damaged (CRC mismatch)");
            return {p, static_cast<std::size_t>(d.size), file_.owner};
        }
        auto bytes = std::make_shared<std::string>(read("data/" + key, limits_.max_tensor_bytes));
        return {reinterpret_cast<const uint8_t*>(bytes->data()), bytes->size(), bytes};
    }

  private:
    ByteView file_;
    Limits limits_;
    ZipIndex index_;
    zip_t* zip_ = nullptr;
    std::string prefix_;
};
#endif

/// The contiguous bytes of a tensor [offset; size; stride] (in elements) of a storage.
TensorData gather(const ByteView& st, const pickle::StorageRef& ref, const pickle::TensorRef& t, DType dtype,
                  const std::string& name) {
    const uint64_t elem = ref.elem_size;
    const uint64_t avail = st.size / elem;
    const int64_t numel = t.size.numel();
    if (numel == 0) return TensorData(std::vector<uint8_t>(), t.size, dtype);
    uint64_t last = ref.view_offset + t.offset;
    bool contiguous = true;
    int64_t expect = 1;
    for (int d = t.size.rank() - 1; d >= 0; --d) {
        uint64_t span;
        BURN_CHECK(mul_ok(static_cast<uint64_t>(t.size[d] - 1), static_cast<uint64_t>(t.stride[d]), span) &&
                       !__builtin_add_overflow(last, span, &last),
                   "[", kPytorchOp, "] tensor '", name, "' has strides that overflow (corrupt)");
        if (t.size[d] != 1 && t.stride[d] != expect) contiguous = false;
        expect *= t.size[d];
    }
    BURN_CHECK(last < avail, "[", kPytorchOp, "] tensor '", name, "' of shape ", t.size, " reaches element ",
               last, " of a storage holding ", avail, " (the file is corrupt)");
    const uint8_t* base = st.data + (ref.view_offset + t.offset) * elem;
    if (contiguous) return data_from_bytes(base, static_cast<std::size_t>(numel * elem), dtype, t.size);
    std::vector<uint8_t> out(static_cast<std::size_t>(numel * elem));
    std::array<int64_t, kMaxRank> idx{};
    const int rank = t.size.rank();
    for (int64_t i = 0; i < numel; ++i) {
        uint64_t off = 0;
        for (int d = 0; d < rank; ++d) off += static_cast<uint64_t>(idx[d] * t.stride[d]);
        std::memcpy(out.data() + i * elem, base + off * elem, elem);
        for (int d = rank - 1; d >= 0; --d) {
            if (++idx[d] < t.size[d]) break;
            idx[d] = 0;
        }
    }
    const uint8_t* p = out.data();
    return data_from_bytes(p, out.size(), dtype, t.size);
}

/// Flattens nested containers into dotted names. Shared sub-containers make the graph a DAG whose
/// paths can be exponentially many (a "billion laughs" pickle), or one huge list can be referenced
/// many times, so: each container is scanned once for the items that lead to tensors (the others,
/// ints, strings, tensor-free containers, are never walked again), and the total number of items
/// walked is bounded (pickle::max_items).
struct Flattener {
    explicit Flattener(const Limits& l) : limits(l) {}
    const Limits& limits;
    std::vector<std::pair<std::string, const Value*>> out;
    uint64_t items = 0;
    uint64_t max_items = pickle::max_items(limits);
    struct Scan {
        bool done = false;
        std::vector<std::size_t> useful;  // indices of the items (dict: values) that lead to tensors
    };
    std::unordered_map<const Value*, Scan> scans;

    static bool key_of(const Value* k, std::string& s) {
        if (k->kind == Kind::string) {
            s = k->s;
            return true;
        }
        if (k->kind == Kind::integer) {
            s = std::to_string(k->i);
            return true;
        }
        return false;
    }
    static bool is_container(const Value* v) {
        return v->kind == Kind::dict || v->kind == Kind::list || v->kind == Kind::tuple;
    }
    void count(std::size_t n) {
        items += n;
        BURN_CHECK(items <= max_items, "[", kPytorchOp, "] the object graph is too large to flatten: over ",
                   max_items,
                   " items walked (pickle::max_items, which grows with Limits::max_tensors; "
                   "shared containers referenced many times?)");
    }
    static void check_depth(int depth, const Limits& limits) {
        BURN_CHECK(depth <= limits.max_depth, "[", kPytorchOp, "] containers nest deeper than ",
                   limits.max_depth, " levels (or contain themselves)");
    }
    /// Whether v leads to a tensor. A container met again while it is being scanned (a cycle) counts
    /// as leading to one, so that the walk follows it and reports the cycle.
    bool leads_to_tensor(const Value* v, int depth) {
        if (v->kind == Kind::tensor) return true;
        if (!is_container(v)) return false;
        check_depth(depth, limits);
        auto it = scans.find(v);
        if (it != scans.end()) return !it->second.done || !it->second.useful.empty();
        scans.emplace(v, Scan{});  // (once per container: bounded by what the unpickler built)
        std::vector<std::size_t> useful;
        const bool dict = v->kind == Kind::dict;
        for (std::size_t i = dict ? 1 : 0; i < v->items.size(); i += dict ? 2 : 1)
            if (leads_to_tensor(v->items[i], depth + 1)) useful.push_back(i);
        Scan& scan = scans[v];
        scan.done = true;
        scan.useful = std::move(useful);
        return !scan.useful.empty();
    }
    void walk(const Value* v, const std::string& prefix, int depth) {
        check_depth(depth, limits);
        if (!leads_to_tensor(v, depth)) return;
        // unordered_map nodes are stable: scans added below do not move this vector.
        const std::vector<std::size_t>& useful = scans.find(v)->second.useful;
        count(useful.size());
        auto join = [&](const std::string& k) { return prefix.empty() ? k : prefix + "." + k; };
        std::string key;
        for (std::size_t i : useful) {
            const Value* item = v->items[i];
            if (v->kind == Kind::dict && !key_of(v->items[i - 1], key)) continue;
            std::string name = join(v->kind == Kind::dict ? key : std::to_string(i));
            if (item->kind == Kind::tensor) {
                BURN_CHECK(out.size() < limits.max_tensors, "[", kPytorchOp, "] the file holds more than ",
                           limits.max_tensors, " tensors (Limits::max_tensors)");
                out.emplace_back(std::move(name), item);
            } else {
                walk(item, name, depth + 1);
            }
        }
    }
};

const Value* dict_get(const Value* d, const std::string& key) {
    const Value* found = nullptr;
    std::string k;
    for (std::size_t i = 0; i + 1 < d->items.size(); i += 2) {
        if (!Flattener::key_of(d->items[i], k) || k != key) continue;
        BURN_CHECK(!found, "[", kPytorchOp, "] the key '", key,
                   "' appears twice in one dictionary of the file (corrupt or hand-made; a file must name "
                   "each entry once)");
        found = d->items[i + 1];
    }
    return found;
}

std::string list_keys(const Value* d) {
    std::string s;
    std::string k;
    int n = 0;
    for (std::size_t i = 0; i + 1 < d->items.size(); i += 2) {
        if (!Flattener::key_of(d->items[i], k)) continue;
        if (n++ == 20) return s + ", ...";
        s += (s.empty() ? "'" : ", '") + k + "'";
    }
    return s.empty() ? "none" : s;
}

const Value* select(const Value* root, const std::string& key) {
    BURN_CHECK(root->kind == Kind::dict, "[", kPytorchOp, "] with_top_level_key('", key,
               "'): the file holds no dictionary at the top level");
    if (const Value* v = dict_get(root, key)) return v;
    // "model.encoder": walk nested dictionaries.
    const Value* cur = root;
    std::size_t pos = 0;
    while (pos <= key.size()) {
        std::size_t dot = key.find('.', pos);
        std::string part = key.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos);
        const Value* next = cur->kind == Kind::dict ? dict_get(cur, part) : nullptr;
        BURN_CHECK(next, "[", kPytorchOp, "] with_top_level_key('", key, "'): no key '", part,
                   "'; the keys there are ",
                   cur->kind == Kind::dict ? list_keys(cur) : std::string("none (not a dictionary)"));
        cur = next;
        if (dot == std::string::npos) break;
        pos = dot + 1;
    }
    return cur;
}

std::vector<TensorEntry> make_entries(std::shared_ptr<pickle::Unpickled> doc,
                                      std::shared_ptr<StorageSource> src, const std::string& top_level_key,
                                      const Limits& limits) {
    const Value* root = top_level_key.empty() ? doc->root : select(doc->root, top_level_key);
    BURN_CHECK(root->kind == Kind::dict || root->kind == Kind::list || root->kind == Kind::tuple, "[",
               kPytorchOp, "] the file holds no dictionary of tensors at ",
               top_level_key.empty() ? std::string("the top level") : "'" + top_level_key + "'");
    Flattener f(limits);
    f.walk(root, "", 0);
    std::unordered_set<std::string> names;
    for (const auto& item : f.out)
        BURN_CHECK(names.insert(item.first).second, "[", kPytorchOp, "] the key '", item.first,
                   "' appears twice in the file's state dict (a duplicated key, or a nested key that "
                   "flattens to the same dotted name); a file must name each tensor once");
    std::vector<TensorEntry> entries;
    for (const auto& item : f.out) {
        // Not a structured binding: lambdas cannot capture those before clang 16 (emscripten, fuzzing).
        const auto& name = item.first;
        const auto& v = item.second;
        const pickle::TensorRef& t = *v->tensor;
        const pickle::StorageRef& ref = *t.storage->storage;
        TensorEntry e;
        e.name = name;
        e.dtype = ref.dtype;
        e.shape = t.size;
        if (!ref.supported) {
            e.unsupported = "its storage type " + ref.type_name + " has no equivalent in this project";
        } else {
            tensor_nbytes(t.size, ref.dtype, limits, kPytorchOp, name);
            e.read = [doc, src, v, name] {
                const pickle::TensorRef& tr = *v->tensor;
                const pickle::StorageRef& sr = *tr.storage->storage;
                return gather(src->storage(sr.key), sr, tr, sr.dtype, name);
            };
        }
        entries.push_back(std::move(e));
    }
    return entries;
}

Document read_legacy(const ByteView& bytes, const Limits& limits) {
    const uint8_t* p = bytes.data;
    std::size_t left = bytes.size;
    auto next = [&]() {
        auto doc = unpickle_shared(p, left, limits);
        p += doc->consumed;
        left -= doc->consumed;
        return doc;
    };
    static const char kMagic[] = "\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19";
    auto magic = next();
    BURN_CHECK(magic->root->kind == Kind::bigint && magic->root->s == std::string(kMagic, 10), "[",
               kPytorchOp, "] not a torch.save file: the legacy format starts with PyTorch's magic number");
    auto protocol = next();
    BURN_CHECK(protocol->root->kind == Kind::integer && protocol->root->i == 1001, "[", kPytorchOp,
               "] unsupported legacy protocol version (expected 1001)");
    check_sys_info(next()->root);
    auto doc = next();
    auto keys = next();
    BURN_CHECK(keys->root->kind == Kind::list, "[", kPytorchOp,
               "] the storage key list is missing (corrupt)");
    // Element sizes come from the storages the object references.
    std::map<std::string, uint64_t> elem;
    for (const auto& v : doc->arena)
        if (v->kind == Kind::storage) elem[v->storage->key] = v->storage->elem_size;
    auto src = std::make_shared<RangeStorages>(bytes);
    uint64_t offset = static_cast<uint64_t>(p - bytes.data);
    for (const Value* k : keys->root->items) {
        BURN_CHECK(k->kind == Kind::string, "[", kPytorchOp, "] a storage key is not a string (corrupt)");
        auto it = elem.find(k->s);
        if (it == elem.end()) break;  // an unreferenced storage: nothing after it is needed to be located
        offset = read_raw_storage(*src, k->s, it->second, offset, bytes.size, "the file");
    }
    return {doc, src};
}

Document read_document(const ByteView& bytes, const Limits& limits, const std::string& source) {
    BURN_CHECK(bytes.size <= limits.max_file_bytes, "[", kPytorchOp, "] the file has ", bytes.size,
               " bytes, over the limit of ", limits.max_file_bytes);
    BURN_CHECK(bytes.size >= 2, "[", kPytorchOp, "] the file has ", bytes.size,
               " bytes: it is not a torch.save file");
    if (bytes.size >= 4 && std::memcmp(bytes.data, "PK", 2) == 0) {
#ifdef BURN_HAVE_ZIP
        auto zip = std::make_shared<ZipStorages>(bytes, limits);
        std::string pkl_name = zip->find_pickle();
        if (zip->has("byteorder")) {
            std::string order = zip->read("byteorder", 64);
            BURN_CHECK(order == "little", "[", kPytorchOp, "] the file was written with byte order '", order,
                       "'; only little-endian files are supported");
        }
        auto pkl = std::make_shared<std::string>(zip->read("data.pkl", limits.max_header_bytes));
        return {unpickle_shared(reinterpret_cast<const uint8_t*>(pkl->data()), pkl->size(), limits), zip};
#else
        BURN_THROW(
            "[", kPytorchOp,
            "] this is a zip-format torch.save file (PyTorch >= 1.6), and this build has no zip "
            "support: install libzip (Debian: libzip-dev) and reconfigure with -DBURN_ZIP=ON, or re-save "
            "the file with torch.save(obj, path, _use_new_zipfile_serialization=False), or as SafeTensors");
#endif
    }
    if (is_tar(bytes)) return read_tar(bytes, limits, source);
    BURN_CHECK(bytes.data[0] == 0x80, "[", kPytorchOp,
               "] not a torch.save file: it is neither a zip archive nor a pickle");
    return read_legacy(bytes, limits);
}

}  // namespace

void check_sys_info(const Value* sys_info) {
    if (sys_info->kind != Kind::dict) return;
    const Value* le = dict_get(sys_info, "little_endian");
    BURN_CHECK(!le || le->kind != Kind::boolean || le->i == 1, "[", kPytorchOp,
               "] the file was written on a big-endian machine, which is not supported");
}

bool pytorch_zip_supported() {
#ifdef BURN_HAVE_ZIP
    return true;
#else
    return false;
#endif
}

std::vector<TensorEntry> read_pytorch(const ByteView& bytes, const std::string& key, const Limits& limits,
                                      const std::string& source) {
    Document d = read_document(bytes, limits, source);
    return make_entries(d.doc, d.src, key, limits);
}

const pickle::Value* read_pytorch_object(const ByteView& bytes, const std::string& key, const Limits& limits,
                                         std::shared_ptr<pickle::Unpickled>& keep,
                                         const std::string& source) {
    keep = read_document(bytes, limits, source).doc;
    return key.empty() ? keep->root : select(keep->root, key);
}

}  // namespace burn::store::detail
