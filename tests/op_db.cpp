// The op database's registry and the helpers that entries share: deterministic sample values per
// domain and dtype, sample and bad-case builders, tolerances. The entries live in op_db_*.cpp.
#include "op_db.hpp"

#include <cmath>
#include <random>
#include <set>
#include <sstream>

#include "reference.hpp"

namespace burn::opdb {

const char* tag_name(Tag t) {
    switch (t) {
        case Tag::basic:
            return "basic";
        case Tag::broadcast:
            return "broadcast";
        case Tag::empty:
            return "empty";
        case Tag::scalar:
            return "scalar";
        case Tag::special:
            return "special";
    }
    return "?";
}

Tol default_tol(DType out) {
    switch (out) {
        case DType::f64:
            return {1e-9, 1e-12};
        case DType::f32:
            return {1e-5, 1e-6};
        case DType::f16:
            return {1e-2, 1e-2};
        case DType::bf16:
            return {2e-2, 2e-2};
        default:
            return {0, 0};
    }
}

Tol entry_tol(const OpEntry& e, DType out) {
    if (!is_float(out)) return {0, 0};
    return e.tol ? e.tol(out) : default_tol(out);
}

DType entry_out_dtype(const OpEntry& e, const Args& a) {
    return e.out_dtype ? e.out_dtype(a) : a.dtype;
}

TensorData data_of(const Dims& shape, const std::vector<double>& values, DType dtype) {
    return ref::make_data(shape, values, dtype);
}

TensorAny tensor(const Dims& shape, const std::vector<double>& values, DType dtype, const Device& device) {
    return ops::from_data(data_of(shape, values, dtype), device);
}

TensorData make_input(const Dims& shape, DType dtype, Domain domain, uint64_t seed) {
    std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull);
    auto uni = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
    auto pick = [&](int64_t lo, int64_t hi) {
        return static_cast<double>(std::uniform_int_distribution<int64_t>(lo, hi)(rng));
    };
    const bool is_unsigned = !info(dtype).is_signed;
    std::vector<double> v(static_cast<std::size_t>(shape.numel()));
    for (double& x : v) {
        if (is_bool(dtype)) {
            x = pick(0, 1);
        } else if (is_float(dtype)) {
            switch (domain) {
                case Domain::real:
                    x = uni(-3, 3);
                    break;
                case Domain::positive:
                    x = uni(0.1, 3);
                    break;
                case Domain::nonzero:
                    x = uni(0.5, 3) * (pick(0, 1) ? 1 : -1);
                    break;
                case Domain::unit:
                    x = uni(-0.9, 0.9);
                    break;
                case Domain::small:
                    x = uni(-1, 1);
                    break;
                case Domain::ties:
                    x = 0.5 * pick(-4, 4);
                    break;
                case Domain::above_one:
                    x = uni(1.1, 4);
                    break;
            }
        } else {
            switch (domain) {
                case Domain::real:
                    x = is_unsigned ? pick(0, 15) : pick(-8, 8);
                    break;
                case Domain::positive:
                    x = pick(1, 8);
                    break;
                case Domain::nonzero:
                    x = is_unsigned ? pick(1, 15) : pick(1, 8) * (pick(0, 1) ? 1 : -1);
                    break;
                case Domain::unit:
                    x = is_unsigned ? pick(0, 1) : pick(-1, 1);
                    break;
                case Domain::small:
                    x = is_unsigned ? pick(0, 3) : pick(-3, 3);
                    break;
                case Domain::ties:
                    x = is_unsigned ? pick(0, 3) : pick(-2, 2);
                    break;
                case Domain::above_one:
                    x = pick(1, 8);
                    break;
            }
        }
    }
    return ref::make_data(shape, v, dtype);
}

std::string describe(const Sample& s) {
    std::ostringstream os;
    os << tag_name(s.tag) << " sample";
    if (!s.desc.empty()) os << " '" << s.desc << "'";
    os << ":";
    for (std::size_t i = 0; i < s.inputs.size(); ++i)
        os << (i ? ", " : " ") << s.inputs[i].dtype() << ' ' << s.inputs[i].shape();
    if (!s.args.ints.empty()) {
        os << "; ints {";
        for (std::size_t i = 0; i < s.args.ints.size(); ++i) os << (i ? ", " : "") << s.args.ints[i];
        os << "}";
    }
    if (!s.args.reals.empty()) {
        os << "; reals {";
        for (std::size_t i = 0; i < s.args.reals.size(); ++i) os << (i ? ", " : "") << s.args.reals[i];
        os << "}";
    }
    return os.str();
}

bool message_matches(const std::string& what, const std::string& expect) {
    std::size_t begin = 0;
    while (begin <= expect.size()) {
        std::size_t end = expect.find('|', begin);
        if (end == std::string::npos) end = expect.size();
        std::string part = expect.substr(begin, end - begin);
        if (!part.empty() && what.find(part) != std::string::npos) return true;
        begin = end + 1;
    }
    return false;
}

Sample sample(Tag tag, std::vector<TensorData> inputs, std::vector<int64_t> ints, std::vector<double> reals,
              std::string desc) {
    Sample s;
    s.desc = std::move(desc);
    s.tag = tag;
    s.inputs = std::move(inputs);
    s.args.ints = std::move(ints);
    s.args.reals = std::move(reals);
    return s;
}

OpEntry entry(std::string name, std::vector<OpId> ops, std::vector<DType> dtypes) {
    OpEntry e;
    e.name = std::move(name);
    e.ops = std::move(ops);
    e.dtypes = std::move(dtypes);
    return e;
}

TensorData InputGen::of(const Dims& shape, DType dt, Domain domain) {
    const uint64_t seed = std::hash<std::string>{}(name) ^
                          (static_cast<uint64_t>(k++) * 0xD1B54A32D192ED03ull) ^
                          (static_cast<uint64_t>(dtype) << 56);
    return make_input(shape, dt, domain, seed);
}

TensorData InputGen::index(const Dims& shape, int64_t n, DType dt) {
    std::mt19937_64 rng(std::hash<std::string>{}(name) + static_cast<uint64_t>(k++) * 0x9E3779B97F4A7C15ull);
    std::vector<double> v(static_cast<std::size_t>(shape.numel()));
    for (double& x : v) x = static_cast<double>(std::uniform_int_distribution<int64_t>(0, n - 1)(rng));
    return ref::make_data(shape, v, dt);
}

BadCase bad(std::string desc, std::string expect, std::function<void(const Device&)> fn) {
    return BadCase{std::move(desc), std::move(fn), std::move(expect)};
}

const std::vector<OpEntry>& op_db() {
    static const std::vector<OpEntry> db = [] {
        std::vector<OpEntry> v;
        add_elementwise_entries(v);
        add_layout_entries(v);
        add_slice_entries(v);
        add_index_entries(v);
        add_reduce_entries(v);
        add_contract_entries(v);
        add_conv_entries(v);
        add_optim_entries(v);
        add_norm_entries(v);
        add_attention_entries(v);
        add_api_reduce_entries(v);
        add_api_shape_entries(v);
        add_api_linalg_entries(v);
        add_api_stats_entries(v);
        add_api_window_entries(v);
        add_api_select_entries(v);
        add_api_solve_entries(v);
        add_api_signal_entries(v);
        add_api_fft_entries(v);
        add_api_grid_entries(v);
        add_api_take_entries(v);
        add_api_update_entries(v);
        add_api_parity_entries(v);
        add_api_module_fn_entries(v);
        std::set<std::string> names;
        for (const auto& e : v)
            if (!names.insert(e.name).second) BURN_THROW("[op_db] duplicate entry name ", e.name);
        return v;
    }();
    return db;
}

const OpEntry* find_entry(const std::string& name) {
    for (const auto& e : op_db())
        if (e.name == name) return &e;
    return nullptr;
}

}  // namespace burn::opdb
