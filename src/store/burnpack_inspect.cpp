// store::burnpack_inspect (burn/store/burnpack_inspect.hpp): a text table of a Burnpack's contents.
#include "burn/store/burnpack_inspect.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace burn::store {

namespace {

std::string pad(std::string s, std::size_t width) {
    if (s.size() < width) s.append(width - s.size(), ' ');
    return s;
}

std::string human_bytes(uint64_t n) {
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = static_cast<double>(n);
    int u = 0;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        ++u;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
    return buf;
}

}  // namespace

std::string burnpack_inspect(BurnpackStore& store) {
    const std::vector<TensorInfo> tensors = store.tensors();
    const auto scalars = store.read_scalars();
    const auto metadata = store.read_metadata();
    std::size_t name_w = 4;
    for (const auto& t : tensors) name_w = std::max(name_w, t.name.size());
    std::ostringstream os;
    os << pad("name", name_w) << "  " << pad("dtype", 5) << "  " << pad("shape", 16) << "  "
       << pad("elements", 10) << "  " << pad("bytes", 10) << "  param_id\n";
    uint64_t total_elems = 0, total_bytes = 0;
    for (const auto& t : tensors) {
        const uint64_t n = static_cast<uint64_t>(t.shape.numel());
        const uint64_t b = n * static_cast<uint64_t>(size_of(t.dtype));
        total_elems += n;
        total_bytes += b;
        os << pad(t.name, name_w) << "  " << pad(std::string(name(t.dtype)), 5) << "  "
           << pad(t.shape.str(), 16) << "  " << pad(std::to_string(n), 10) << "  "
           << pad(std::to_string(b), 10) << "  "
           << (t.param_id ? std::to_string(*t.param_id) : std::string("-")) << "\n";
    }
    os << tensors.size() << " tensors, " << total_elems << " elements, " << total_bytes << " bytes ("
       << human_bytes(total_bytes) << ")\n";
    if (!scalars.empty()) {
        os << "scalars:\n";
        for (const auto& [k, v] : scalars) os << "  " << k << " = " << v << "\n";
    }
    if (!metadata.empty()) {
        os << "metadata:\n";
        for (const auto& [k, v] : metadata) os << "  " << k << " = " << v << "\n";
    }
    return os.str();
}

}  // namespace burn::store
