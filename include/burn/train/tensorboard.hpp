#pragma once
/// TensorBoard event files: scalars that `tensorboard --logdir DIR` plots. The format is TensorFlow's
/// TFRecord framing (length, masked CRC-32C of the length, the record, masked CRC-32C of the record)
/// around `tensorflow.Event` protocol buffers (wall_time, step, and a Summary of one simple_value per
/// tag), written here by hand: no Debian library writes them. The training loop uses it for
/// `SupervisedTraining::tensorboard()`; it works on its own too:
///
///     train::TensorBoardWriter tb("runs/exp1");          // runs/exp1/events.out.tfevents.<s>.burn
///     tb.add_scalar("train/loss", 0.25, step);
///     tb.flush();                                        // also on destruction
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace burn::train {

class TensorBoardWriter {
  public:
    /// Creates dir when missing and a new event file in it, events.out.tfevents.<unix seconds>.<name>,
    /// whose first record names the format version ("brain.Event:2"). Throws burn::IoError when the
    /// directory cannot be created or the file written.
    explicit TensorBoardWriter(const std::filesystem::path& dir, std::string_view name = "burn",
                               std::optional<double> wall_time = std::nullopt);
    ~TensorBoardWriter();
    TensorBoardWriter(const TensorBoardWriter&) = delete;
    TensorBoardWriter& operator=(const TensorBoardWriter&) = delete;

    /// One scalar at step; wall_time in seconds since the Unix epoch (default: now). Buffered: written
    /// out by flush(), when 64 KiB have gathered, and on destruction.
    void add_scalar(std::string_view tag, double value, int64_t step,
                    std::optional<double> wall_time = std::nullopt);
    void flush();
    const std::filesystem::path& path() const { return path_; }

    /// The framed record of one event (for tests and other writers): a scalar when tag is given, the
    /// file-version event otherwise.
    static std::string record(double wall_time, int64_t step, std::string_view tag, float value);
    static std::string version_record(double wall_time);

  private:
    std::filesystem::path path_;
    std::string pending_;
};

/// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), as TFRecord checksums its data.
uint32_t crc32c(std::string_view bytes);

}  // namespace burn::train
