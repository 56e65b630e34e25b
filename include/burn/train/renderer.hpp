#pragma once
/// How the managed loop shows progress. On a terminal (and when built with ncurses) a dashboard with
/// live curves, progress bars and ETAs; elsewhere (CI, pipes, files) plain lines: one per epoch, plus a
/// progress record at most every few seconds during long epochs. Plain output has no cursor movement
/// or carriage returns, so logs stay readable.
#include <cstddef>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "burn/train/metric.hpp"

namespace burn::train {

struct TrainingProgress {
    Split split = Split::train;
    std::size_t epoch = 0, num_epochs = 0;          // epoch is 1-based
    std::size_t iteration = 0, num_iterations = 0;  // within the epoch, 1-based
    double epoch_seconds = 0;                       // since the epoch (this split) started
    double run_seconds = 0;                         // since launch
    double run_fraction = 0;                        // share of the whole run done, for the run ETA
    double lr = 0;  // the learning rate of the last optimizer step (NaN before the first one)
};

struct MetricState {
    std::string name, unit;
    double last = 0, value = 0;
    /// A text metric's text (metric_train / metric_valid; its last and value are NaN); empty for numeric
    /// metrics.
    std::string text{};
};

struct EpochRecord {
    std::size_t epoch = 0, num_epochs = 0;
    double seconds = 0;
    std::vector<MetricState> train, valid;
};

class MetricsRenderer {
  public:
    virtual ~MetricsRenderer() = default;
    /// After each iteration (renderers throttle their own drawing).
    virtual void update(const TrainingProgress& progress, const std::vector<MetricState>& metrics) = 0;
    virtual void epoch_end(const EpochRecord& record) = 0;
    /// A one-line event: a resume, early stopping, an interruption, a checkpoint.
    virtual void message(const std::string& line) = 0;
    /// The run is over (the dashboard closes here and leaves the epoch lines behind).
    virtual void finish() {}
    /// Whether the user asked to stop (the dashboard's q key).
    virtual bool stop_requested() { return false; }
};

/// SupervisedTraining::on_iteration: after each iteration (train and valid), with the metrics' batch
/// values (`last`) and epoch aggregates so far (`value`).
using IterationCallback = std::function<void(const TrainingProgress&, const std::vector<MetricState>&)>;
/// SupervisedTraining::on_epoch_end: the epoch's values, as the display and the logs get them.
using EpochCallback = std::function<void(const EpochRecord&)>;

enum class RendererKind {
    automatic,  // the dashboard on a terminal when available, plain lines otherwise
    tui,        // the dashboard (falls back to plain lines without ncurses or a terminal)
    plain,
    none
};

/// Plain lines on out; a progress record at most every progress_interval seconds.
std::unique_ptr<MetricsRenderer> make_plain_renderer(std::ostream& out, double progress_interval = 10.0);
/// The ncurses dashboard, or nullptr when this build has no ncurses or stdout is not a terminal.
std::unique_ptr<MetricsRenderer> make_tui_renderer();
/// Whether this build has the dashboard.
bool tui_built();
/// kind resolved against the environment (BURN_TUI=0 forces plain lines).
std::unique_ptr<MetricsRenderer> make_renderer(RendererKind kind);

/// "0.1234", "97.25 %", "1.2e-05": a metric value for display.
std::string format_metric(double value, const std::string& unit);
/// A metric for display: a text metric's text, else format_metric of its value (or last).
std::string format_state(const MetricState& state, bool last = false);
/// "1:02:03" or "2:03".
std::string format_duration(double seconds);

}  // namespace burn::train
