// ImageFolderDataset: root/<class>/<image> listed once, decoded on get().
#include "burn/data/image_folder.hpp"

#include <algorithm>
#include <cctype>

#include "burn/core/error.hpp"

namespace burn::data {

namespace fs = std::filesystem;

namespace {

std::string lower_ascii(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// The entries of a directory, sorted by name; IoError naming the folder when it cannot be listed.
std::vector<fs::directory_entry> sorted_entries(const fs::path& dir) {
    std::error_code ec;
    std::vector<fs::directory_entry> out;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) out.push_back(*it);
    BURN_CHECK_KIND(!ec, io, "[ImageFolderDataset] cannot list '", dir.string(), "': ", ec.message());
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
        return a.path().filename().string() < b.path().filename().string();
    });
    return out;
}

}  // namespace

ImageFolderDataset::ImageFolderDataset(const fs::path& root, ImageFolderOptions options)
    : options_(std::move(options)) {
    std::error_code ec;
    BURN_CHECK_KIND(
        fs::is_directory(root, ec), io, "[ImageFolderDataset] '", root.string(),
        "' is not a folder; give the folder holding one sub-folder per class (root/<class>/<image>)");
    std::vector<std::string> extensions;
    for (const auto& e : options_.extensions) extensions.push_back(lower_ascii(e));
    for (const auto& entry : sorted_entries(root)) {
        if (!entry.is_directory(ec)) continue;
        const auto label = static_cast<int32_t>(classes_.size());
        classes_.push_back(entry.path().filename().string());
        for (const auto& file : sorted_entries(entry.path())) {
            if (!file.is_regular_file(ec)) continue;
            const std::string ext = lower_ascii(file.path().extension().string());
            if (std::find(extensions.begin(), extensions.end(), ext) != extensions.end())
                files_.emplace_back(file.path(), label);
        }
    }
    BURN_CHECK_KIND(!files_.empty(), io, "[ImageFolderDataset] '", root.string(), "' has ", classes_.size(),
                    " class folders but no image in them (looked for ",
                    options_.extensions.empty() ? std::string("no extension") : options_.extensions.front(),
                    options_.extensions.size() > 1 ? " and others" : "",
                    "); the layout is root/<class>/<image>, e.g. root/cat/001.png");
}

std::optional<ImageItem> ImageFolderDataset::get(std::size_t index) const {
    if (index >= files_.size()) return std::nullopt;
    const auto& [path, label] = files_[index];
    return ImageItem{read_image(path, options_.mode), label, path.string()};
}

}  // namespace burn::data
