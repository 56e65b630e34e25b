#include "burn/train/core.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iostream>
#include <set>
#include <sstream>
#include <system_error>

#include "burn/data/rng.hpp"
#include "burn/train/async_checkpointer.hpp"
#include "burn/train/async_logger.hpp"
#include "burn/train/supervised.hpp"
#include "platform/files.hpp"
#include "platform/process.hpp"
#include "train/background_queue.hpp"
#include "train/loggers.hpp"
#include "train/metric_text.hpp"
#include "train/state_file.hpp"

namespace burn::train {

namespace fs = std::filesystem;
using detail::file_name;
using detail::number_text;

namespace {

constexpr double kUnrecorded = std::numeric_limits<double>::quiet_NaN();

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

config::Value history_to_json(const std::vector<MetricHistory>& hist) {
    config::Value out = config::Value::object();
    for (const auto& h : hist) {
        config::Value values = config::Value::array();
        for (double v : h.values)
            values.push_back(std::isfinite(v) ? config::Value(v) : config::Value(nullptr));
        out[h.name] = std::move(values);
    }
    return out;
}

/// json was checked by check_history. A metric the checkpoint does not have starts empty (end_epoch
/// pads it with NaN), so its size never comes from the file's epoch number alone.
void history_from_json(std::vector<MetricHistory>& hist, const config::Value* json) {
    for (auto& h : hist) {
        h.values.clear();
        const config::Value* values = json ? json->find(h.name) : nullptr;
        if (!values || !values->is_array()) continue;
        h.values.assign(values->size(), kUnrecorded);
        for (std::size_t e = 0; e < values->size(); ++e)
            if (values->element(e).is_number()) h.values[e] = values->element(e).as_double();
    }
}

/// Every metric of a split: an array of one number (or null: not finite) per completed epoch.
void check_history(const state_file::StateReader& r, std::string_view split, std::size_t epochs) {
    const config::Value& json = r.object(split);
    for (const auto& [name, values] : json.as_object()) {
        const std::string field = std::string(split) + "." + name;
        if (!values.is_array()) r.fail(field, values, "expected an array of numbers");
        if (values.size() != epochs)
            r.fail(field, values,
                   "expected one value per completed epoch (" + std::to_string(epochs) + "), got " +
                       std::to_string(values.size()));
        for (std::size_t e = 0; e < values.size(); ++e) {
            const config::Value& v = values.element(e);
            if (!v.is_number() && !v.is_null())
                r.fail(field + "[" + std::to_string(e) + "]", v, "expected a number or null");
        }
    }
}

}  // namespace

void accumulate_grads(optim::GradientsParams& into, optim::GradientsParams&& from) {
    for (const auto& [id, g] : from.items()) {
        auto prev = into.get(ParamId(id));
        into.set(ParamId(id), prev ? ops::add(*prev, g) : g);
    }
}

TrainingCore::TrainingCore(TrainingOptions options)
    : options_(std::move(options)),
      checkpointer_(options_.artifact_dir / "checkpoint", options_.record_store) {
    BURN_CHECK(!options_.artifact_dir.empty(), "[SupervisedTraining] the artifact directory is empty");
    BURN_CHECK(options_.num_epochs >= 1 && options_.num_epochs <= state_file::kMaxCount,
               "[SupervisedTraining] num_epochs must be in [1, ", state_file::kMaxCount, "], got ",
               options_.num_epochs);
    std::error_code ec;
    fs::create_directories(options_.artifact_dir, ec);
    BURN_CHECK_KIND(!ec, io, "[SupervisedTraining] cannot create the artifact directory '",
                    options_.artifact_dir.string(), "': ", ec.message());
    for (const auto& m : options_.train_metrics) train_.push_back(m->clone());
    for (const auto& m : options_.valid_metrics) valid_.push_back(m->clone());
    for (const auto& m : options_.train_text_metrics) train_text_.push_back(m->clone());
    for (const auto& m : options_.valid_text_metrics) valid_text_.push_back(m->clone());
    for (Split split : {Split::train, Split::valid}) {
        std::set<std::string> seen;
        for (const auto& m : metrics(split)) {
            BURN_CHECK(seen.insert(m->name()).second, "[SupervisedTraining] the ", split_name(split),
                       " metric '", m->name(), "' is registered twice");
            hist(split).push_back({m->name(), m->unit(), m->direction(), {}});
        }
    }
    auto check_ref = [&](const MetricRef& ref, const char* what) {
        const auto& h = history(ref.split);
        bool found =
            std::any_of(h.begin(), h.end(), [&](const MetricHistory& x) { return x.name == ref.name; });
        BURN_CHECK(found, "[SupervisedTraining] ", what, " watches the ", split_name(ref.split), " metric '",
                   ref.name, "', which is not registered; add it with metric_", split_name(ref.split),
                   "_numeric");
    };
    if (options_.early_stopping) check_ref(options_.early_stopping->metric, "early_stopping");
    if (options_.keep_best) check_ref(*options_.keep_best, "checkpoint_keep_best");
    BURN_CHECK(!options_.resume_epoch || !options_.resume_latest,
               "[SupervisedTraining] choose one of checkpoint(epoch) and resume()");
    // Before the renderer: ncurses installs its own SIGINT handler only where none is set.
    if (options_.handle_ctrl_c) {
        platform::install_interrupt_handler();
        handler_installed_ = true;
    }
    try {
        std::vector<std::shared_ptr<MetricsRenderer>> rs;
        rs.push_back(options_.custom_renderer
                         ? options_.custom_renderer
                         : std::shared_ptr<MetricsRenderer>(make_renderer(options_.renderer)));
        const fs::path& dir = options_.artifact_dir;
        std::vector<std::shared_ptr<MetricsRenderer>> files;
        if (options_.log_file) files.push_back(detail::log_file_renderer(dir / "experiment.log"));
        if (options_.log_every > 0)
            files.push_back(detail::iteration_csv_logger(dir / "metrics", options_.log_every));
        if (options_.tensorboard_every)
            files.push_back(detail::tensorboard_logger(dir / "tensorboard", *options_.tensorboard_every));
        for (const auto& logger : options_.metric_loggers)
            files.push_back(detail::metric_logger_renderer(logger));
        if (options_.async_logger && !files.empty())
            rs.push_back(std::make_shared<AsyncLogger>(detail::fan_out(std::move(files))));
        else
            rs.insert(rs.end(), files.begin(), files.end());
        if (!options_.on_iteration.empty() || !options_.on_epoch_end.empty())
            rs.push_back(detail::callback_renderer(options_.on_iteration, options_.on_epoch_end));
        renderer_ = detail::fan_out(std::move(rs));
        if (options_.async_checkpoint && options_.checkpointing)
            async_checkpointer_ = std::make_unique<AsyncCheckpointer>(checkpointer_);
        if (options_.async_metrics)
            metric_queue_ = std::make_unique<detail::BackgroundQueue>("async metrics");
    } catch (...) {
        if (handler_installed_) platform::remove_interrupt_handler();
        throw;
    }
}

TrainingCore::~TrainingCore() {
    metric_queue_.reset();  // its tasks use the metrics and the renderer
    if (handler_installed_) platform::remove_interrupt_handler();
}

void TrainingCore::in_order(std::function<void()> f) {
    if (metric_queue_)
        metric_queue_->submit(std::move(f));
    else
        f();
}

void TrainingCore::flush_metrics() {
    if (metric_queue_) metric_queue_->flush();
}

std::optional<CheckpointInfo> TrainingCore::resume_checkpoint() const {
    if (options_.resume_epoch) {
        const std::string tag = std::to_string(*options_.resume_epoch);
        config::Value s = checkpointer_.load_state(tag);  // throws, listing what exists, when missing
        return CheckpointInfo{tag, static_cast<std::size_t>(s.at("epoch").as_uint64()),
                              static_cast<std::size_t>(s.at("iteration").as_uint64())};
    }
    if (options_.resume_latest) return checkpointer_.latest();
    return std::nullopt;
}

void TrainingCore::discard_old_checkpoints() {
    if (!options_.checkpointing) return;
    auto old = checkpointer_.list();
    for (const auto& c : old) checkpointer_.remove(c.tag);
    if (!old.empty())
        message("starting afresh: removed " + std::to_string(old.size()) +
                " checkpoint(s) of an earlier run in '" + checkpointer_.dir().string() +
                "' (resume() continues a run instead)");
}

config::Value TrainingCore::state() const {
    config::Value s = config::Value::object();
    s["format"] = 1;
    s["seed"] = options_.seed;
    s["num_epochs"] = static_cast<uint64_t>(options_.num_epochs);
    s["train"] = history_to_json(train_hist_);
    s["valid"] = history_to_json(valid_hist_);
    return s;
}

void TrainingCore::check_state(const config::Value& state, const CheckpointInfo& from,
                               std::size_t train_iterations) const {
    state_file::StateReader r(state, checkpointer_.state_file(from.tag));
    r.count("format", 1, 1);
    r.count("seed", 0, std::numeric_limits<uint64_t>::max());
    const uint64_t num_epochs = r.count("num_epochs", 1, state_file::kMaxCount);
    if (from.epoch > num_epochs)
        r.fail("epoch", r.field("epoch"),
               "past the run's own num_epochs (" + std::to_string(num_epochs) + ")");
    if (from.iteration > train_iterations)
        r.fail("iteration", r.field("iteration"),
               "past the end of an epoch: the train loader has " + std::to_string(train_iterations) +
                   " batches (a checkpoint resumes only with the loader it was written with)");
    check_history(r, "train", from.epoch);
    check_history(r, "valid", from.epoch);
}

void TrainingCore::restore(const config::Value& state, const CheckpointInfo& from) {
    history_from_json(train_hist_, state.find("train"));
    history_from_json(valid_hist_, state.find("valid"));
    if (const auto* seed = state.find("seed");
        seed && seed->is_integer() && seed->as_uint64() != options_.seed)
        message("note: the checkpoint was written with seed " + std::to_string(seed->as_uint64()) +
                ", this run uses " + std::to_string(options_.seed) +
                "; the resumed run will not match the original");
    resumed_from_ = from.epoch;
    std::string where =
        "resumed from checkpoint '" + from.tag + "' (epoch " + std::to_string(from.epoch) +
        (from.iteration ? ", iteration " + std::to_string(from.iteration) + " of the next" : "") + ")";
    message(where);
}

void TrainingCore::begin(std::size_t start_epoch, std::size_t train_iterations,
                         std::size_t valid_iterations) {
    start_epoch_ = start_epoch;
    train_iterations_ = train_iterations;
    valid_iterations_ = valid_iterations;
    run_start_ = std::chrono::steady_clock::now();
    run_fraction_start_ = static_cast<double>(start_epoch - 1) / static_cast<double>(options_.num_epochs);
    if (start_epoch > options_.num_epochs)
        message("nothing to do: the checkpoint is at epoch " + std::to_string(start_epoch - 1) + " of " +
                std::to_string(options_.num_epochs));
}

void TrainingCore::begin_epoch(Split split, std::size_t epoch, std::size_t start_iteration) {
    in_order([this, split] {
        for (auto& m : metrics(split)) m->clear();
        for (auto& m : text_metrics(split)) m->clear();
    });
    split_ = split;
    epoch_ = epoch;
    iteration_ = start_iteration;
    split_start_ = std::chrono::steady_clock::now();
    if (split == Split::train) epoch_start_ = split_start_;
}

void TrainingCore::update(Split split, const MetricInput& input, std::size_t iteration, double lr) {
    const std::size_t n_iter = split == Split::train ? train_iterations_ : valid_iterations_;
    MetricMetadata meta{epoch_, options_.num_epochs, iteration, n_iter, lr, split};
    iteration_ = iteration;
    const double per_epoch = static_cast<double>(train_iterations_ + valid_iterations_);
    const double done_in_epoch =
        static_cast<double>(split == Split::train ? iteration : train_iterations_ + iteration);
    TrainingProgress p;
    p.split = split;
    p.epoch = epoch_;
    p.num_epochs = options_.num_epochs;
    p.iteration = iteration;
    p.num_iterations = n_iter;
    p.epoch_seconds = seconds_since(split_start_);
    p.run_seconds = seconds_since(run_start_);
    p.lr = lr;
    p.run_fraction = per_epoch > 0 ? (static_cast<double>(epoch_ - 1) + done_in_epoch / per_epoch) /
                                         static_cast<double>(options_.num_epochs)
                                   : 0.0;
    auto task = [this, split, meta, p](const MetricInput& in) {
        std::vector<MetricState> states;
        for (auto& m : metrics(split)) {
            m->update(in, meta);
            states.push_back({m->name(), m->unit(), m->last(), m->value()});
        }
        for (auto& m : text_metrics(split)) {
            m->update(in, meta);
            states.push_back({m->name(), m->unit(), kUnrecorded, kUnrecorded, m->text()});
        }
        renderer_->update(p, states);
        if (metric_queue_ && renderer_->stop_requested()) stop_seen_.store(true);
    };
    if (metric_queue_)
        metric_queue_->submit([task, input] { task(input); });
    else
        task(input);
}

bool TrainingCore::stop_requested() {
    if (options_.interrupter && options_.interrupter->should_stop()) return true;
    if (handler_installed_ && platform::interrupt_count() > 0) return true;
    return metric_queue_ ? stop_seen_.load() : renderer_->stop_requested();
}

std::optional<std::size_t> TrainingCore::best_epoch(const MetricRef& ref) const {
    for (const auto& h : history(ref.split)) {
        if (h.name != ref.name) continue;
        std::optional<std::size_t> best;
        for (std::size_t e = 0; e < h.values.size(); ++e) {
            const double v = h.values[e];
            if (!std::isfinite(v)) continue;
            if (!best || (ref.direction == Direction::lowest ? v < h.values[*best] : v > h.values[*best]))
                best = e;
        }
        if (best) return *best + 1;
    }
    return std::nullopt;
}

bool TrainingCore::end_epoch(std::size_t epoch) {
    flush_metrics();  // the epoch's updates are done (an error in one is thrown here)
    EpochRecord rec;
    rec.epoch = epoch;
    rec.num_epochs = options_.num_epochs;
    rec.seconds = seconds_since(epoch_start_);
    for (Split split : {Split::train, Split::valid}) {
        auto& ms = metrics(split);
        auto& hs = hist(split);
        for (std::size_t i = 0; i < ms.size(); ++i) {
            hs[i].values.resize(epoch, kUnrecorded);
            hs[i].values[epoch - 1] = ms[i]->value();
            (split == Split::train ? rec.train : rec.valid)
                .push_back({ms[i]->name(), ms[i]->unit(), ms[i]->last(), ms[i]->value()});
        }
        for (const auto& m : text_metrics(split))
            (split == Split::train ? rec.train : rec.valid)
                .push_back({m->name(), m->unit(), kUnrecorded, kUnrecorded, m->text()});
    }
    renderer_->epoch_end(rec);
    write_logs();
    if (!options_.early_stopping) return false;
    const auto& es = *options_.early_stopping;
    auto best = best_epoch(es.metric);
    if (best && epoch >= *best + es.condition.n_epochs) {
        message("early stopping: the " + std::string(split_name(es.metric.split)) + " " + es.metric.name +
                " has not improved since epoch " + std::to_string(*best));
        return true;
    }
    return false;
}

void TrainingCore::save_checkpoint(const CheckpointInfo& info,
                                   const std::map<std::string, CheckpointRecord>& parts) {
    if (async_checkpointer_)
        async_checkpointer_->save(info, parts, state());
    else
        checkpointer_.save(info, parts, state());
}

bool TrainingCore::checkpoint_epoch(std::size_t epoch) {
    actions_.clear();
    if (!options_.checkpointing_strategy) return true;
    actions_ = options_.checkpointing_strategy->checkpointing(epoch, train_hist_, valid_hist_);
    return std::any_of(actions_.begin(), actions_.end(), [](const CheckpointingAction& a) {
        return a.kind == CheckpointingAction::Kind::save;
    });
}

void TrainingCore::prune_checkpoints(std::size_t epoch) {
    if (options_.checkpointing_strategy) {
        std::set<std::string> remove;
        for (const auto& a : actions_)
            if (a.kind == CheckpointingAction::Kind::remove) remove.insert(std::to_string(a.epoch));
        auto prune = [remove, epoch](Checkpointer& checkpointer) {
            for (const auto& c : checkpointer.list())
                if (remove.count(c.tag) || (c.tag == "interrupted" && c.epoch < epoch))
                    checkpointer.remove(c.tag);
        };
        if (async_checkpointer_)
            async_checkpointer_->then(prune);
        else
            prune(checkpointer_);
        return;
    }
    std::optional<std::size_t> best;
    if (options_.keep_best) best = best_epoch(*options_.keep_best);
    auto prune = [best, epoch, keep_last = options_.keep_last](Checkpointer& checkpointer) {
        for (const auto& c : checkpointer.list()) {
            if (c.tag == "interrupted") {
                if (c.epoch < epoch) checkpointer.remove(c.tag);
                continue;
            }
            const bool recent = c.epoch + keep_last > epoch;
            const bool is_best = best && *best == c.epoch;
            if (!recent && !is_best) checkpointer.remove(c.tag);
        }
    };
    if (async_checkpointer_)
        async_checkpointer_->then(prune);
    else
        prune(checkpointer_);
}

void TrainingCore::message(const std::string& line) {
    flush_metrics();  // the display is the metric thread's until its queue is empty
    renderer_->message(line);
}

void TrainingCore::write_logs() const {
    if (!options_.metric_loggers.empty()) return;  // with_metric_logger replaces the CSV files
    for (Split split : {Split::train, Split::valid}) {
        const fs::path dir = options_.artifact_dir / "metrics" / split_name(split);
        for (const auto& h : history(split)) {
            std::string csv = "epoch,value\n";
            for (std::size_t e = 0; e < h.values.size(); ++e)
                csv += std::to_string(e + 1) + "," + number_text(h.values[e]) + "\n";
            std::error_code ec;
            fs::create_directories(dir, ec);
            platform::write_file_atomic(dir / (file_name(h.name) + ".csv"), csv, "SupervisedTraining");
        }
    }
}

TrainingReport TrainingCore::finish(std::size_t epochs_completed, bool stopped_early, bool interrupted) {
    flush_metrics();
    if (async_checkpointer_) async_checkpointer_->flush();  // launch returns with every checkpoint on disk
    renderer_->finish();
    if (handler_installed_) {
        platform::remove_interrupt_handler();
        handler_installed_ = false;
    }
    TrainingReport r;
    r.epochs_completed = epochs_completed;
    r.stopped_early = stopped_early;
    r.interrupted = interrupted;
    r.resumed_from = resumed_from_;
    r.seconds = seconds_since(run_start_);
    r.train = train_hist_;
    r.valid = valid_hist_;
    if (!train_hist_.empty() || !valid_hist_.empty()) {
        const std::string table = format_summary(train_hist_, valid_hist_);
        platform::write_file_atomic(options_.artifact_dir / "summary.txt", table, "SupervisedTraining");
        platform::write_file_atomic(options_.artifact_dir / "curves.svg",
                                    curves_svg(train_hist_, valid_hist_), "SupervisedTraining");
        if (options_.summary) std::cout << table << std::flush;
    }
    return r;
}

uint64_t TrainingCore::iteration_seed(std::size_t epoch, std::size_t iteration) const {
    return data::derive_seed(options_.seed,
                             (static_cast<uint64_t>(epoch) << 32) ^ static_cast<uint64_t>(iteration));
}

}  // namespace burn::train
