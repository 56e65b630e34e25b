#include "platform/thermal.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

namespace burn::platform {

namespace fs = std::filesystem;

namespace {

std::optional<std::string> first_line(const fs::path& file) {
    std::ifstream in(file);
    std::string line;
    if (!in || !std::getline(in, line)) return std::nullopt;
    return line;
}

/// A millidegree reading; nullopt when the file is missing or not a number.
std::optional<double> millidegrees(const fs::path& file) {
    auto line = first_line(file);
    if (!line) return std::nullopt;
    char* end = nullptr;  // strtod, not stod: the core may be built without exceptions
    const double v = std::strtod(line->c_str(), &end);
    if (end == line->c_str()) return std::nullopt;
    return v / 1000.0;
}

/// The entries of dir whose names start with prefix, sorted (thermal_zone0 before thermal_zone1).
std::vector<fs::path> entries(const fs::path& dir, const std::string& prefix) {
    std::vector<fs::path> out;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().filename().string().rfind(prefix, 0) == 0) out.push_back(it->path());
    std::sort(out.begin(), out.end());
    return out;
}

bool names_cpu(std::string name) {
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const char* key : {"x86_pkg_temp", "cpu", "soc", "coretemp", "k10temp", "zenpower", "package"})
        if (name.find(key) != std::string::npos) return true;
    return false;
}

}  // namespace

std::optional<double> cpu_temperature_celsius(const fs::path& sysfs_root) {
    const auto zones = entries(sysfs_root / "class" / "thermal", "thermal_zone");
    for (const auto& zone : zones) {
        auto type = first_line(zone / "type");
        if (type && names_cpu(*type))
            if (auto t = millidegrees(zone / "temp")) return t;
    }
    if (!zones.empty())
        if (auto t = millidegrees(zones.front() / "temp")) return t;
    for (const auto& mon : entries(sysfs_root / "class" / "hwmon", "hwmon")) {
        auto name = first_line(mon / "name");
        if (name && names_cpu(*name))
            if (auto t = millidegrees(mon / "temp1_input")) return t;
    }
    return std::nullopt;
}

}  // namespace burn::platform
