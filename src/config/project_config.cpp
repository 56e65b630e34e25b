// burn.toml (burn/config/project_config.hpp): a small TOML subset parser and the per-process lookup
// that platform::env_var falls back to.
#include "burn/config/project_config.hpp"

#include <cctype>
#include <cstdlib>

#include "burn/build_config.hpp"
#include "burn/core/error.hpp"
#include "platform/sync.hpp"
#if BURN_FILESYSTEM
#include <filesystem>
#include <system_error>

#include "platform/files.hpp"
#endif

namespace burn::config {

namespace {

std::string trim(const std::string& s) {
    std::size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
    return s.substr(b, e - b);
}

struct LineParser {
    const std::string& origin;
    std::size_t line;

    [[noreturn]] void fail(const std::string& what) const {
        BURN_THROW("[burn.toml] ", origin, " line ", line, ": ", what);
    }

    /// A bare or dotted key: letters, digits, '_' and '-', parts joined by '.'.
    std::string key(const std::string& text, const char* what) const {
        const std::string k = trim(text);
        if (k.empty()) fail(std::string("empty ") + what);
        bool part_empty = true;
        for (char c : k) {
            if (c == '.') {
                if (part_empty) fail(std::string(what) + " '" + k + "' has an empty part");
                part_empty = true;
            } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-') {
                part_empty = false;
            } else {
                fail(std::string(what) + " '" + k + "' has the character '" + c +
                     "'; use bare keys (letters, digits, '_', '-') joined by '.'");
            }
        }
        if (part_empty) fail(std::string(what) + " '" + k + "' has an empty part");
        return k;
    }

    /// Only a comment may follow a value.
    void rest(const std::string& text, std::size_t from) const {
        const std::string r = trim(text.substr(from));
        if (!r.empty() && r[0] != '#') fail("unexpected '" + r + "' after the value");
    }

    std::string value(const std::string& text) const {
        if (text.empty()) fail("a key without a value; write key = value");
        if (text.rfind("\"\"\"", 0) == 0 || text.rfind("'''", 0) == 0)
            fail("multi-line strings are not supported; write the value on one line");
        if (text[0] == '"') {
            std::string out;
            for (std::size_t i = 1; i < text.size(); ++i) {
                const char c = text[i];
                if (c == '"') {
                    rest(text, i + 1);
                    return out;
                }
                if (c != '\\') {
                    out += c;
                    continue;
                }
                if (++i == text.size()) break;
                switch (text[i]) {
                    case '"':
                        out += '"';
                        break;
                    case '\\':
                        out += '\\';
                        break;
                    case 'n':
                        out += '\n';
                        break;
                    case 't':
                        out += '\t';
                        break;
                    default:
                        fail(std::string("unsupported escape '\\") + text[i] + "' in a string");
                }
            }
            fail("a string without its closing '\"'");
        }
        if (text[0] == '\'') {
            const std::size_t end = text.find('\'', 1);
            if (end == std::string::npos) fail("a string without its closing \"'\"");
            rest(text, end + 1);
            return text.substr(1, end - 1);
        }
        const std::size_t hash = text.find('#');
        const std::string v = trim(text.substr(0, hash));
        if (v == "true") return "1";
        if (v == "false") return "0";
        if (v[0] == '[' || v[0] == '{')
            fail("arrays and inline tables are not supported; burn.toml settings are single values");
        std::string number;
        for (char c : v)
            if (c != '_') number += c;
        char* end = nullptr;
        (void)std::strtod(number.c_str(), &end);
        if (number.empty() || end != number.c_str() + number.size() ||
            !(std::isdigit(static_cast<unsigned char>(number[0])) || number[0] == '+' || number[0] == '-' ||
              number[0] == '.'))
            fail("the value '" + v + "' is not a string, number or boolean; quote text (\"" + v + "\")");
        return number;
    }
};

std::string variable_name(const std::string& table, const std::string& key) {
    std::string out = "BURN_";
    for (char c : (table.empty() ? key : table + "." + key))
        out += (c == '.' || c == '-') ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

struct Current {
    platform::Mutex mutex;
    bool loaded = false;
    std::shared_ptr<const ProjectConfig> config;
};
Current& current_state() {
    static Current c;
    return c;
}

}  // namespace

ProjectConfig ProjectConfig::parse(const std::string& text, const std::string& origin) {
    ProjectConfig out;
    std::string table;
    std::size_t start = 0, n = 0;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        std::string line = trim(text.substr(start, end - start));
        start = end + 1;
        LineParser p{origin, ++n};
        if (line.empty() || line[0] == '#') continue;
        if (line[0] == '[') {
            if (line.rfind("[[", 0) == 0) p.fail("arrays of tables ([[...]]) are not supported");
            const std::size_t close = line.find(']');
            if (close == std::string::npos) p.fail("a table header without its closing ']'");
            p.rest(line, close + 1);
            table = p.key(line.substr(1, close - 1), "table name");
            continue;
        }
        const std::size_t eq = line.find('=');
        if (eq == std::string::npos) p.fail("expected 'key = value' or '[table]', got '" + line + "'");
        const std::string key = p.key(line.substr(0, eq), "key");
        const std::string name = variable_name(table, key);
        if (!out.vars_.emplace(name, p.value(trim(line.substr(eq + 1)))).second)
            p.fail("'" + key + "' is set twice (" + name + ")");
    }
    return out;
}

std::optional<std::string> ProjectConfig::get(const std::string& variable) const {
    auto it = vars_.find(variable);
    if (it == vars_.end()) return std::nullopt;
    return it->second;
}

#if BURN_FILESYSTEM
ProjectConfig ProjectConfig::load(const std::string& path) {
    return parse(platform::read_file(path, "burn.toml"), path);
}

std::optional<std::string> ProjectConfig::find() {
    if (const char* explicit_path = std::getenv("BURN_CONFIG")) return std::string(explicit_path);
    std::error_code ec;
    std::filesystem::path dir = std::filesystem::current_path(ec);
    if (ec) return std::nullopt;
    for (;;) {
        const auto candidate = dir / "burn.toml";
        if (std::filesystem::is_regular_file(candidate, ec)) return candidate.string();
        if (!dir.has_parent_path() || dir.parent_path() == dir) return std::nullopt;
        dir = dir.parent_path();
    }
}
#else
ProjectConfig ProjectConfig::load(const std::string& path) {
    BURN_THROW_KIND(io, "[burn.toml] cannot read '", path,
                    "': this build has no file system (BURN_FILESYSTEM=OFF); read the text yourself and call "
                    "ProjectConfig::parse");
}

std::optional<std::string> ProjectConfig::find() {
    return std::nullopt;
}
#endif

std::shared_ptr<const ProjectConfig> ProjectConfig::current() {
    Current& c = current_state();
    platform::Lock lock(c.mutex);
    if (!c.loaded) {
        if (auto file = find()) c.config = std::make_shared<const ProjectConfig>(load(*file));
        c.loaded = true;  // after a successful load: a broken file is reported at every lookup
    }
    return c.config;
}

void ProjectConfig::set_current(std::shared_ptr<const ProjectConfig> config) {
    Current& c = current_state();
    platform::Lock lock(c.mutex);
    c.config = std::move(config);
    c.loaded = true;
}

}  // namespace burn::config
