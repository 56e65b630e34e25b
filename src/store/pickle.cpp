#include "store/pickle.hpp"

#include <cstring>
#include <unordered_map>

#include "burn/core/error.hpp"
#include "store/format.hpp"

namespace burn::store::pickle {

namespace {

constexpr const char* kOp = "PytorchStore";

struct StorageType {
    const char* name;
    DType dtype;
    uint64_t elem_size;
    bool supported;
};
constexpr StorageType kStorageTypes[] = {
    {"FloatStorage", DType::f32, 4, true},         {"DoubleStorage", DType::f64, 8, true},
    {"HalfStorage", DType::f16, 2, true},          {"BFloat16Storage", DType::bf16, 2, true},
    {"LongStorage", DType::i64, 8, true},          {"IntStorage", DType::i32, 4, true},
    {"ShortStorage", DType::i16, 2, true},         {"CharStorage", DType::i8, 1, true},
    {"ByteStorage", DType::u8, 1, true},           {"BoolStorage", DType::boolean, 1, true},
    {"ComplexFloatStorage", DType::f32, 8, false}, {"ComplexDoubleStorage", DType::f64, 16, false},
    {"QInt8Storage", DType::i8, 1, false},         {"QUInt8Storage", DType::u8, 1, false},
    {"QInt32Storage", DType::i32, 4, false},       {"QUInt4x2Storage", DType::u8, 1, false},
    {"QUInt2x4Storage", DType::u8, 1, false},
};

struct GlobalName {
    const char* module;
    const char* name;
    Global id;
};
constexpr GlobalName kGlobals[] = {
    {"collections", "OrderedDict", Global::ordered_dict},
    {"torch._utils", "_rebuild_tensor_v2", Global::rebuild_tensor_v2},
    {"torch._utils", "_rebuild_tensor", Global::rebuild_tensor},
    {"torch._utils", "_rebuild_parameter", Global::rebuild_parameter},
    {"torch._utils", "_rebuild_parameter_with_state", Global::rebuild_parameter},
    {"_codecs", "encode", Global::codecs_encode},
    {"torch", "Size", Global::torch_size},
};

class Unpickler {
  public:
    Unpickler(const uint8_t* data, std::size_t size, const Limits& limits, const UnpickleOptions& options)
        : p_(data), begin_(data), end_(data + size), options_(options) {
        max_values_ = 64 * limits.max_tensors + (1u << 20);
        max_items_ = max_items(limits);
    }

    Unpickled run() {
        while (true) {
            uint8_t op = byte();
            if (op == '.') break;
            step(op);
        }
        BURN_CHECK(!stack_.empty(), "[", kOp, "] the pickle stops with an empty stack (corrupt)");
        Unpickled out;
        out.root = stack_.back();
        out.arena = std::move(arena_);
        out.consumed = static_cast<std::size_t>(p_ - begin_);
        return out;
    }

  private:
    [[noreturn]] void fail(const std::string& why) const {
        BURN_THROW("[", kOp, "] corrupt or unsupported pickle at byte ", (p_ - begin_), ": ", why);
    }
    void need(uint64_t n) const {
        if (static_cast<uint64_t>(end_ - p_) < n) fail("it ends in the middle of an opcode (truncated)");
    }
    uint8_t byte() {
        need(1);
        return *p_++;
    }
    template <class T>
    T le() {
        need(sizeof(T));
        T v = detail::read_le<T>(p_);
        p_ += sizeof(T);
        return v;
    }
    std::string bytes(uint64_t n) {
        need(n);
        std::string s(reinterpret_cast<const char*>(p_), static_cast<std::size_t>(n));
        p_ += n;
        return s;
    }
    std::string line() {
        const uint8_t* nl =
            static_cast<const uint8_t*>(std::memchr(p_, '\n', static_cast<std::size_t>(end_ - p_)));
        if (!nl || nl - p_ > 1024) fail("a GLOBAL name is unterminated or too long");
        std::string s(reinterpret_cast<const char*>(p_), static_cast<std::size_t>(nl - p_));
        p_ = nl + 1;
        return s;
    }

    Value* make(Kind k) {
        if (arena_.size() >= max_values_)
            fail("too many objects (over the limit derived from Limits::max_tensors)");
        arena_.push_back(std::make_unique<Value>());
        arena_.back()->kind = k;
        return arena_.back().get();
    }
    /// Counts n items copied from one container into another (OrderedDict(pairs), torch.Size(list)):
    /// a pickle can repeat such a call on one memoised list, so copies are not bounded by its size.
    void copied(std::size_t n) {
        items_ += n;
        if (items_ > max_items_)
            fail("over " + std::to_string(max_items_) +
                 " container items copied (a small pickle that expands a shared list many times?)");
    }
    Value* make_int(int64_t v) {
        Value* x = make(Kind::integer);
        x->i = v;
        return x;
    }
    Value* make_str(Kind k, std::string s) {
        Value* x = make(k);
        x->s = std::move(s);
        return x;
    }
    void push(Value* v) {
        if (stack_.size() >= max_values_) fail("the stack is too deep");
        stack_.push_back(v);
    }
    Value* pop() {
        if (stack_.size() <= floor()) fail("pop from an empty stack");
        Value* v = stack_.back();
        stack_.pop_back();
        return v;
    }
    Value* top() {
        if (stack_.size() <= floor()) fail("an opcode needs a value on an empty stack");
        return stack_.back();
    }
    std::size_t floor() const { return marks_.empty() ? 0 : marks_.back(); }
    /// The values since the last MARK (removed from the stack, mark popped).
    std::vector<Value*> pop_mark() {
        if (marks_.empty()) fail("an opcode needs a MARK that is not there");
        std::size_t m = marks_.back();
        marks_.pop_back();
        std::vector<Value*> items(stack_.begin() + static_cast<std::ptrdiff_t>(m), stack_.end());
        stack_.resize(m);
        return items;
    }

    void memo_put(uint64_t idx) {
        if (memo_.size() >= max_values_ && !memo_.count(idx)) fail("too many memo entries");
        memo_[idx] = top();
    }
    Value* memo_get(uint64_t idx) {
        auto it = memo_.find(idx);
        if (it == memo_.end()) fail("memo entry " + std::to_string(idx) + " is read before it is written");
        return it->second;
    }

    Value* global(const std::string& module, const std::string& name) {
        for (const auto& g : kGlobals) {
            if (module == g.module && name == g.name) {
                Value* v = make_str(Kind::global, module + "." + name);
                v->i = static_cast<int64_t>(g.id);
                return v;
            }
        }
        if (module == "torch" || module == "torch.cuda") {
            // A tensor type (torch.FloatTensor) is looked up as its storage type (torch.FloatStorage).
            const bool tensor = options_.tensor_types && name.ends_with("Tensor");
            const std::string storage = tensor ? name.substr(0, name.size() - 6) + "Storage" : name;
            for (const auto& t : kStorageTypes) {
                if (storage == t.name) {
                    Value* v = make_str(Kind::global, module + "." + name);
                    v->i = static_cast<int64_t>(tensor ? Global::tensor_type : Global::storage_type);
                    v->storage = std::make_unique<StorageRef>();
                    v->storage->type_name = t.name;
                    v->storage->dtype = t.dtype;
                    v->storage->elem_size = t.elem_size;
                    v->storage->supported = t.supported;
                    return v;
                }
            }
        }
        BURN_THROW("[", kOp, "] refusing the global '", module, ".", name,
                   "': this loader only rebuilds tensors, storages and containers and never runs code from "
                   "a file. If the file is a whole pickled model, save model.state_dict() instead");
    }

    int64_t as_int(const Value* v, const char* what) const {
        if (v->kind != Kind::integer && v->kind != Kind::boolean)
            fail(std::string(what) + " is not an integer");
        return v->i;
    }
    Dims as_dims(const Value* v, const char* what) const {
        if (v->kind != Kind::tuple && v->kind != Kind::list) fail(std::string(what) + " is not a tuple");
        if (v->items.size() > static_cast<std::size_t>(kMaxRank))
            fail(std::string(what) + " has rank " + std::to_string(v->items.size()) +
                 ", over the supported " + std::to_string(kMaxRank));
        Dims d;
        for (const Value* x : v->items) {
            int64_t n = as_int(x, what);
            if (n < 0) fail(std::string(what) + " holds a negative value");
            d.push_back(n);
        }
        return d;
    }

    Value* call(Value* fn, Value* args) {
        if (fn->kind != Kind::global) fail("REDUCE on something that is not a known global");
        if (args->kind != Kind::tuple) fail("REDUCE arguments are not a tuple");
        const auto& a = args->items;
        switch (static_cast<Global>(fn->i)) {
            case Global::ordered_dict: {
                Value* d = make(Kind::dict);
                if (!a.empty()) {
                    if (a.size() != 1 || (a[0]->kind != Kind::list && a[0]->kind != Kind::tuple))
                        fail("OrderedDict takes a list of pairs");
                    copied(2 * a[0]->items.size());
                    for (Value* pair : a[0]->items) {
                        if (pair->kind != Kind::tuple || pair->items.size() != 2)
                            fail("OrderedDict item is not a pair");
                        d->items.push_back(pair->items[0]);
                        d->items.push_back(pair->items[1]);
                    }
                }
                return d;
            }
            case Global::rebuild_tensor_v2:
            case Global::rebuild_tensor: {
                if (a.size() < 4) fail("_rebuild_tensor takes (storage, offset, size, stride, ...)");
                if (a[0]->kind != Kind::storage) fail("_rebuild_tensor's first argument is not a storage");
                Value* t = make(Kind::tensor);
                t->tensor = std::make_unique<TensorRef>();
                t->tensor->storage = a[0];
                int64_t off = as_int(a[1], "storage offset");
                if (off < 0) fail("negative storage offset");
                t->tensor->offset = static_cast<uint64_t>(off);
                t->tensor->size = as_dims(a[2], "tensor size");
                t->tensor->stride = as_dims(a[3], "tensor stride");
                if (t->tensor->size.rank() != t->tensor->stride.rank())
                    fail("tensor size and stride differ in rank");
                return t;
            }
            case Global::rebuild_parameter:
                if (a.empty() || a[0]->kind != Kind::tensor) fail("_rebuild_parameter takes a tensor");
                return a[0];
            case Global::codecs_encode:
                if (a.empty() || a[0]->kind != Kind::string) fail("_codecs.encode takes a string");
                return make_str(Kind::bytes, a[0]->s);
            case Global::torch_size: {
                Value* t = make(Kind::tuple);
                if (!a.empty() && (a[0]->kind == Kind::tuple || a[0]->kind == Kind::list)) {
                    copied(a[0]->items.size());
                    t->items = a[0]->items;
                }
                return t;
            }
            case Global::storage_type:
            case Global::tensor_type:
                fail("a storage or tensor type is called directly");
        }
        fail("unknown global");
    }

    Value* persistent(Value* pid) {
        if (options_.persistent_key && pid->kind != Kind::tuple)
            return options_.persistent_key(*pid, [this](Kind k) { return make(k); });
        if (pid->kind != Kind::tuple || pid->items.empty() || pid->items[0]->kind != Kind::string)
            fail("a persistent id is not a ('storage', ...) tuple");
        const auto& a = pid->items;
        if (a[0]->s == "module")
            BURN_THROW("[", kOp,
                       "] the file pickles a whole module (its source code is stored): this loader reads "
                       "state dicts only; save model.state_dict() instead");
        if (a[0]->s != "storage" || a.size() < 5)
            fail("a persistent id is not ('storage', type, key, location, numel)");
        const Value* type = a[1];
        if (type->kind != Kind::global || static_cast<Global>(type->i) != Global::storage_type)
            fail("a storage's type is not a torch storage type");
        Value* s = make(Kind::storage);
        s->storage = std::make_unique<StorageRef>(*type->storage);
        if (a[2]->kind == Kind::string)
            s->storage->key = a[2]->s;
        else
            s->storage->key = std::to_string(as_int(a[2], "storage key"));
        int64_t numel = as_int(a[4], "storage size");
        if (numel < 0) fail("negative storage size");
        s->storage->numel = static_cast<uint64_t>(numel);
        if (a.size() >= 6 && a[5]->kind == Kind::tuple) {  // legacy view: (view_key, offset, view_size)
            const auto& v = a[5]->items;
            if (v.size() != 3) fail("a storage view is not (key, offset, size)");
            int64_t off = as_int(v[1], "storage view offset"), n = as_int(v[2], "storage view size");
            if (off < 0 || n < 0) fail("negative storage view");
            s->storage->view_offset = static_cast<uint64_t>(off);
            s->storage->numel = static_cast<uint64_t>(n);
        }
        return s;
    }

    void step(uint8_t op);

    const uint8_t* p_;
    const uint8_t* begin_;
    const uint8_t* end_;
    const UnpickleOptions& options_;
    std::size_t max_values_;
    uint64_t max_items_;
    uint64_t items_ = 0;
    std::vector<std::unique_ptr<Value>> arena_;
    std::vector<Value*> stack_;
    std::vector<std::size_t> marks_;
    std::unordered_map<uint64_t, Value*> memo_;
};

void Unpickler::step(uint8_t op) {
    switch (op) {
        case 0x80: {  // PROTO
            uint8_t v = byte();
            if (v > 5) fail("pickle protocol " + std::to_string(v) + " is newer than 5");
            return;
        }
        case 0x95:
            le<uint64_t>();
            return;  // FRAME: a hint only
        case '(':
            marks_.push_back(stack_.size());
            return;
        case '0':
            pop();
            return;
        case '1':
            pop_mark();
            return;
        case '2':
            push(top());
            return;
        case 'N':
            push(make(Kind::none));
            return;
        case 0x88:
        case 0x89: {
            Value* b = make(Kind::boolean);
            b->i = op == 0x88;
            push(b);
            return;
        }
        case 'J':
            push(make_int(le<int32_t>()));
            return;
        case 'K':
            push(make_int(byte()));
            return;
        case 'M':
            push(make_int(le<uint16_t>()));
            return;
        case 0x8a:
        case 0x8b: {  // LONG1, LONG4
            uint64_t n = op == 0x8a ? byte() : le<uint32_t>();
            if (n > (1u << 16)) fail("an integer of " + std::to_string(n) + " bytes");
            std::string raw = bytes(n);
            if (n <= 8) {
                uint64_t u = 0;
                for (std::size_t k = 0; k < raw.size(); ++k)
                    u |= static_cast<uint64_t>(static_cast<uint8_t>(raw[k])) << (8 * k);
                if (n > 0 && n < 8 && (static_cast<uint8_t>(raw.back()) & 0x80))
                    u |= ~0ull << (8 * n);  // sign-extend
                push(make_int(static_cast<int64_t>(u)));
            } else {
                push(make_str(Kind::bigint, std::move(raw)));
            }
            return;
        }
        case 'G': {  // BINFLOAT, big-endian
            need(8);
            uint64_t u = 0;
            for (int k = 0; k < 8; ++k) u = (u << 8) | p_[k];
            p_ += 8;
            Value* f = make(Kind::floating);
            std::memcpy(&f->f, &u, 8);
            push(f);
            return;
        }
        case 'X':
            push(make_str(Kind::string, bytes(le<uint32_t>())));
            return;
        case 0x8c:
            push(make_str(Kind::string, bytes(byte())));
            return;
        case 0x8d:
            push(make_str(Kind::string, bytes(le<uint64_t>())));
            return;
        case 'T': {
            int32_t n = le<int32_t>();
            if (n < 0) fail("negative string length");
            push(make_str(Kind::string, bytes(static_cast<uint64_t>(n))));
            return;
        }
        case 'U':
            push(make_str(Kind::string, bytes(byte())));
            return;
        case 'B':
            push(make_str(Kind::bytes, bytes(le<uint32_t>())));
            return;
        case 'C':
            push(make_str(Kind::bytes, bytes(byte())));
            return;
        case 0x8e:
        case 0x96:
            push(make_str(Kind::bytes, bytes(le<uint64_t>())));
            return;
        case ']':
            push(make(Kind::list));
            return;
        case 'l': {
            Value* l = make(Kind::list);
            l->items = pop_mark();
            push(l);
            return;
        }
        case 'a': {
            Value* v = pop();
            Value* l = top();
            if (l->kind != Kind::list) fail("APPEND to something that is not a list");
            l->items.push_back(v);
            return;
        }
        case 'e':
        case 0x90: {  // APPENDS, ADDITEMS
            auto items = pop_mark();
            Value* l = top();
            if (l->kind != Kind::list) fail("APPENDS to something that is not a list");
            l->items.insert(l->items.end(), items.begin(), items.end());
            return;
        }
        case 0x8f:
            push(make(Kind::list));
            return;   // EMPTY_SET: kept as a list
        case 0x91: {  // FROZENSET
            Value* l = make(Kind::list);
            l->items = pop_mark();
            push(l);
            return;
        }
        case ')':
            push(make(Kind::tuple));
            return;
        case 't': {
            Value* t = make(Kind::tuple);
            t->items = pop_mark();
            push(t);
            return;
        }
        case 0x85:
        case 0x86:
        case 0x87: {
            std::size_t n = static_cast<std::size_t>(op - 0x84);
            Value* t = make(Kind::tuple);
            t->items.resize(n);
            for (std::size_t k = n; k-- > 0;) t->items[k] = pop();
            push(t);
            return;
        }
        case '}':
            push(make(Kind::dict));
            return;
        case 'd': {
            auto items = pop_mark();
            if (items.size() % 2) fail("DICT with an odd number of items");
            Value* d = make(Kind::dict);
            d->items = std::move(items);
            push(d);
            return;
        }
        case 's': {
            Value* v = pop();
            Value* k = pop();
            Value* d = top();
            if (d->kind != Kind::dict) fail("SETITEM on something that is not a dict");
            d->items.push_back(k);
            d->items.push_back(v);
            return;
        }
        case 'u': {
            auto items = pop_mark();
            if (items.size() % 2) fail("SETITEMS with an odd number of items");
            Value* d = top();
            if (d->kind != Kind::dict) fail("SETITEMS on something that is not a dict");
            d->items.insert(d->items.end(), items.begin(), items.end());
            return;
        }
        case 'q':
            memo_put(byte());
            return;
        case 'r':
            memo_put(le<uint32_t>());
            return;
        case 0x94:
            memo_put(memo_.size());
            return;
        case 'h':
            push(memo_get(byte()));
            return;
        case 'j':
            push(memo_get(le<uint32_t>()));
            return;
        case 'c': {
            std::string module = line();
            std::string name = line();
            push(global(module, name));
            return;
        }
        case 0x93: {  // STACK_GLOBAL
            Value* name = pop();
            Value* module = pop();
            if (name->kind != Kind::string || module->kind != Kind::string)
                fail("STACK_GLOBAL needs two strings");
            push(global(module->s, name->s));
            return;
        }
        case 'R': {
            Value* args = pop();
            Value* fn = pop();
            push(call(fn, args));
            return;
        }
        case 'b':
            pop();
            top();
            return;  // BUILD: object state (OrderedDict._metadata) is not needed
        case 'Q':
            push(persistent(pop()));
            return;
        case 0x81:
        case 0x92:
        case 'i':
        case 'o': {
            BURN_THROW("[", kOp, "] refusing to construct an object (opcode 0x", std::hex,
                       static_cast<int>(op),
                       "): this loader only rebuilds tensors, storages and containers and never runs code "
                       "from a file");
        }
        default:
            break;
    }
    BURN_THROW("[", kOp, "] unsupported pickle opcode 0x", std::hex, static_cast<int>(op), std::dec,
               " at byte ", (p_ - begin_ - 1), " (the file is corrupt or not a torch.save file)");
}

}  // namespace

Unpickled unpickle(const uint8_t* data, std::size_t size, const Limits& limits,
                   const UnpickleOptions& options) {
    return Unpickler(data, size, limits, options).run();
}

}  // namespace burn::store::pickle
