// TextFolderDataset: root/<class>/<file> listed once, read on get().
#include "burn/data/text_folder.hpp"

#include <algorithm>
#include <cctype>
#include <system_error>

#include "burn/core/error.hpp"
#include "platform/files.hpp"

namespace burn::data {

namespace fs = std::filesystem;

namespace {

std::string text_lower_ascii(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::vector<fs::directory_entry> text_sorted_entries(const fs::path& dir) {
    std::error_code ec;
    std::vector<fs::directory_entry> out;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) out.push_back(*it);
    BURN_CHECK_KIND(!ec, io, "[TextFolderDataset] cannot list '", dir.string(), "': ", ec.message());
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
        return a.path().filename().string() < b.path().filename().string();
    });
    return out;
}

void text_append_utf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

}  // namespace

std::string decode_text(std::string bytes) {
    auto starts = [&](std::string_view bom) { return bytes.compare(0, bom.size(), bom) == 0; };
    if (starts("\xEF\xBB\xBF")) return bytes.substr(3);
    const bool le = starts("\xFF\xFE"), be = starts("\xFE\xFF");
    if (!le && !be) return bytes;
    std::string out;
    auto unit = [&](std::size_t i) {
        const auto a = static_cast<unsigned char>(bytes[i]), b = static_cast<unsigned char>(bytes[i + 1]);
        return static_cast<uint32_t>(le ? (b << 8 | a) : (a << 8 | b));
    };
    for (std::size_t i = 2; i + 1 < bytes.size(); i += 2) {
        uint32_t cp = unit(i);
        if (cp >= 0xD800 && cp < 0xDC00 && i + 3 < bytes.size()) {
            const uint32_t lo = unit(i + 2);
            if (lo >= 0xDC00 && lo < 0xE000) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                i += 2;
            }
        }
        text_append_utf8(out, cp);
    }
    return out;
}

TextFolderDataset::TextFolderDataset(const fs::path& root, std::vector<std::string> extensions) {
    std::error_code ec;
    BURN_CHECK_KIND(
        fs::is_directory(root, ec), io, "[TextFolderDataset] '", root.string(),
        "' is not a folder; give the folder holding one sub-folder per class (root/<class>/<file>)");
    for (auto& e : extensions) e = text_lower_ascii(e);
    for (const auto& entry : text_sorted_entries(root)) {
        if (!entry.is_directory(ec)) continue;
        const auto label = static_cast<int32_t>(classes_.size());
        classes_.push_back(entry.path().filename().string());
        for (const auto& file : text_sorted_entries(entry.path())) {
            if (!file.is_regular_file(ec)) continue;
            const std::string ext = text_lower_ascii(file.path().extension().string());
            if (std::find(extensions.begin(), extensions.end(), ext) != extensions.end())
                files_.emplace_back(file.path(), label);
        }
    }
    BURN_CHECK_KIND(!files_.empty(), io, "[TextFolderDataset] '", root.string(), "' has ", classes_.size(),
                    " class folders but no file with the extensions asked for (",
                    extensions.empty() ? std::string("none") : extensions.front(),
                    extensions.size() > 1 ? " and others" : "", "); the layout is root/<class>/<file>.txt");
}

TextFolderDataset::TextFolderDataset(const std::vector<std::pair<fs::path, std::string>>& items,
                                     std::vector<std::string> classes)
    : classes_(std::move(classes)) {
    for (const auto& [path, name] : items) {
        const auto it = std::find(classes_.begin(), classes_.end(), name);
        BURN_CHECK_KIND(it != classes_.end(), index, "[TextFolderDataset] the item '", path.string(),
                        "' has class '", name, "', which is not among the ", classes_.size(),
                        " classes given; add it to the class list");
        files_.emplace_back(path, static_cast<int32_t>(it - classes_.begin()));
    }
}

std::optional<TextItem> TextFolderDataset::get(std::size_t index) const {
    if (index >= files_.size()) return std::nullopt;
    const auto& [path, label] = files_[index];
    return TextItem{decode_text(platform::read_file(path, "TextFolderDataset")), label, path.string()};
}

}  // namespace burn::data
