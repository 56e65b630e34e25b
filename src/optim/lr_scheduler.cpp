// Learning-rate schedulers (torch.optim.lr_scheduler formulas in closed form).
#include "burn/optim/lr_scheduler.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "burn/core/error.hpp"

namespace burn::optim {

namespace {

void check_lr(const char* who, const char* field, double lr) {
    BURN_CHECK(std::isfinite(lr) && lr >= 0, "[", who, "] ", field,
               " must be a finite non-negative learning rate, got ", lr);
}

void check_positive(const char* who, const char* field, std::size_t n) {
    BURN_CHECK(n > 0, "[", who, "] ", field, " must be at least 1, got 0");
}

std::size_t read_count(const LrSchedulerRecord& record, const std::string& key, const char* who) {
    auto it = record.scalars.find(key);
    BURN_CHECK(it != record.scalars.end(), "[", who, "::load_record] the record has no '", key, "'");
    double v = it->second;
    BURN_CHECK(v >= 0 && v < 9.0e15 && v == std::floor(v), "[", who, "::load_record] '", key,
               "' must be a non-negative integer, got ", v);
    return static_cast<std::size_t>(v);
}

}  // namespace

LrSchedulerRecord IterationLrScheduler::to_record() const {
    return {{{"iteration", static_cast<double>(iteration_)}}};
}

void IterationLrScheduler::load_record(const LrSchedulerRecord& record) {
    BURN_CHECK(record.scalars.size() == 1, "[", name(),
               "::load_record] expected one scalar 'iteration', got ", record.scalars.size(), " scalars");
    iteration_ = read_count(record, "iteration", name());
}

ConstantLr::ConstantLr(double lr) : lr_(lr) {
    check_lr("ConstantLr", "lr", lr);
}

LinearLrScheduler::LinearLrScheduler(double initial_lr, double final_lr, std::size_t num_iters)
    : initial_(initial_lr), final_(final_lr), num_iters_(num_iters) {
    check_lr("LinearLrScheduler", "initial_lr", initial_lr);
    check_lr("LinearLrScheduler", "final_lr", final_lr);
    check_positive("LinearLrScheduler", "num_iters", num_iters);
}
double LinearLrScheduler::lr_at(std::size_t i) const {
    double t = static_cast<double>(std::min(i, num_iters_)) / static_cast<double>(num_iters_);
    return initial_ + (final_ - initial_) * t;
}
LinearLrScheduler LinearLrSchedulerConfig::init() const {
    return {initial_lr, final_lr, num_iters};
}

CosineAnnealingLrScheduler::CosineAnnealingLrScheduler(double initial_lr, std::size_t num_iters,
                                                       double min_lr, bool restarts, std::size_t period_mult)
    : initial_(initial_lr),
      num_iters_(num_iters),
      min_(min_lr),
      restarts_(restarts),
      period_mult_(period_mult) {
    check_lr("CosineAnnealingLrScheduler", "initial_lr", initial_lr);
    check_lr("CosineAnnealingLrScheduler", "min_lr", min_lr);
    check_positive("CosineAnnealingLrScheduler", "num_iters", num_iters);
    check_positive("CosineAnnealingLrScheduler", "period_mult", period_mult);
}
double CosineAnnealingLrScheduler::lr_at(std::size_t i) const {
    std::size_t t = i, period = num_iters_;
    if (!restarts_) {
        t = std::min(i, num_iters_);
    } else if (period_mult_ == 1) {
        t = i % period;
    } else {
        while (t >= period) {  // log(i) rounds: periods grow geometrically
            t -= period;
            period *= period_mult_;
        }
    }
    double c = std::cos(std::numbers::pi * static_cast<double>(t) / static_cast<double>(period));
    return min_ + (initial_ - min_) * (1.0 + c) / 2.0;
}
CosineAnnealingLrScheduler CosineAnnealingLrSchedulerConfig::init() const {
    return {initial_lr, num_iters, min_lr, restarts, period_mult};
}

ExponentialLrScheduler::ExponentialLrScheduler(double initial_lr, double gamma)
    : initial_(initial_lr), gamma_(gamma) {
    check_lr("ExponentialLrScheduler", "initial_lr", initial_lr);
    BURN_CHECK(std::isfinite(gamma) && gamma > 0 && gamma <= 1,
               "[ExponentialLrScheduler] gamma must be in (0, 1], got ", gamma);
}
double ExponentialLrScheduler::lr_at(std::size_t i) const {
    return initial_ * std::pow(gamma_, static_cast<double>(i));
}
ExponentialLrScheduler ExponentialLrSchedulerConfig::init() const {
    return {initial_lr, gamma};
}

StepLrScheduler::StepLrScheduler(double initial_lr, std::size_t step_size, double gamma)
    : initial_(initial_lr), step_size_(step_size), gamma_(gamma) {
    check_lr("StepLrScheduler", "initial_lr", initial_lr);
    check_positive("StepLrScheduler", "step_size", step_size);
    BURN_CHECK(std::isfinite(gamma) && gamma > 0, "[StepLrScheduler] gamma must be positive, got ", gamma);
}
double StepLrScheduler::lr_at(std::size_t i) const {
    return initial_ * std::pow(gamma_, static_cast<double>(i / step_size_));
}
StepLrScheduler StepLrSchedulerConfig::init() const {
    return {initial_lr, step_size, gamma};
}

NoamLrScheduler::NoamLrScheduler(double init_lr, std::size_t warmup_steps, std::size_t model_size)
    : init_(init_lr), warmup_(warmup_steps), model_size_(model_size) {
    check_lr("NoamLrScheduler", "init_lr", init_lr);
    check_positive("NoamLrScheduler", "warmup_steps", warmup_steps);
    check_positive("NoamLrScheduler", "model_size", model_size);
}
double NoamLrScheduler::lr_at(std::size_t i) const {
    double n = static_cast<double>(i) + 1.0;
    double w = static_cast<double>(warmup_);
    return init_ * std::pow(static_cast<double>(model_size_), -0.5) *
           std::min(std::pow(n, -0.5), n * std::pow(w, -1.5));
}
NoamLrScheduler NoamLrSchedulerConfig::init() const {
    return {init_lr, warmup_steps, model_size};
}

LrSchedulerAny::LrSchedulerAny(double lr) : impl_(std::make_unique<ConstantLr>(lr)) {}

SequentialLrScheduler::SequentialLrScheduler(std::vector<LrSchedulerAny> schedulers,
                                             std::vector<std::size_t> milestones)
    : schedulers_(std::move(schedulers)), milestones_(std::move(milestones)) {
    BURN_CHECK(!schedulers_.empty(), "[SequentialLrScheduler] needs at least one scheduler");
    BURN_CHECK(milestones_.size() + 1 == schedulers_.size(), "[SequentialLrScheduler] ", schedulers_.size(),
               " schedulers need ", schedulers_.size() - 1, " milestones, got ", milestones_.size());
    for (std::size_t k = 0; k < milestones_.size(); ++k)
        BURN_CHECK(milestones_[k] > 0 && (k == 0 || milestones_[k] > milestones_[k - 1]),
                   "[SequentialLrScheduler] milestones must be positive and increasing, got ", milestones_[k],
                   " at index ", k);
}

std::optional<double> SequentialLrScheduler::momentum() const {
    const std::size_t last = iteration_ == 0 ? 0 : iteration_ - 1;
    const auto k = static_cast<std::size_t>(std::upper_bound(milestones_.begin(), milestones_.end(), last) -
                                            milestones_.begin());
    return schedulers_[k].momentum();
}

double SequentialLrScheduler::step() {
    std::size_t k = static_cast<std::size_t>(
        std::upper_bound(milestones_.begin(), milestones_.end(), iteration_) - milestones_.begin());
    ++iteration_;
    return schedulers_[k].step();
}

namespace {

// The nested schedulers' records: "<index>.<key>" keys (other_key, when set, belongs to the parent).
std::vector<LrSchedulerRecord> split_nested(const LrSchedulerRecord& record, std::size_t n, const char* who,
                                            const char* other_key) {
    std::vector<LrSchedulerRecord> parts(n);
    for (const auto& [key, v] : record.scalars) {
        if (other_key && key == other_key) continue;
        auto dot = key.find('.');
        std::size_t k = n;
        if (dot != std::string::npos && dot > 0 && dot < 10 &&
            std::all_of(key.begin(), key.begin() + static_cast<std::ptrdiff_t>(dot),
                        [](char c) { return c >= '0' && c <= '9'; }))
            k = std::stoul(key.substr(0, dot));
        BURN_CHECK(k < n, "[", who, "::load_record] unexpected key '", key, "' (expected ",
                   other_key ? "'iteration' or " : "", "'<scheduler index>.<key>' for ", n, " schedulers)");
        parts[k].scalars[key.substr(dot + 1)] = v;
    }
    return parts;
}

// Loads into copies first so that a bad record leaves the schedulers as they were.
void load_nested(std::vector<LrSchedulerAny>& schedulers, const std::vector<LrSchedulerRecord>& parts) {
    std::vector<LrSchedulerAny> loaded = schedulers;
    for (std::size_t k = 0; k < loaded.size(); ++k) loaded[k].load_record(parts[k]);
    schedulers = std::move(loaded);
}

LrSchedulerRecord join_nested(const std::vector<LrSchedulerAny>& schedulers, LrSchedulerRecord record) {
    for (std::size_t k = 0; k < schedulers.size(); ++k)
        for (const auto& [key, v] : schedulers[k].to_record().scalars)
            record.scalars[std::to_string(k) + "." + key] = v;
    return record;
}

}  // namespace

LrSchedulerRecord SequentialLrScheduler::to_record() const {
    return join_nested(schedulers_, {{{"iteration", static_cast<double>(iteration_)}}});
}

void SequentialLrScheduler::load_record(const LrSchedulerRecord& record) {
    auto parts = split_nested(record, schedulers_.size(), "SequentialLrScheduler", "iteration");
    std::size_t iteration = read_count(record, "iteration", "SequentialLrScheduler");
    load_nested(schedulers_, parts);
    iteration_ = iteration;
}

ChainedLrScheduler::ChainedLrScheduler(std::vector<LrSchedulerAny> schedulers, LrReduction reduction)
    : schedulers_(std::move(schedulers)), reduction_(reduction) {
    BURN_CHECK(!schedulers_.empty(), "[ChainedLrScheduler] needs at least one scheduler");
    BURN_CHECK(
        reduction == LrReduction::avg || reduction == LrReduction::sum || reduction == LrReduction::prod,
        "[ChainedLrScheduler] unknown reduction ", static_cast<int>(reduction), "; use avg, sum or prod");
}

double ChainedLrScheduler::step() {
    double lr = reduction_ == LrReduction::prod ? 1.0 : 0.0;
    for (auto& s : schedulers_) lr = reduction_ == LrReduction::prod ? lr * s.step() : lr + s.step();
    return reduction_ == LrReduction::avg ? lr / static_cast<double>(schedulers_.size()) : lr;
}

std::optional<double> ChainedLrScheduler::momentum() const {
    for (const auto& s : schedulers_)
        if (auto m = s.momentum()) return m;
    return std::nullopt;
}

LrSchedulerRecord ChainedLrScheduler::to_record() const {
    return join_nested(schedulers_, {});
}

void ChainedLrScheduler::load_record(const LrSchedulerRecord& record) {
    load_nested(schedulers_, split_nested(record, schedulers_.size(), "ChainedLrScheduler", nullptr));
}

}  // namespace burn::optim
