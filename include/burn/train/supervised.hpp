#pragma once
/// SupervisedTraining: the managed loop (epochs, validation, metrics, checkpoints, early stopping and
/// a dashboard).
///
///     auto training = train::SupervisedTraining(artifact_dir, train_loader, valid_loader)
///                         .metric_train_numeric(train::LossMetric())
///                         .metric_valid_numeric(train::LossMetric())
///                         .metric_valid_numeric(train::AccuracyMetric())
///                         .num_epochs(10)
///                         .with_default_checkpointers()
///                         .summary();
///     auto result = training.launch(train::Learner(model, optim::AdamConfig().init(), 1e-3));
///     auto trained = result.model;  // on the inner (non-autodiff) device
///
/// The model takes part through two const member functions:
///     train::TrainOutput<Item> train_step(const TrainBatch&) const;   // loss.backward() inside
///     Item infer_step(const ValidBatch&) const;                        // Item: ClassificationOutput, ...
/// Its parameters must be on an autodiff device; train batches are built on that device and
/// validation batches on its inner device, where validation runs on model.valid().
///
/// Reproducibility: the loader order of an epoch depends only on its seed and the epoch, and launch()
/// runs under a GeneratorScope of its own generator (random ops and dropout on the launching thread
/// draw from it, not from the device's shared stream), reseeded before every step from (seed(), epoch,
/// iteration). So a run resumed from a checkpoint continues exactly as the uninterrupted run would
/// have, and trainings launched on several threads at once each give the weights they give alone.
#include <cmath>
#include <concepts>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <type_traits>
#include <utility>

#include "burn/core/generator.hpp"
#include "burn/data/dataloader.hpp"
#include "burn/train/core.hpp"
#include "burn/train/learner.hpp"
#include "burn/train/output.hpp"

namespace burn::train {

template <class M>
struct TrainingResult {
    M model;  // the trained model, on the inner device
    TrainingReport report;
};

/// Adds every gradient of from into into (grads accumulation).
void accumulate_grads(optim::GradientsParams& into, optim::GradientsParams&& from);

template <class TB, class VB>
class SupervisedTraining {
  public:
    SupervisedTraining(std::filesystem::path artifact_dir, data::DataLoaderPtr<TB> train_loader,
                       data::DataLoaderPtr<VB> valid_loader)
        : train_(std::move(train_loader)), valid_(std::move(valid_loader)) {
        BURN_CHECK(train_ != nullptr, "[SupervisedTraining] the train loader is null");
        options_.artifact_dir = std::move(artifact_dir);
    }

    /// A metric computed on training batches, logged per epoch.
    SupervisedTraining& metric_train_numeric(const Metric& metric) {
        options_.train_metrics.push_back(metric.clone());
        return *this;
    }
    /// A metric computed on validation batches, logged per epoch.
    SupervisedTraining& metric_valid_numeric(const Metric& metric) {
        options_.valid_metrics.push_back(metric.clone());
        return *this;
    }
    /// A text metric on training batches: the display, the loggers and the callbacks get its text()
    /// after every iteration and at the epoch's end; it has no history, CSV file, plot or summary column.
    SupervisedTraining& metric_train(const Metric& metric) {
        options_.train_text_metrics.push_back(metric.clone());
        return *this;
    }
    /// A text metric on validation batches.
    SupervisedTraining& metric_valid(const Metric& metric) {
        options_.valid_text_metrics.push_back(metric.clone());
        return *this;
    }
    /// Several text metrics at once, each on both splits (burn's `metrics_text((a, b, ...))`).
    template <class... Ms>
    SupervisedTraining& metrics_text(const Ms&... metrics) {
        (metric_train(metrics), ...);
        (metric_valid(metrics), ...);
        return *this;
    }
    /// Several metrics at once, each on both splits (burn's `metrics((a, b, ...))`).
    template <class... Ms>
    SupervisedTraining& metrics(const Ms&... metrics) {
        (metric_train_numeric(metrics), ...);
        (metric_valid_numeric(metrics), ...);
        return *this;
    }
    SupervisedTraining& num_epochs(std::size_t n) {
        options_.num_epochs = n;
        return *this;
    }
    /// A checkpoint at the end of every epoch, keeping the last 2 (and the best, with checkpoint_keep_best).
    SupervisedTraining& with_default_checkpointers() {
        options_.checkpointing = true;
        return *this;
    }
    /// How many of the most recent epoch checkpoints to keep (turns checkpointing on).
    SupervisedTraining& checkpoint_keep_last(std::size_t n) {
        options_.checkpointing = true;
        options_.keep_last = n;
        return *this;
    }
    /// Also keep the checkpoint of the best epoch by metric (turns checkpointing on).
    SupervisedTraining& checkpoint_keep_best(const Metric& metric, Split split = Split::valid) {
        options_.checkpointing = true;
        options_.keep_best = MetricRef{metric.name(), split, metric.direction()};
        return *this;
    }
    /// Checkpoints written by a background thread (AsyncCheckpointer): the loop copies the records and
    /// goes on; launch() returns once every write is on disk.
    SupervisedTraining& async_checkpointer(bool on = true) {
        options_.async_checkpoint = on;
        return *this;
    }
    /// The file loggers (experiment.log, log_iterations' CSV files, TensorBoard) fed by a background
    /// thread (AsyncLogger); the display and the callbacks stay on the training thread.
    SupervisedTraining& async_logger(bool on = true) {
        options_.async_logger = on;
        return *this;
    }
    /// Metric updates, and the display and loggers they feed, on a background thread (burn's async
    /// metric processing): the training thread queues each batch's MetricInput and goes on; the epoch's
    /// end waits for the queue. An error in a metric surfaces there.
    SupervisedTraining& async_metrics(bool on = true) {
        options_.async_metrics = on;
        return *this;
    }
    /// A checkpointing policy of your own (turns checkpointing on; replaces keep_last / keep_best).
    SupervisedTraining& with_checkpointing_strategy(std::shared_ptr<CheckpointingStrategy> strategy) {
        BURN_CHECK(strategy != nullptr,
                   "[SupervisedTraining::with_checkpointing_strategy] the strategy is null");
        options_.checkpointing = true;
        options_.checkpointing_strategy = std::move(strategy);
        return *this;
    }
    /// A metric logger of your own; the first call replaces the default per-epoch CSV files
    /// (metrics/<split>/<metric>.csv), more calls add loggers.
    SupervisedTraining& with_metric_logger(std::shared_ptr<MetricLogger> logger) {
        BURN_CHECK(logger != nullptr, "[SupervisedTraining::with_metric_logger] the logger is null");
        options_.metric_loggers.push_back(std::move(logger));
        return *this;
    }
    /// What each optimizer step does (burn's TrainingStrategy::Custom): the strategy gets the model, the
    /// optimizer, the step's learning rate and the (accumulated) gradients and returns the new model.
    /// The rest of the loop (batches, metrics, checkpoints, resume) is the built-in one.
    template <class M>
    SupervisedTraining& with_training_strategy(TrainingStrategy<M> strategy) {
        BURN_CHECK(strategy != nullptr, "[SupervisedTraining::with_training_strategy] the strategy is empty");
        options_.training_strategy = std::move(strategy);
        return *this;
    }
    /// The file format of checkpoints (default: default_record_store()).
    SupervisedTraining& with_record_store(std::shared_ptr<RecordStore> store) {
        options_.record_store = std::move(store);
        return *this;
    }
    /// Resumes from the checkpoint written at the end of epoch (training continues with epoch + 1).
    SupervisedTraining& checkpoint(std::size_t epoch) {
        options_.resume_epoch = epoch;
        return *this;
    }
    /// Resumes from the most recent checkpoint when there is one (an end-of-epoch one, or the one a
    /// Ctrl-C wrote mid-epoch), and starts afresh otherwise.
    SupervisedTraining& resume() {
        options_.resume_latest = true;
        return *this;
    }
    /// Stops when metric (on split) has not improved for condition.n_epochs epochs.
    SupervisedTraining& early_stopping(const Metric& metric, StoppingCondition condition,
                                       Split split = Split::valid) {
        options_.early_stopping =
            EarlyStopping{MetricRef{metric.name(), split, metric.direction()}, condition};
        return *this;
    }
    /// Sums the gradients of n steps before each optimizer step.
    SupervisedTraining& grads_accumulation(std::size_t n) {
        BURN_CHECK(n >= 1, "[SupervisedTraining] grads_accumulation must be at least 1");
        options_.grads_accumulation = n;
        return *this;
    }
    SupervisedTraining& with_interrupter(Interrupter interrupter) {
        options_.interrupter = std::move(interrupter);
        return *this;
    }
    /// Whether Ctrl-C stops the run cleanly (default true): the step finishes, a checkpoint is
    /// written, launch returns. A second Ctrl-C kills the program.
    SupervisedTraining& handle_ctrl_c(bool on) {
        options_.handle_ctrl_c = on;
        return *this;
    }
    /// At the end, print a table of per-epoch metrics (also written to artifact_dir/summary.txt).
    SupervisedTraining& summary() {
        options_.summary = true;
        return *this;
    }
    SupervisedTraining& renderer(RendererKind kind) {
        options_.renderer = kind;
        return *this;
    }
    SupervisedTraining& with_renderer(std::shared_ptr<MetricsRenderer> renderer) {
        options_.custom_renderer = std::move(renderer);
        return *this;
    }
    /// Per-iteration logs: metrics/<split>/epoch-N.csv ("iteration,lr,<metric>...", the batch values of
    /// every `every`-th iteration and the epoch's last), written as each epoch ends.
    SupervisedTraining& log_iterations(std::size_t every = 1) {
        BURN_CHECK(every >= 1, "[SupervisedTraining] log_iterations(every) needs every >= 1");
        options_.log_every = every;
        return *this;
    }
    /// TensorBoard scalars in artifact_dir/tensorboard/ (`tensorboard --logdir <artifact_dir>/tensorboard`):
    /// <split>/<metric> every `every`-th iteration, epoch/<split>/<metric> per epoch, train/LearningRate.
    SupervisedTraining& tensorboard(std::size_t every = 1) {
        BURN_CHECK(every >= 1, "[SupervisedTraining] tensorboard(every) needs every >= 1");
        options_.tensorboard_every = every;
        return *this;
    }
    /// Whether the display's plain lines (epochs, progress, messages) also go to artifact_dir/experiment.log
    /// (default true).
    SupervisedTraining& log_file(bool on) {
        options_.log_file = on;
        return *this;
    }
    /// f(progress, metrics) after every train and valid iteration (progress.split tells which).
    SupervisedTraining& on_iteration(IterationCallback f) {
        options_.on_iteration.push_back(std::move(f));
        return *this;
    }
    /// f(record) at the end of every epoch.
    SupervisedTraining& on_epoch_end(EpochCallback f) {
        options_.on_epoch_end.push_back(std::move(f));
        return *this;
    }
    /// The seed of the run's generator (dropout, random ops; reseeded per step; default 42).
    SupervisedTraining& seed(uint64_t seed) {
        options_.seed = seed;
        return *this;
    }
    const TrainingOptions& options() const { return options_; }

    template <class M>
    TrainingResult<M> launch(Learner<M> learner) const {
        static_assert(
            requires(const M& m, const TB& b) { m.train_step(b); },
            "the model needs `train::TrainOutput<Item> train_step(const TrainBatch&) const`");
        static_assert(
            requires(const M& m, const VB& b) { m.infer_step(b); },
            "the model needs `Item infer_step(const ValidBatch&) const`");
        TrainingCore core(options_);
        Generator generator(options_.seed);  // this run's random stream, whatever other threads do
        GeneratorScope generator_scope(generator);
        const TrainingStrategy<M>* strategy = nullptr;
        if (options_.training_strategy.has_value()) {
            strategy = std::any_cast<TrainingStrategy<M>>(&options_.training_strategy);
            BURN_CHECK(
                strategy != nullptr,
                "[SupervisedTraining::launch] with_training_strategy was given a strategy for another "
                "model type than the Learner's; pass a train::TrainingStrategy<M> of the launched model");
        }
        M model = std::move(learner.model);
        optim::Optimizer& optimizer = learner.optimizer;
        LrSource& lr = learner.lr;

        auto devices = model.devices();
        const Device device = devices.empty() ? Device().autodiff() : devices.front();
        BURN_CHECK_KIND(device.is_autodiff(), device, "[SupervisedTraining] the model is on ", device,
                        ", which records no gradients; build it on ", device, ".autodiff()");
        auto train = train_->to_device(device);
        auto valid = valid_ ? valid_->to_device(device.inner()) : nullptr;

        std::size_t start_epoch = 1, skip = 0;
        if (auto from = core.resume_checkpoint()) {
            // The state first: a damaged or tampered one is refused before anything is loaded.
            const config::Value state = core.checkpointer().load_state(from->tag);
            core.check_state(state, *from, train->num_batches());
            auto paths = optimizer_paths(model);
            module_from_record(model, core.checkpointer().load_part(from->tag, "model", device.inner()));
            optimizer_from_record(optimizer, paths,
                                  core.checkpointer().load_part(from->tag, "optim", device.inner()));
            lr.load_state(core.checkpointer().load_part(from->tag, "scheduler", device.inner()).scalars);
            core.restore(state, *from);
            start_epoch = from->epoch + 1;
            skip = from->iteration;
        } else {
            core.discard_old_checkpoints();
        }
        auto save = [&](const CheckpointInfo& info) {
            std::map<std::string, CheckpointRecord> parts;
            parts["model"] = module_to_record(model);
            parts["optim"] = optimizer_to_record(optimizer, optimizer_paths(model));
            parts["scheduler"].scalars = lr.state();
            core.save_checkpoint(info, parts);
        };

        core.begin(start_epoch, train->num_batches(), valid ? valid->num_batches() : 0);
        const std::size_t accumulation = options_.grads_accumulation;
        double current_lr = std::numeric_limits<double>::quiet_NaN();
        std::size_t completed = start_epoch - 1;
        bool stopped_early = false, interrupted = false;
        for (std::size_t epoch = start_epoch; epoch <= options_.num_epochs; ++epoch) {
            core.begin_epoch(Split::train, epoch, skip);
            auto it = train->iter(epoch - 1, skip);
            std::size_t iteration = skip;
            skip = 0;
            optim::GradientsParams accumulated;
            std::size_t pending = 0;
            auto apply = [&](optim::GradientsParams& grads) {
                current_lr = lr.step();
                // a schedule with cycle_momentum sets the optimizer's momentum for this step (torch writes
                // it into the param groups); a rule without one throws, naming it
                if (const std::optional<double> m = lr.momentum()) optimizer.set_momentum(*m);
                model = strategy ? (*strategy)(std::move(model), optimizer, current_lr, grads)
                                 : optimizer.step(current_lr, std::move(model), grads);
            };
            while (auto batch = it->next()) {
                ++iteration;
                generator.seed(core.iteration_seed(epoch, iteration));
                auto out = model.train_step(*batch);
                if (accumulation == 1) {
                    apply(out.grads);
                } else {
                    accumulate_grads(accumulated, std::move(out.grads));
                    if (++pending == accumulation) {
                        apply(accumulated);
                        accumulated = optim::GradientsParams();
                        pending = 0;
                    }
                }
                core.update(Split::train, to_metric_input(out.item), iteration, current_lr);
                if (pending == 0 && core.stop_requested()) {
                    interrupted = true;
                    break;
                }
            }
            if (interrupted) {
                if (options_.checkpointing) {
                    save(CheckpointInfo{"interrupted", epoch - 1, iteration});
                    core.message("interrupted at epoch " + std::to_string(epoch) + ", iteration " +
                                 std::to_string(iteration) +
                                 ": checkpoint written; .resume() continues from it");
                } else {
                    core.message("interrupted at epoch " + std::to_string(epoch) + ", iteration " +
                                 std::to_string(iteration) + " (no checkpoint: checkpointing is off)");
                }
                break;
            }
            if (pending > 0) apply(accumulated);  // the epoch's last, partial accumulation
            if (valid) {
                const M valid_model = model.valid();
                core.begin_epoch(Split::valid, epoch, 0);
                auto vit = valid->iter(epoch - 1);
                std::size_t v = 0;
                while (auto batch = vit->next()) {
                    auto out = valid_model.infer_step(*batch);
                    core.update(Split::valid, to_metric_input(out), ++v, current_lr);
                }
            }
            stopped_early = core.end_epoch(epoch);
            completed = epoch;
            if (options_.checkpointing) {
                if (core.checkpoint_epoch(epoch)) save(CheckpointInfo{std::to_string(epoch), epoch, 0});
                core.prune_checkpoints(epoch);
            }
            if (stopped_early) break;
            if (epoch < options_.num_epochs && core.stop_requested()) {
                interrupted = true;
                core.message("interrupted after epoch " + std::to_string(epoch) +
                             (options_.checkpointing
                                  ? ": its checkpoint is written; .resume() continues from it"
                                  : ""));
                break;
            }
        }
        TrainingReport report = core.finish(completed, stopped_early, interrupted);
        return TrainingResult<M>{model.valid(), std::move(report)};
    }

  private:
    data::DataLoaderPtr<TB> train_;
    data::DataLoaderPtr<VB> valid_;
    TrainingOptions options_;
};

template <class TB, class VB>
SupervisedTraining(std::filesystem::path, std::shared_ptr<data::DataLoader<TB>>,
                   std::shared_ptr<data::DataLoader<VB>>) -> SupervisedTraining<TB, VB>;

}  // namespace burn::train
