#pragma once
/// WAV audio (RIFF/WAVE): integer PCM of 8, 16, 24 or 32 bits and IEEE float of 32 or 64 bits, plain or
/// WAVE_FORMAT_EXTENSIBLE, any channel count. Samples come out as floats in [-1, 1): integers divided
/// by 2^(bits - 1) (8-bit samples, stored unsigned, are centred first: (v - 128) / 128), the
/// channels interleaved as stored. No library is needed.
///
///     data::WavAudio a = data::read_wav("yes/0a7c2a8d_nohash_0.wav");
///     a.sample_rate;  a.channels;  a.samples;   // 16000, 1, 16000 floats
#include <cstdint>
#include <filesystem>
#include <string_view>
#include <vector>

namespace burn::data {

struct WavAudio {
    int32_t sample_rate = 0;
    int32_t channels = 0;
    int32_t bits_per_sample = 0;
    std::vector<float> samples;  // frames * channels, interleaved
};

/// Decodes WAV bytes; `name` is what errors mention. Throws burn::IoError naming it when the bytes are
/// not RIFF/WAVE, are truncated, or hold a format other than the above (e.g. compressed audio).
WavAudio decode_wav(std::string_view bytes, std::string_view name = "<memory>");
/// Reads and decodes a WAV file.
WavAudio read_wav(const std::filesystem::path& path);

}  // namespace burn::data
