// SpeechCommandsDataset: the archive's word folders, split by its two list files.
#include "burn/data/speech_commands.hpp"

#include <algorithm>
#include <set>
#include <sstream>
#include <system_error>

#include "burn/core/error.hpp"
#include "burn/data/wav.hpp"
#include "platform/files.hpp"

namespace burn::data {

namespace fs = std::filesystem;

namespace {

constexpr const char* kSpeechWords[] = {
    "yes",      "no",      "up",     "down",  "left",   "right",   "on",     "off",    "stop",  "go",
    "zero",     "one",     "two",    "three", "four",   "five",    "six",    "seven",  "eight", "nine",
    "bed",      "bird",    "cat",    "dog",   "happy",  "house",   "marvin", "sheila", "tree",  "wow",
    "backward", "forward", "follow", "learn", "visual", "silence", "other"};

// The "word/file.wav" lines of a list file (none when it is missing).
std::set<std::string> read_speech_list(const fs::path& path) {
    std::set<std::string> out;
    std::error_code ec;
    if (!fs::exists(path, ec)) return out;
    std::istringstream in(platform::read_file(path, "SpeechCommandsDataset"));
    for (std::string line; std::getline(in, line);) {
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
        if (!line.empty()) out.insert(line);
    }
    return out;
}

}  // namespace

const char* speech_command_name(SpeechCommandClass c) {
    return kSpeechWords[static_cast<int>(c)];
}

SpeechCommandClass speech_command_class(std::string_view word) {
    for (int i = 0; i < 35; ++i)
        if (word == kSpeechWords[i]) return static_cast<SpeechCommandClass>(i);
    if (word == "_background_noise_" || word == "silence") return SpeechCommandClass::silence;
    return SpeechCommandClass::other;
}

SpeechCommandsDataset::SpeechCommandsDataset(const fs::path& root, std::string_view split) {
    BURN_CHECK(split == "train" || split == "validation" || split == "test",
               "[SpeechCommandsDataset] the split '", split,
               "' is none of \"train\", \"validation\", \"test\"");
    std::error_code ec;
    BURN_CHECK_KIND(
        fs::is_directory(root, ec), io, "[SpeechCommandsDataset] '", root.string(),
        "' is not a folder; give the extracted speech_commands_v0.02 folder (root/<word>/<file>.wav)");
    const std::set<std::string> validation = read_speech_list(root / "validation_list.txt");
    const std::set<std::string> testing = read_speech_list(root / "testing_list.txt");
    for (fs::directory_iterator dir(root, ec), end; !ec && dir != end; dir.increment(ec)) {
        if (!dir->is_directory(ec)) continue;
        const std::string word = dir->path().filename().string();
        const SpeechCommandClass label = speech_command_class(word);
        const bool noise = word == "_background_noise_";
        if (noise && split != "train") continue;
        for (fs::directory_iterator f(dir->path(), ec), fend; !ec && f != fend; f.increment(ec)) {
            if (!f->is_regular_file(ec) || f->path().extension() != ".wav") continue;
            const std::string key = word + "/" + f->path().filename().string();
            const std::string_view in = noise                   ? "train"
                                        : validation.count(key) ? "validation"
                                        : testing.count(key)    ? "test"
                                                                : "train";
            if (in == split) files_.emplace_back(f->path(), label);
        }
    }
    BURN_CHECK_KIND(!ec, io, "[SpeechCommandsDataset] cannot list '", root.string(), "': ", ec.message());
    std::sort(files_.begin(), files_.end());
    BURN_CHECK_KIND(
        !files_.empty(), io, "[SpeechCommandsDataset] '", root.string(), "' has no WAV file in the ", split,
        " split; the layout is root/<word>/<file>.wav with validation_list.txt and testing_list.txt");
}

std::optional<SpeechItem> SpeechCommandsDataset::get(std::size_t index) const {
    if (index >= files_.size()) return std::nullopt;
    const auto& [path, label] = files_[index];
    WavAudio audio = read_wav(path);
    return SpeechItem{std::move(audio.samples), audio.sample_rate, label, path.string()};
}

}  // namespace burn::data
