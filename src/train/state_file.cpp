#include "train/state_file.hpp"

#include "burn/core/error.hpp"

namespace burn::train::state_file {

bool is_plain_name(std::string_view name) {
    if (name.empty() || name.size() > 64 || name.front() == '.') return false;
    if (name.find("..") != std::string_view::npos) return false;
    for (char c : name) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                        c == '_' || c == '-' || c == '.';
        if (!ok) return false;
    }
    return true;
}

StateReader::StateReader(const config::Value& root, std::filesystem::path file)
    : root_(root), file_(std::move(file)) {
    if (!root_.is_object()) fail("(the whole file)", root_, "a state file is a JSON object");
}

void StateReader::fail(std::string_view field, const config::Value& value, std::string_view why) const {
    std::string text = config::dump(value, -1);
    if (text.size() > 80) text = text.substr(0, 77) + "...";
    BURN_THROW_KIND(io, "[checkpoint] '", file_.string(), "': \"", field, "\" is ", text, ": ", why,
                    ". The state file is damaged or was edited; delete it (and the other files of its "
                    "checkpoint) or restore it from a copy");
}

void StateReader::missing(std::string_view field) const {
    BURN_THROW_KIND(io, "[checkpoint] '", file_.string(), "': \"", field,
                    "\" is missing. The state file is damaged or was edited; delete it (and the other "
                    "files of its checkpoint) or restore it from a copy");
}

const config::Value& StateReader::field(std::string_view key) const {
    const config::Value* v = root_.find(key);
    if (v == nullptr) missing(key);
    return *v;
}

std::uint64_t StateReader::count(std::string_view key, std::uint64_t min, std::uint64_t max) const {
    const config::Value& v = field(key);
    const std::string range =
        "expected an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
    if (v.kind() != config::Kind::uint64) fail(key, v, range);
    const std::uint64_t x = v.as_uint64();
    if (x < min || x > max) fail(key, v, range);
    return x;
}

const std::string& StateReader::name(std::string_view key) const {
    const config::Value& v = field(key);
    if (!v.is_string()) fail(key, v, "expected a string");
    if (!is_plain_name(v.as_string()))
        fail(key, v,
             "not a plain file name (1 to 64 letters, digits, '_', '-', '.'; not starting with '.', no "
             "'..', no '/')");
    return v.as_string();
}

const config::Value& StateReader::object(std::string_view key) const {
    const config::Value& v = field(key);
    if (!v.is_object()) fail(key, v, "expected an object");
    return v;
}

const config::Value& StateReader::array(std::string_view key, std::size_t max) const {
    const config::Value& v = field(key);
    if (!v.is_array()) fail(key, v, "expected an array");
    if (v.size() > max) fail(key, v, "more than " + std::to_string(max) + " elements");
    return v;
}

}  // namespace burn::train::state_file
