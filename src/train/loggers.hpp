#pragma once
// What the training loop logs besides its display, each as a MetricsRenderer the core sends every event
// to (loggers.cpp): the per-iteration CSV files, the TensorBoard event file, the log file and the
// user's callbacks; fan_out joins them with the display.
#include <filesystem>
#include <memory>
#include <vector>

#include "burn/train/metric_logger.hpp"
#include "burn/train/renderer.hpp"

namespace burn::train::detail {

/// Every event to each renderer in order; stop_requested when any asks.
std::shared_ptr<MetricsRenderer> fan_out(std::vector<std::shared_ptr<MetricsRenderer>> renderers);
/// metrics/<split>/epoch-<N>.csv under metrics_dir's parent layout: "iteration,lr,<metric>..." with the
/// batch values of every `every`-th iteration (and the last), written at the end of each epoch.
std::shared_ptr<MetricsRenderer> iteration_csv_logger(std::filesystem::path metrics_dir, std::size_t every);
/// The scalars <split>/<metric> of every `every`-th iteration (step: the run's iteration count of that
/// split) and epoch/<split>/<metric> at each epoch's end (step: the epoch), in an event file in dir.
std::shared_ptr<MetricsRenderer> tensorboard_logger(std::filesystem::path dir, std::size_t every);
/// The plain renderer's lines (epochs, progress, messages) appended to file.
std::shared_ptr<MetricsRenderer> log_file_renderer(std::filesystem::path file);
/// Feeds a MetricLogger.
std::shared_ptr<MetricsRenderer> metric_logger_renderer(std::shared_ptr<MetricLogger> logger);
/// Calls the callbacks.
std::shared_ptr<MetricsRenderer> callback_renderer(std::vector<IterationCallback> on_iteration,
                                                   std::vector<EpochCallback> on_epoch_end);

}  // namespace burn::train::detail
