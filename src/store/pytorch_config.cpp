// PytorchStore::load_config_value: the non-tensor part of a torch.save file (a model's hyper-parameters
// saved beside its state dict) as a config::Value, from the same restricted unpickler as the tensors.
#include <string>

#include "burn/core/error.hpp"
#include "burn/store/pytorch.hpp"
#include "store/format.hpp"
#include "store/pickle.hpp"
#include "store/pytorch_reader.hpp"

namespace burn::store {

namespace {

using pickle::Kind;

const char* kind_word(Kind k) {
    switch (k) {
        case Kind::bigint:
            return "an integer beyond 64 bits";
        case Kind::bytes:
            return "a bytes object";
        case Kind::global:
            return "a class or function";
        case Kind::storage:
            return "a storage";
        case Kind::tensor:
            return "a tensor";
        default:
            return "an object";
    }
}

config::Value to_config(const pickle::Value* v, const std::string& key, const std::string& path, int depth) {
    auto where = [&] { return path.empty() ? std::string("the selected value") : "'" + path + "'"; };
    BURN_CHECK(depth < 100, "[PytorchStore] load_config('", key, "'): ", where(),
               " nests more than 100 levels deep");
    switch (v->kind) {
        case Kind::none:
            return config::Value(nullptr);
        case Kind::boolean:
            return config::Value(v->i != 0);
        case Kind::integer:
            return config::Value(v->i);
        case Kind::floating:
            return config::Value(v->f);
        case Kind::string:
            return config::Value(v->s);
        case Kind::list:
        case Kind::tuple: {
            config::Value::Array a;
            a.reserve(v->items.size());
            for (std::size_t i = 0; i < v->items.size(); ++i)
                a.push_back(to_config(v->items[i], key, path + "[" + std::to_string(i) + "]", depth + 1));
            return config::Value(std::move(a));
        }
        case Kind::dict: {
            config::Value::Object o;
            for (std::size_t i = 0; i + 1 < v->items.size(); i += 2) {
                const pickle::Value* k = v->items[i];
                std::string name;
                if (k->kind == Kind::string) {
                    name = k->s;
                } else if (k->kind == Kind::integer) {
                    name = std::to_string(k->i);
                } else {
                    BURN_THROW("[PytorchStore] load_config('", key, "'): ", where(), " has a key that is ",
                               kind_word(k->kind), "; config keys are strings or integers");
                }
                o.emplace_back(name, to_config(v->items[i + 1], key, path.empty() ? name : path + "." + name,
                                               depth + 1));
            }
            return config::Value(std::move(o));
        }
        default:
            BURN_THROW("[PytorchStore] load_config('", key, "'): ", where(), " is ", kind_word(v->kind),
                       ", not a config value (numbers, strings, booleans, None, lists and dicts); load "
                       "tensors with load_tensors or a module's load_from");
    }
}

}  // namespace

config::Value PytorchStore::load_config_value(const std::string& key) {
    detail::ByteView view =
        bytes_ ? detail::view_vector(bytes_) : detail::file_bytes(path_, "PytorchStore", opts_.mmap);
    std::shared_ptr<pickle::Unpickled> keep;
    const pickle::Value* v = detail::read_pytorch_object(view, key, opts_.limits, keep, path_.string());
    return to_config(v, key, "", 0);
}

}  // namespace burn::store
