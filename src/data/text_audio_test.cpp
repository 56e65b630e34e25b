// Text and audio datasets: TextFolderDataset and AgNewsDataset over files written here, read_wav
// against WAV files written by Python's wave module (scripts/gen_audio_fixtures.py; the samples are
// the formulas there), and SpeechCommandsDataset over a folder laid out as the archive is.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "burn/data/ag_news.hpp"
#include "burn/data/speech_commands.hpp"
#include "burn/data/text_folder.hpp"
#include "burn/data/wav.hpp"
#include "fixture_root.hpp"

using namespace burn;
using namespace burn::data;
namespace fs = std::filesystem;

namespace text_audio_test {

// A fresh folder under the temporary directory, removed at the end of the test.
class TempDir {
  public:
    TempDir() {
        path_ = fs::temp_directory_path() /
                ("burn_text_audio_test_" + std::to_string(std::random_device()()) + "_" +
                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    fs::path write(const std::string& rel, const std::string& bytes) const {
        const fs::path p = path_ / rel;
        fs::create_directories(p.parent_path());
        std::ofstream(p, std::ios::binary) << bytes;
        return p;
    }
    const fs::path& path() const { return path_; }

  private:
    fs::path path_;
};

fs::path wav(const std::string& name) {
    return burn::testing::fixture_root() / "data" / "wav" / name;
}

}  // namespace text_audio_test

TEST(DataTextFolder, ClassesSortedAndTextDecoded) {
    text_audio_test::TempDir dir;
    dir.write("positive/b.txt", "good");
    dir.write("positive/a.TXT", "\xEF\xBB\xBFgreat");  // UTF-8 BOM dropped
    dir.write("negative/x.txt", std::string("\xFF\xFE"
                                            "b\0a\0d\0\xAC\x20",
                                            10));  // UTF-16LE "bad€"
    dir.write("negative/y.md", "ignored");
    dir.write("empty/readme", "no text file");
    TextFolderDataset d(dir.path());
    EXPECT_EQ(d.classes(), (std::vector<std::string>{"empty", "negative", "positive"}));
    ASSERT_EQ(d.len(), 3u);
    std::vector<std::pair<std::string, int32_t>> got;
    for (const TextItem& item : d.iter()) got.emplace_back(item.text, item.label);
    EXPECT_EQ(got, (std::vector<std::pair<std::string, int32_t>>{
                       {"bad\xE2\x82\xAC", 1}, {"great", 2}, {"good", 2}}));
    EXPECT_FALSE(d.get(3).has_value());
    EXPECT_EQ(decode_text(std::string("\xFE\xFF\xD8\x3D\xDE\x00", 6)),
              "\xF0\x9F\x98\x80");  // UTF-16BE U+1F600
    // Explicit items and class names.
    TextFolderDataset given({{dir.path() / "positive" / "b.txt", "pos"}}, {"neg", "pos"});
    EXPECT_EQ(given.get(0)->label, 1);
    EXPECT_THROW(TextFolderDataset({{dir.path() / "positive" / "b.txt", "neutral"}}, {"neg", "pos"}),
                 IndexError);
    EXPECT_THROW(TextFolderDataset(dir.path() / "missing"), IoError);
    EXPECT_THROW(TextFolderDataset(dir.path(), {".csv"}), IoError);
}

TEST(DataAgNews, ReadsTheHeaderlessThreeColumnFiles) {
    text_audio_test::TempDir dir;
    dir.write("train.csv",
              "\"3\",\"Wall St. Bears Claw Back Into the Black (Reuters)\",\"Reuters - Short-sellers, "
              "Wall Street's dwindling\\band of ultra-cynics, are seeing green again.\"\n"
              "\"2\",\"Nets get Carter from Raptors\",\"INDIANAPOLIS -- said \"\"yes\"\"\"\n");
    dir.write("test.csv", "\"4\",\"t\",\"c\"\n\"1\",\"only two\"\n");
    const auto train = AgNewsDataset::train(dir.path());
    ASSERT_EQ(train.len(), 2u);
    EXPECT_EQ(train.get(0)->label, "3");
    EXPECT_EQ(train.get(0)->title, "Wall St. Bears Claw Back Into the Black (Reuters)");
    EXPECT_EQ(
        train.get(0)->content,
        "Reuters - Short-sellers, Wall Street's dwindling\\band of ultra-cynics, are seeing green again.");
    EXPECT_EQ(train.get(1)->content, "INDIANAPOLIS -- said \"yes\"");
    EXPECT_STREQ(AgNewsDataset::class_name(3), "Business");
    EXPECT_THROW(AgNewsDataset::test(dir.path()), IoError);  // a row of two fields
    EXPECT_THROW(AgNewsDataset::train(dir.path() / "nowhere"), IoError);
}

TEST(DataWav, PcmAndFloatSamplesMatchPythonsWave) {
    using text_audio_test::wav;
    const WavAudio s16 = read_wav(wav("s16_mono.wav"));
    EXPECT_EQ(std::vector<int>({s16.sample_rate, s16.channels, s16.bits_per_sample}),
              std::vector<int>({16000, 1, 16}));
    ASSERT_EQ(s16.samples.size(), 24u);
    for (int i = 0; i < 24; ++i)
        EXPECT_EQ(s16.samples[i], static_cast<float>((i * 7919) % 65536 - 32768) / 32768.0f);
    const WavAudio u8 = read_wav(wav("u8_stereo.wav"));
    EXPECT_EQ(std::vector<int>({u8.sample_rate, u8.channels}), std::vector<int>({8000, 2}));
    ASSERT_EQ(u8.samples.size(), 24u);
    for (int i = 0; i < 24; ++i) EXPECT_EQ(u8.samples[i], static_cast<float>((i * 37) % 256 - 128) / 128.0f);
    const WavAudio s24 = read_wav(wav("s24_mono.wav"));
    ASSERT_EQ(s24.samples.size(), 24u);
    for (int i = 0; i < 24; ++i)
        EXPECT_EQ(s24.samples[i],
                  static_cast<float>(static_cast<double>((int64_t{i} * 1234567) % (1 << 24) - (1 << 23)) /
                                     8388608.0));
    const WavAudio f32 = read_wav(wav("f32_mono.wav"));
    EXPECT_EQ(f32.sample_rate, 22050);
    ASSERT_EQ(f32.samples.size(), 24u);
    for (int i = 0; i < 24; ++i) EXPECT_EQ(f32.samples[i], static_cast<float>(i - 12) / 16.0f);
    try {
        decode_wav(std::string("RIFF\x04\0\0\0WAVE", 12), "x.wav");
        FAIL() << "no fmt chunk";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("[decode_wav] 'x.wav' has no fmt  chunk"), std::string::npos)
            << e.what();
    }
    EXPECT_THROW(decode_wav("not a wav file"), IoError);
}

TEST(DataSpeechCommands, SplitsFollowTheListFiles) {
    text_audio_test::TempDir dir;
    std::ifstream in(text_audio_test::wav("s16_mono.wav"), std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (const char* f : {"yes/a_nohash_0.wav", "yes/b_nohash_0.wav", "no/c_nohash_0.wav",
                          "wow/d_nohash_0.wav", "dunno/e_nohash_0.wav", "_background_noise_/white.wav"})
        dir.write(f, bytes);
    dir.write("yes/notes.txt", "not audio");
    dir.write("validation_list.txt", "yes/b_nohash_0.wav\n");
    dir.write("testing_list.txt", "no/c_nohash_0.wav\r\n");
    const auto train = SpeechCommandsDataset::train(dir.path());
    std::vector<std::pair<std::string, SpeechCommandClass>> got;
    for (const auto& [p, c] : train.files()) got.emplace_back(p.parent_path().filename().string(), c);
    EXPECT_EQ(got, (std::vector<std::pair<std::string, SpeechCommandClass>>{
                       {"_background_noise_", SpeechCommandClass::silence},
                       {"dunno", SpeechCommandClass::other},
                       {"wow", SpeechCommandClass::wow},
                       {"yes", SpeechCommandClass::yes}}));
    ASSERT_EQ(SpeechCommandsDataset::validation(dir.path()).len(), 1u);
    const auto test = SpeechCommandsDataset::test(dir.path());
    ASSERT_EQ(test.len(), 1u);
    const SpeechItem item = *test.get(0);
    EXPECT_EQ(item.label, SpeechCommandClass::no);
    EXPECT_EQ(item.sample_rate, 16000);
    EXPECT_EQ(item.audio_samples, read_wav(text_audio_test::wav("s16_mono.wav")).samples);
    EXPECT_STREQ(speech_command_name(SpeechCommandClass::visual), "visual");
    EXPECT_EQ(SpeechCommandsDataset::num_classes(), 37u);
    EXPECT_THROW(SpeechCommandsDataset(dir.path(), "dev"), Error);
    EXPECT_THROW(SpeechCommandsDataset::train(dir.path() / "missing"), IoError);
}
