#pragma once
/// Evaluator: a trained model's metrics over a test set (burn's Evaluator / EvaluatorBuilder), with
/// the model's own infer_step and the training metrics.
///
///     auto evaluator = train::Evaluator(artifact_dir)
///                          .metric_numeric(train::LossMetric())
///                          .metric_numeric(train::AccuracyMetric());
///     auto report = evaluator.eval("test", model, test_loader);   // report.value("Accuracy")
///
/// The model runs as given (an autodiff model runs on its inner device, as model.valid()). Each metric
/// sees every batch once; the values are the epoch aggregates the training loop would log. With an
/// artifact directory, eval writes artifact_dir/metrics/<name>.csv ("metric,value" per metric).
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "burn/core/error.hpp"
#include "burn/data/dataloader.hpp"
#include "burn/train/metric.hpp"
#include "burn/train/output.hpp"

namespace burn::train {

struct EvaluationReport {
    std::string name;
    std::size_t batches = 0;
    std::size_t items = 0;                 // rows seen (tokens for sequence outputs)
    std::map<std::string, double> values;  // by metric name
    /// The value of metric `name`; throws naming the metrics there are.
    double value(const std::string& metric) const;
};

class Evaluator {
  public:
    explicit Evaluator(std::filesystem::path artifact_dir = {}) : dir_(std::move(artifact_dir)) {}
    Evaluator& metric_numeric(const Metric& metric) {
        for (const auto& m : metrics_)
            BURN_CHECK(m->name() != metric.name(), "[Evaluator] the metric '", metric.name(),
                       "' is registered twice");
        metrics_.push_back(std::shared_ptr<const Metric>(metric.clone()));
        return *this;
    }

    /// Runs model.infer_step on every batch of loader (on the model's device; an autodiff model on its
    /// inner device) and returns the metrics' values; writes them when there is an artifact directory.
    template <class M, class B>
    EvaluationReport eval(const std::string& name, const M& model,
                          const data::DataLoaderPtr<B>& loader) const {
        static_assert(
            requires(const M& m, const B& b) { m.infer_step(b); },
            "the model needs `Item infer_step(const Batch&) const`");
        BURN_CHECK(loader != nullptr, "[Evaluator] '", name, "': the loader is null");
        BURN_CHECK(!metrics_.empty(), "[Evaluator] '", name,
                   "': no metric registered; add one with metric_numeric");
        auto devices = model.devices();
        Device device = devices.empty() ? Device() : devices.front();
        const M plain = device.is_autodiff() ? model.valid() : model;
        if (device.is_autodiff()) device = device.inner();
        auto batches = loader->to_device(device);
        std::vector<std::unique_ptr<Metric>> metrics;
        for (const auto& m : metrics_) {
            metrics.push_back(m->clone());
            metrics.back()->clear();
        }
        EvaluationReport report;
        report.name = name;
        MetricMetadata meta;
        meta.split = Split::valid;
        meta.num_iterations = batches->num_batches();
        auto it = batches->iter(0);
        while (auto batch = it->next()) {
            const MetricInput input = to_metric_input(plain.infer_step(*batch));
            meta.iteration = ++report.batches;
            report.items += input.batch_size;
            for (auto& m : metrics) m->update(input, meta);
        }
        for (const auto& m : metrics) report.values[m->name()] = m->value();
        if (!dir_.empty()) write(report);
        return report;
    }

  private:
    void write(const EvaluationReport& report) const;
    std::filesystem::path dir_;
    std::vector<std::shared_ptr<const Metric>> metrics_;  // prototypes, cloned per eval
};

}  // namespace burn::train
