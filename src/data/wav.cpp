// A RIFF/WAVE reader for uncompressed PCM and float audio.
#include "burn/data/wav.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "burn/core/error.hpp"
#include "platform/files.hpp"

namespace burn::data {

namespace {

uint32_t wav_le(std::string_view b, std::size_t at, int n) {
    uint32_t v = 0;
    for (int i = n - 1; i >= 0; --i)
        v = v << 8 | static_cast<unsigned char>(b[at + static_cast<std::size_t>(i)]);
    return v;
}

}  // namespace

WavAudio decode_wav(std::string_view bytes, std::string_view name) {
    BURN_CHECK_KIND(bytes.size() >= 12 && bytes.substr(0, 4) == "RIFF" && bytes.substr(8, 4) == "WAVE", io,
                    "[decode_wav] '", name, "' is not a WAV file (no RIFF/WAVE header); convert it to WAV");
    int format = 0, channels = 0, bits = 0;
    uint32_t rate = 0;
    std::string_view data;
    bool have_fmt = false, have_data = false;
    for (std::size_t at = 12; at + 8 <= bytes.size();) {
        const std::string_view id = bytes.substr(at, 4);
        const uint32_t size = wav_le(bytes, at + 4, 4);
        BURN_CHECK_KIND(size <= bytes.size() - at - 8 || id == "data", io, "[decode_wav] '", name,
                        "' is truncated: its '", std::string(id), "' chunk claims ", size,
                        " bytes; replace the file");
        if (id == "fmt ") {
            BURN_CHECK_KIND(size >= 16, io, "[decode_wav] '", name, "' has a fmt chunk of ", size,
                            " bytes (16 needed)");
            format = static_cast<int>(wav_le(bytes, at + 8, 2));
            channels = static_cast<int>(wav_le(bytes, at + 10, 2));
            rate = wav_le(bytes, at + 12, 4);
            bits = static_cast<int>(wav_le(bytes, at + 22, 2));
            if (format == 0xFFFE && size >= 26)
                format = static_cast<int>(wav_le(bytes, at + 32, 2));  // sub-format
            have_fmt = true;
        } else if (id == "data") {
            // A writer that did not know the length leaves 0 or 0xFFFFFFFF: take the rest of the file.
            data = bytes.substr(at + 8, std::min<std::size_t>(size, bytes.size() - at - 8));
            have_data = true;
        }
        at += 8 + std::size_t{size} + (size & 1);
    }
    BURN_CHECK_KIND(have_fmt && have_data, io, "[decode_wav] '", name, "' has no ",
                    have_fmt ? "data" : "fmt ", " chunk; the file is damaged or truncated");
    const bool pcm = format == 1 && (bits == 8 || bits == 16 || bits == 24 || bits == 32);
    const bool flt = format == 3 && (bits == 32 || bits == 64);
    BURN_CHECK_KIND((pcm || flt) && channels > 0, io, "[decode_wav] '", name, "' holds format ", format,
                    " with ", bits, "-bit samples and ", channels,
                    " channels; only PCM (format 1: 8/16/24/32 bits) and IEEE float (format 3: 32/64 bits) "
                    "are read: convert it, e.g. with ffmpeg -i in.wav -c:a pcm_s16le out.wav");
    const std::size_t width = static_cast<std::size_t>(bits) / 8;
    WavAudio out{static_cast<int32_t>(rate), channels, bits, {}};
    const std::size_t n =
        data.size() / width / static_cast<std::size_t>(channels) * static_cast<std::size_t>(channels);
    out.samples.resize(n);
    const double scale = pcm ? 1.0 / static_cast<double>(uint64_t{1} << (bits - 1)) : 1.0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t at = i * width;
        if (flt && bits == 32) {
            float f;
            uint32_t u = wav_le(data, at, 4);
            std::memcpy(&f, &u, 4);
            out.samples[i] = f;
        } else if (flt) {
            uint64_t u = wav_le(data, at, 4) | uint64_t{wav_le(data, at + 4, 4)} << 32;
            double d;
            std::memcpy(&d, &u, 8);
            out.samples[i] = static_cast<float>(d);
        } else if (bits == 8) {
            out.samples[i] = static_cast<float>((static_cast<int>(wav_le(data, at, 1)) - 128) * scale);
        } else {
            // Sign-extend the little-endian integer of `bits` bits.
            const uint32_t u = wav_le(data, at, static_cast<int>(width)) << (32 - bits);
            out.samples[i] =
                static_cast<float>(static_cast<double>(static_cast<int32_t>(u) >> (32 - bits)) * scale);
        }
    }
    return out;
}

WavAudio read_wav(const std::filesystem::path& path) {
    return decode_wav(platform::read_file(path, "read_wav"), path.string());
}

}  // namespace burn::data
