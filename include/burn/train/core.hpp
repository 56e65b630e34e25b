#pragma once
/// The part of SupervisedTraining that does not depend on the model or batch types: options, metric
/// bookkeeping, logs, rendering, early stopping, checkpoint policy and resume state. The loop itself
/// (supervised.hpp) drives it.
#include <any>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "burn/config/value.hpp"
#include "burn/train/checkpoint.hpp"
#include "burn/train/interrupter.hpp"
#include "burn/train/metric.hpp"
#include "burn/train/metric_logger.hpp"
#include "burn/train/renderer.hpp"

namespace burn::train {

class AsyncCheckpointer;
namespace detail {
class BackgroundQueue;
}

/// When early stopping or the best checkpoint consider a metric improved.
struct StoppingCondition {
    /// Stop when the metric has not improved on its best for this many epochs.
    std::size_t n_epochs = 1;
    static StoppingCondition no_improvement_since(std::size_t n_epochs) { return {n_epochs}; }
};

/// A metric of one split, by name, and which way is better.
struct MetricRef {
    std::string name;
    Split split = Split::valid;
    Direction direction = Direction::lowest;
};

struct EarlyStopping {
    MetricRef metric;
    StoppingCondition condition;
};

/// One metric's value at the end of each epoch (values[e - 1] for epoch e; NaN where unknown).
struct MetricHistory {
    std::string name, unit;
    Direction direction = Direction::lowest;
    std::vector<double> values;
};

/// What a checkpointing strategy decides at the end of an epoch: write this epoch's checkpoint, or delete
/// an earlier epoch's.
struct CheckpointingAction {
    enum class Kind { save, remove };
    Kind kind = Kind::save;
    std::size_t epoch = 0;  // remove: the epoch whose checkpoint goes
    static CheckpointingAction save() { return {Kind::save, 0}; }
    static CheckpointingAction remove(std::size_t epoch) { return {Kind::remove, epoch}; }
};

/// A user-defined checkpointing policy (burn's CheckpointingStrategy), replacing keep_last / keep_best:
/// called once at the end of every epoch, after its metrics are recorded.
class CheckpointingStrategy {
  public:
    virtual ~CheckpointingStrategy() = default;
    /// epoch is 1-based; train and valid hold every metric's per-epoch values so far (this epoch's last).
    virtual std::vector<CheckpointingAction> checkpointing(std::size_t epoch,
                                                           const std::vector<MetricHistory>& train,
                                                           const std::vector<MetricHistory>& valid) = 0;
};

struct TrainingOptions {
    std::filesystem::path artifact_dir;
    std::size_t num_epochs = 1;
    std::vector<std::shared_ptr<const Metric>> train_metrics, valid_metrics;
    std::vector<std::shared_ptr<const Metric>> train_text_metrics, valid_text_metrics;  // metric_train/_valid
    bool checkpointing = false;
    std::size_t keep_last = 2;
    std::optional<MetricRef> keep_best;
    std::optional<std::size_t> resume_epoch;  // checkpoint(epoch)
    bool resume_latest = false;               // resume()
    std::optional<EarlyStopping> early_stopping;
    std::size_t grads_accumulation = 1;
    std::optional<Interrupter> interrupter;
    bool handle_ctrl_c = true;
    bool summary = false;
    RendererKind renderer = RendererKind::automatic;
    std::shared_ptr<MetricsRenderer> custom_renderer;
    uint64_t seed = 42;
    std::shared_ptr<RecordStore> record_store;
    std::size_t log_every = 0;  // log_iterations(every): metrics/<split>/epoch-N.csv; 0 = off
    std::optional<std::size_t> tensorboard_every;  // tensorboard(every): artifact_dir/tensorboard
    bool log_file = true;                          // artifact_dir/experiment.log
    std::vector<IterationCallback> on_iteration;
    std::vector<EpochCallback> on_epoch_end;
    std::shared_ptr<CheckpointingStrategy> checkpointing_strategy;  // with_checkpointing_strategy
    std::vector<std::shared_ptr<MetricLogger>> metric_loggers;      // with_metric_logger (replace the CSVs)
    std::any training_strategy;     // with_training_strategy: a TrainingStrategy<M> (learner.hpp)
    bool async_checkpoint = false;  // async_checkpointer(): checkpoints written by a background thread
    bool async_logger = false;      // async_logger(): the file loggers fed by a background thread
    bool async_metrics = false;     // async_metrics(): metric updates and the display on a background thread
};

/// The outcome of launch() besides the model.
struct TrainingReport {
    std::size_t epochs_completed = 0;  // epochs fully done (resumed ones included)
    bool stopped_early = false;
    bool interrupted = false;
    std::optional<std::size_t> resumed_from;  // the epoch of the checkpoint the run resumed from
    double seconds = 0;
    std::vector<MetricHistory> train, valid;
};

class TrainingCore {
  public:
    explicit TrainingCore(TrainingOptions options);
    ~TrainingCore();
    TrainingCore(const TrainingCore&) = delete;
    TrainingCore& operator=(const TrainingCore&) = delete;

    const TrainingOptions& options() const { return options_; }
    Checkpointer& checkpointer() { return checkpointer_; }

    /// The checkpoint to resume from (checkpoint(epoch), or the latest for resume()); nothing to start
    /// afresh.
    std::optional<CheckpointInfo> resume_checkpoint() const;
    /// A fresh run with checkpointing on deletes the checkpoints of an earlier run in the same
    /// directory (they would otherwise be taken for this run's by a later resume()).
    void discard_old_checkpoints();
    /// Checks the loop's fields of a checkpoint's state file (format, seed, num_epochs, the metric
    /// history: kinds, ranges, one value per completed epoch) and their consistency with the checkpoint
    /// (its epoch within num_epochs) and with this run (its iteration within an epoch of
    /// train_iterations batches). Throws burn::IoError naming the file, the field and the value.
    void check_state(const config::Value& state, const CheckpointInfo& from,
                     std::size_t train_iterations) const;
    /// Restores the loop state written by state() (check it with check_state first).
    void restore(const config::Value& state, const CheckpointInfo& from);
    /// The loop state for a checkpoint.
    config::Value state() const;

    /// The run starts (after any resume) at epoch start_epoch (1-based).
    void begin(std::size_t start_epoch, std::size_t train_iterations, std::size_t valid_iterations);
    /// A split of an epoch starts; start_iteration > 0 when a resumed epoch skips batches.
    void begin_epoch(Split split, std::size_t epoch, std::size_t start_iteration);
    void update(Split split, const MetricInput& input, std::size_t iteration, double lr);
    /// Ctrl-C, the interrupter, or the dashboard's stop key.
    bool stop_requested();
    /// Records the epoch (logs, display); true when early stopping ends the run.
    bool end_epoch(std::size_t epoch);
    /// Writes a checkpoint of parts and the loop state (queued when async_checkpoint is on).
    void save_checkpoint(const CheckpointInfo& info, const std::map<std::string, CheckpointRecord>& parts);
    /// Whether the epoch's checkpoint is written (asks the checkpointing strategy, when there is one).
    bool checkpoint_epoch(std::size_t epoch);
    /// Deletes checkpoints the policy no longer keeps (after the checkpoint of epoch was written).
    void prune_checkpoints(std::size_t epoch);
    void message(const std::string& line);
    /// Closes the display, prints the summary, writes the curves; returns the report.
    TrainingReport finish(std::size_t epochs_completed, bool stopped_early, bool interrupted);

    /// The seed of the run's generator for an iteration (deterministic, so resumed runs match).
    uint64_t iteration_seed(std::size_t epoch, std::size_t iteration) const;
    const std::vector<MetricHistory>& history(Split split) const {
        return split == Split::train ? train_hist_ : valid_hist_;
    }

  private:
    /// f now, or queued behind the metric updates when async_metrics is on.
    void in_order(std::function<void()> f);
    void flush_metrics();
    std::vector<std::unique_ptr<Metric>>& metrics(Split split) {
        return split == Split::train ? train_ : valid_;
    }
    std::vector<std::unique_ptr<Metric>>& text_metrics(Split split) {
        return split == Split::train ? train_text_ : valid_text_;
    }
    std::vector<MetricHistory>& hist(Split split) {
        return split == Split::train ? train_hist_ : valid_hist_;
    }
    std::optional<std::size_t> best_epoch(const MetricRef& ref) const;
    void write_logs() const;

    TrainingOptions options_;
    Checkpointer checkpointer_;
    std::shared_ptr<MetricsRenderer> renderer_;
    std::vector<std::unique_ptr<Metric>> train_, valid_, train_text_, valid_text_;
    std::vector<MetricHistory> train_hist_, valid_hist_;
    std::optional<std::size_t> resumed_from_;
    bool handler_installed_ = false;
    std::size_t start_epoch_ = 1, train_iterations_ = 0, valid_iterations_ = 0;
    std::size_t epoch_ = 0, iteration_ = 0;
    Split split_ = Split::train;
    std::chrono::steady_clock::time_point run_start_{}, split_start_{}, epoch_start_{};
    double run_fraction_start_ = 0;
    std::vector<CheckpointingAction> actions_;  // the strategy's answer for the current epoch
    std::unique_ptr<AsyncCheckpointer> async_checkpointer_;
    std::atomic<bool> stop_seen_{false};  // the renderer asked to stop (seen by the metric thread)
    std::unique_ptr<detail::BackgroundQueue> metric_queue_;  // last: drained first on destruction
};

/// A table of per-epoch values (one row per epoch, one column per split and metric) and each
/// metric's best epoch.
std::string format_summary(const std::vector<MetricHistory>& train, const std::vector<MetricHistory>& valid);
/// An SVG with one panel per metric: train and valid values per epoch.
std::string curves_svg(const std::vector<MetricHistory>& train, const std::vector<MetricHistory>& valid);

}  // namespace burn::train
