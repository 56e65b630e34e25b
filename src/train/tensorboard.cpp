// TensorBoard event files (burn/train/tensorboard.hpp): protocol-buffer encoding of tensorflow.Event
// by hand (fields in number order, as protobuf's serializers write them) inside TFRecord framing.
// tests/fixtures/train/scalars.tfevents, made by scripts/gen_tensorboard_fixture.py with python3's
// protobuf and crc32c modules, pins the bytes.
#include "burn/train/tensorboard.hpp"

#include <array>
#include <chrono>
#include <cstring>
#include <system_error>

#include "burn/core/error.hpp"
#include "platform/files.hpp"

namespace burn::train {

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kFlushBytes = 64 * 1024;

std::array<uint32_t, 256> crc_table() {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
        uint32_t c = i;
        for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
        t[i] = c;
    }
    return t;
}

uint32_t masked(uint32_t crc) {
    return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}

void put_le(std::string& out, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

void put_varint(std::string& out, uint64_t v) {
    while (v >= 0x80) {
        out.push_back(static_cast<char>((v & 0x7f) | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<char>(v));
}

void put_bytes_field(std::string& out, int field, std::string_view bytes) {
    put_varint(out, static_cast<uint64_t>(field) << 3 | 2);
    put_varint(out, bytes.size());
    out.append(bytes);
}

uint64_t bits_of(double v) {
    uint64_t b;
    std::memcpy(&b, &v, sizeof b);
    return b;
}

uint32_t bits_of(float v) {
    uint32_t b;
    std::memcpy(&b, &v, sizeof b);
    return b;
}

/// Event{wall_time = 1 (double), step = 2 (int64, left out when 0, as proto3 does)} and its rest.
std::string event_head(double wall_time, int64_t step) {
    std::string e;
    put_varint(e, 1 << 3 | 1);
    put_le(e, bits_of(wall_time), 8);
    if (step != 0) {
        put_varint(e, 2 << 3 | 0);
        put_varint(e, static_cast<uint64_t>(step));
    }
    return e;
}

std::string framed(const std::string& data) {
    std::string out, len;
    put_le(len, data.size(), 8);
    out += len;
    put_le(out, masked(crc32c(len)), 4);
    out += data;
    put_le(out, masked(crc32c(data)), 4);
    return out;
}

double now_seconds() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

uint32_t crc32c(std::string_view bytes) {
    static const std::array<uint32_t, 256> table = crc_table();
    uint32_t c = 0xffffffffu;
    for (unsigned char b : bytes) c = table[(c ^ b) & 0xff] ^ (c >> 8);
    return c ^ 0xffffffffu;
}

std::string TensorBoardWriter::version_record(double wall_time) {
    std::string e = event_head(wall_time, 0);
    put_bytes_field(e, 3, "brain.Event:2");  // file_version
    return framed(e);
}

std::string TensorBoardWriter::record(double wall_time, int64_t step, std::string_view tag, float value) {
    std::string v;  // Summary.Value{tag = 1, simple_value = 2 (float)}
    put_bytes_field(v, 1, tag);
    put_varint(v, 2 << 3 | 5);
    put_le(v, bits_of(value), 4);
    std::string summary;  // Summary{value = 1 (repeated)}
    put_bytes_field(summary, 1, v);
    std::string e = event_head(wall_time, step);
    put_bytes_field(e, 5, summary);  // Event.summary
    return framed(e);
}

TensorBoardWriter::TensorBoardWriter(const fs::path& dir, std::string_view name,
                                     std::optional<double> wall_time) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    BURN_CHECK_KIND(fs::is_directory(dir), io, "[TensorBoardWriter] cannot create the directory '",
                    dir.string(), "'", ec ? ": " + ec.message() : std::string());
    const double t = wall_time.value_or(now_seconds());
    path_ =
        dir / ("events.out.tfevents." + std::to_string(static_cast<int64_t>(t)) + "." + std::string(name));
    // A second writer in the same second gets a fresh file rather than interleaving with the first.
    for (int i = 1; fs::exists(path_); ++i)
        path_ = dir / ("events.out.tfevents." + std::to_string(static_cast<int64_t>(t)) + "." +
                       std::string(name) + "." + std::to_string(i));
    platform::write_file_atomic(path_, version_record(t), "TensorBoardWriter");
}

TensorBoardWriter::~TensorBoardWriter() {
    try {
        flush();
    } catch (...) {  // a destructor must not throw; the run's own writes have reported errors already
    }
}

void TensorBoardWriter::add_scalar(std::string_view tag, double value, int64_t step,
                                   std::optional<double> wall_time) {
    pending_ += record(wall_time.value_or(now_seconds()), step, tag, static_cast<float>(value));
    if (pending_.size() >= kFlushBytes) flush();
}

void TensorBoardWriter::flush() {
    if (pending_.empty()) return;
    platform::append_file(path_, pending_, "TensorBoardWriter");
    pending_.clear();
}

}  // namespace burn::train
