#pragma once
/// Speech Commands (burn's SpeechCommandsDataset, Warden 2018, v0.02) from the extracted archive
/// folder, which is not downloaded:
///
///     root/yes/0a7c2a8d_nohash_0.wav        one folder per word
///     root/_background_noise_/white_noise.wav
///     root/validation_list.txt              "word/file.wav" per line
///     root/testing_list.txt
///
/// The split of a file is the list naming it (train: neither list), as the archive's README defines.
/// Words map to burn's 37 classes: the 35 words, `silence` for the background-noise recordings (in
/// the train split, whole files), and `other` for a folder whose name is none of them. Audio is read
/// by get() with read_wav (wav.hpp).
///
///     auto train = data::SpeechCommandsDataset::train("speech_commands_v0.02");
///     auto item = train.get(0);   // item->audio_samples in [-1, 1], item->sample_rate, item->label
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "burn/data/dataset.hpp"

namespace burn::data {

/// burn's SpeechCommandClass, in its order: 20 target words, 10 other words, 5 words of v0.02,
/// silence, other.
enum class SpeechCommandClass : int32_t {
    yes,
    no,
    up,
    down,
    left,
    right,
    on,
    off,
    stop,
    go,
    zero,
    one,
    two,
    three,
    four,
    five,
    six,
    seven,
    eight,
    nine,
    bed,
    bird,
    cat,
    dog,
    happy,
    house,
    marvin,
    sheila,
    tree,
    wow,
    backward,
    forward,
    follow,
    learn,
    visual,
    silence,
    other,
};

/// The class's word ("yes", ..., "silence", "other"), and the class of a folder name.
const char* speech_command_name(SpeechCommandClass c);
SpeechCommandClass speech_command_class(std::string_view word);

struct SpeechItem {
    std::vector<float> audio_samples;  // in [-1, 1), channels interleaved (the dataset's files are mono)
    int32_t sample_rate = 0;
    SpeechCommandClass label = SpeechCommandClass::other;
    std::string path;
};

class SpeechCommandsDataset final : public Dataset<SpeechItem> {
  public:
    /// split is "train", "validation" or "test". Throws burn::IoError when root is not a folder or
    /// has no WAV file in the split, burn::Error for another split name.
    SpeechCommandsDataset(const std::filesystem::path& root, std::string_view split);
    static SpeechCommandsDataset train(const std::filesystem::path& root) { return {root, "train"}; }
    static SpeechCommandsDataset validation(const std::filesystem::path& root) {
        return {root, "validation"};
    }
    static SpeechCommandsDataset test(const std::filesystem::path& root) { return {root, "test"}; }
    static constexpr std::size_t num_classes() { return 37; }

    /// Reads the file: burn::IoError naming it when it is not a readable WAV.
    std::optional<SpeechItem> get(std::size_t index) const override;
    std::size_t len() const override { return files_.size(); }
    /// (file, class) of every item, in item order (sorted by path).
    const std::vector<std::pair<std::filesystem::path, SpeechCommandClass>>& files() const { return files_; }

  private:
    std::vector<std::pair<std::filesystem::path, SpeechCommandClass>> files_;
};

}  // namespace burn::data
