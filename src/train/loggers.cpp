// The training loop's loggers (loggers.hpp): per-iteration CSV files, TensorBoard scalars, the log file
// and the callbacks, each a MetricsRenderer beside the display.
#include "train/loggers.hpp"

#include <cmath>
#include <map>
#include <sstream>
#include <system_error>
#include <utility>

#include "burn/train/tensorboard.hpp"
#include "platform/files.hpp"
#include "train/metric_text.hpp"

namespace burn::train::detail {

namespace {

namespace fs = std::filesystem;

bool logged(const TrainingProgress& p, std::size_t every) {
    return every > 0 && (p.iteration % every == 0 || p.iteration == p.num_iterations);
}

class FanOut final : public MetricsRenderer {
  public:
    explicit FanOut(std::vector<std::shared_ptr<MetricsRenderer>> rs) : rs_(std::move(rs)) {}
    void update(const TrainingProgress& p, const std::vector<MetricState>& m) override {
        for (auto& r : rs_) r->update(p, m);
    }
    void epoch_end(const EpochRecord& rec) override {
        for (auto& r : rs_) r->epoch_end(rec);
    }
    void message(const std::string& line) override {
        for (auto& r : rs_) r->message(line);
    }
    void finish() override {
        for (auto& r : rs_) r->finish();
    }
    bool stop_requested() override {
        bool stop = false;
        for (auto& r : rs_) stop = r->stop_requested() || stop;
        return stop;
    }

  private:
    std::vector<std::shared_ptr<MetricsRenderer>> rs_;
};

/// metrics/<split>/epoch-<N>.csv: each epoch's rows gathered in memory, written (atomically) when the
/// epoch ends, or at finish for an interrupted one. A resumed epoch's file holds the iterations after
/// the resume point.
class IterationCsv final : public MetricsRenderer {
  public:
    IterationCsv(fs::path dir, std::size_t every) : dir_(std::move(dir)), every_(every) {}
    void update(const TrainingProgress& p, const std::vector<MetricState>& m) override {
        if (!logged(p, every_)) return;
        Pending& f = pending_[static_cast<int>(p.split)];
        if (f.epoch != p.epoch) f = Pending{p.epoch, {}};
        if (f.text.empty()) {
            f.text = "iteration,lr";
            for (const auto& s : m)
                if (s.text.empty()) f.text += "," + s.name;
            f.text += "\n";
        }
        f.text += std::to_string(p.iteration) + "," + number_text(p.lr);
        for (const auto& s : m) {
            if (!s.text.empty()) continue;  // a text metric has no number
            f.text += ',';
            f.text += number_text(s.last);
        }
        f.text += "\n";
    }
    void epoch_end(const EpochRecord&) override { write(); }
    void message(const std::string&) override {}
    void finish() override { write(); }

  private:
    struct Pending {
        std::size_t epoch = 0;
        std::string text;
    };
    void write() {
        for (auto& [split, f] : pending_) {
            if (f.text.empty()) continue;
            const fs::path dir = dir_ / split_name(static_cast<Split>(split));
            std::error_code ec;
            fs::create_directories(dir, ec);
            platform::write_file_atomic(dir / ("epoch-" + std::to_string(f.epoch) + ".csv"), f.text,
                                        "SupervisedTraining");
            f.text.clear();
        }
    }
    fs::path dir_;
    std::size_t every_;
    std::map<int, Pending> pending_;
};

class TensorBoardLogger final : public MetricsRenderer {
  public:
    TensorBoardLogger(const fs::path& dir, std::size_t every) : tb_(dir), every_(every) {}
    void update(const TrainingProgress& p, const std::vector<MetricState>& m) override {
        if (!logged(p, every_)) return;
        const auto step = static_cast<int64_t>((p.epoch - 1) * p.num_iterations + p.iteration);
        const std::string prefix = std::string(split_name(p.split)) + "/";
        for (const auto& s : m)
            if (std::isfinite(s.last)) tb_.add_scalar(prefix + s.name, s.last, step);
        if (p.split == Split::train && std::isfinite(p.lr)) tb_.add_scalar("train/LearningRate", p.lr, step);
    }
    void epoch_end(const EpochRecord& rec) override {
        for (Split split : {Split::train, Split::valid})
            for (const auto& s : split == Split::train ? rec.train : rec.valid)
                if (std::isfinite(s.value))
                    tb_.add_scalar("epoch/" + std::string(split_name(split)) + "/" + s.name, s.value,
                                   static_cast<int64_t>(rec.epoch));
        tb_.flush();
    }
    void message(const std::string&) override {}
    void finish() override { tb_.flush(); }

  private:
    TensorBoardWriter tb_;
    std::size_t every_;
};

/// The plain renderer writing into a buffer that is appended to the file after every event that wrote.
class LogFile final : public MetricsRenderer {
  public:
    explicit LogFile(fs::path file) : file_(std::move(file)), plain_(make_plain_renderer(buffer_)) {}
    void update(const TrainingProgress& p, const std::vector<MetricState>& m) override {
        plain_->update(p, m);
        drain();
    }
    void epoch_end(const EpochRecord& rec) override {
        plain_->epoch_end(rec);
        drain();
    }
    void message(const std::string& line) override {
        plain_->message(line);
        drain();
    }
    void finish() override {
        plain_->finish();
        drain();
    }

  private:
    void drain() {
        std::string text = buffer_.str();
        if (text.empty()) return;
        buffer_.str(std::string());
        platform::append_file(file_, text, "SupervisedTraining");
    }
    fs::path file_;
    std::ostringstream buffer_;
    std::unique_ptr<MetricsRenderer> plain_;
};

class Callbacks final : public MetricsRenderer {
  public:
    Callbacks(std::vector<IterationCallback> it, std::vector<EpochCallback> ep)
        : it_(std::move(it)), ep_(std::move(ep)) {}
    void update(const TrainingProgress& p, const std::vector<MetricState>& m) override {
        for (auto& f : it_) f(p, m);
    }
    void epoch_end(const EpochRecord& rec) override {
        for (auto& f : ep_) f(rec);
    }
    void message(const std::string&) override {}

  private:
    std::vector<IterationCallback> it_;
    std::vector<EpochCallback> ep_;
};

}  // namespace

std::shared_ptr<MetricsRenderer> fan_out(std::vector<std::shared_ptr<MetricsRenderer>> renderers) {
    if (renderers.size() == 1) return renderers.front();
    return std::make_shared<FanOut>(std::move(renderers));
}

std::shared_ptr<MetricsRenderer> iteration_csv_logger(fs::path metrics_dir, std::size_t every) {
    return std::make_shared<IterationCsv>(std::move(metrics_dir), every);
}

std::shared_ptr<MetricsRenderer> tensorboard_logger(fs::path dir, std::size_t every) {
    return std::make_shared<TensorBoardLogger>(dir, every);
}

std::shared_ptr<MetricsRenderer> log_file_renderer(fs::path file) {
    return std::make_shared<LogFile>(std::move(file));
}

namespace {
class MetricLoggerRenderer final : public MetricsRenderer {
  public:
    explicit MetricLoggerRenderer(std::shared_ptr<MetricLogger> logger) : logger_(std::move(logger)) {
        BURN_CHECK(logger_ != nullptr, "[SupervisedTraining::with_metric_logger] the logger is null");
    }
    void update(const TrainingProgress& p, const std::vector<MetricState>& m) override { logger_->log(p, m); }
    void epoch_end(const EpochRecord& record) override { logger_->end_epoch(record); }
    void message(const std::string&) override {}

  private:
    std::shared_ptr<MetricLogger> logger_;
};
}  // namespace

std::shared_ptr<MetricsRenderer> metric_logger_renderer(std::shared_ptr<MetricLogger> logger) {
    return std::make_shared<MetricLoggerRenderer>(std::move(logger));
}

std::shared_ptr<MetricsRenderer> callback_renderer(std::vector<IterationCallback> on_iteration,
                                                   std::vector<EpochCallback> on_epoch_end) {
    return std::make_shared<Callbacks>(std::move(on_iteration), std::move(on_epoch_end));
}

}  // namespace burn::train::detail
