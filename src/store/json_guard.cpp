#include "store/json_guard.hpp"

#include <unordered_set>
#include <vector>

#include "burn/core/error.hpp"

namespace burn::store::detail {

namespace {

// Validates structure only: counts depth, rejects a key that appears twice in one object (the DOM
// builder would keep the last silently: a second "weight" entry could hide the first) and remembers
// the first error.
struct DepthCheck : nlohmann::json_sax<nlohmann::json> {
    int depth = 0;
    int max_depth = 0;
    std::string error;
    std::vector<std::unordered_set<std::string>> keys;  // one per open container (empty for arrays)

    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool key(string_t& k) override {
        if (keys.empty() || keys.back().insert(k).second) return true;
        error = "the key '" + k + "' appears twice in one object (a file must name each entry once)";
        return false;
    }
    bool start_object(std::size_t) override { return enter(); }
    bool end_object() override { return leave(); }
    bool start_array(std::size_t) override { return enter(); }
    bool end_array() override { return leave(); }
    bool parse_error(std::size_t pos, const std::string&, const nlohmann::detail::exception& ex) override {
        error = ex.what();
        error += " (byte ";
        error += std::to_string(pos);
        error += ")";
        return false;
    }
    bool enter() {
        if (++depth > max_depth) {
            error = "nesting deeper than " + std::to_string(max_depth) + " levels";
            return false;
        }
        keys.emplace_back();
        return true;
    }
    bool leave() {
        --depth;
        if (!keys.empty()) keys.pop_back();
        return true;
    }
};

}  // namespace

nlohmann::json parse_untrusted(const uint8_t* data, std::size_t size, Syntax syntax, int max_depth,
                               std::string_view op, std::string_view what) {
    const uint8_t* end = data + size;
    DepthCheck check;
    check.max_depth = max_depth;
    bool ok = false;
    try {
        ok = syntax == Syntax::json
                 ? nlohmann::json::sax_parse(data, end, &check, nlohmann::json::input_format_t::json, true)
                 : nlohmann::json::sax_parse(data, end, &check, nlohmann::json::input_format_t::cbor, true);
    } catch (const std::exception& e) {
        check.error = e.what();
    }
    if (!ok || !check.error.empty())
        BURN_THROW("[", op, "] corrupt ", what, ": ",
                   check.error.empty() ? std::string("unexpected structure") : check.error);
    nlohmann::json doc;
    std::string why = "it does not parse";
    try {
        doc = syntax == Syntax::json ? nlohmann::json::parse(data, end, nullptr, false)
                                     : nlohmann::json::from_cbor(data, end, true, false);
    } catch (const std::exception& e) {  // the DOM builder can throw (sizes) even without exceptions
        doc = nlohmann::json(nlohmann::json::value_t::discarded);
        why = e.what();
    }
    if (doc.is_discarded()) BURN_THROW("[", op, "] corrupt ", what, ": ", why);
    return doc;
}

uint64_t json_u64(const nlohmann::json& v, std::string_view op, const std::string& name, const char* field) {
    BURN_CHECK(v.is_number_unsigned(), "[", op, "] tensor '", name, "': '", field,
               "' is not a non-negative integer (the file is corrupt)");
    return v.get<uint64_t>();
}

}  // namespace burn::store::detail
